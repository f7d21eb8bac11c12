// The cluster's worker lease (DATABASE_URL): a row in PostgreSQL naming the one replica that runs the
// background work over shared state (worker.ts), with an expiry the holder pushes forward every quarter of
// the TTL (WORKER_LEASE_SECONDS). Another replica takes the row only once it has expired by its own clock;
// the holder gives the work up by its own clock a quarter of the TTL before that, renewed or not, so the
// two never overlap while the replicas' clocks agree within that quarter (NTP: milliseconds).
//
// Why a lease row and not a session advisory lock on a connection of its own: the lock is freed at once
// when the holder's process dies (a faster failover), but it is held for as long as PostgreSQL keeps that
// connection, and a holder that hangs (stopped, swapping) or is cut off keeps it: PostgreSQL sees a dead
// peer only after TCP keepalive (two hours by default), and a holder cut off from PostgreSQL cannot learn
// that it lost the lock, so the work would stop for the cluster or run twice. A row with an expiry bounds
// both by the TTL, whatever the connection does: the holder stops when it could not renew in time, even
// while its query hangs. A holder that closes (SIGTERM, a rolling upgrade) deletes the row, so another takes
// over at its next try rather than after the TTL.
import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Logger } from '../log.js';

/** The one lease the service has. */
const WORKER = 'worker';

export interface LeaseStatus {
  /** This replica's id, as the lease row and the other replicas' logs name it. */
  replica: string;
  /** Who holds the lease as last read: this replica's id, another's, or null (nobody, or not read yet). */
  holder: string | null;
  ttl_seconds: number;
  /** Why the last try to take or renew the lease failed (PostgreSQL out of reach); null when it answered. */
  last_error: string | null;
}

export interface LeaseOptions {
  /** Queries on the database of DATABASE_URL (the cluster schema's table is named in full). */
  db: Kysely<unknown>;
  ttlMs: number;
  now: () => number;
  log: Logger;
  /** This replica's id; default: host name, process id and a random part (two processes never share one). */
  replica?: string;
}

/**
 * Takes and renews the lease every quarter of the TTL. Events: `taken` when this replica becomes the
 * worker, `lost` (with the reason) when it stops being it, `tried` after each try (tests wait for it).
 */
export class WorkerLease extends EventEmitter {
  readonly replica: string;
  private holding = false;
  private expiresAtMs = 0;
  private holder: string | null = null;
  private lastError: string | null = null;
  private trying: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private announced = false;

  constructor(private readonly options: LeaseOptions) {
    super();
    this.replica = options.replica ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  get held(): boolean {
    return this.holding;
  }

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), this.options.ttlMs / 4);
    this.timer.unref();
  }

  status(): LeaseStatus {
    return { replica: this.replica, holder: this.holder, ttl_seconds: this.options.ttlMs / 1000, last_error: this.lastError };
  }

  /**
   * Stops trying; gives the lease up (the row deleted, so another replica takes it at its next try). Waits
   * for PostgreSQL a quarter of the TTL at most: a shutdown never hangs on it, and the lease expires anyway.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    const patience = this.options.ttlMs / 4;
    await within(this.trying, patience);
    if (!this.holding) return;
    this.lose('this replica is stopping');
    await within(sql`DELETE FROM cluster.leases WHERE name = ${WORKER} AND holder = ${this.replica}`.execute(this.options.db).catch(() => undefined), patience);
  }

  private tick(): void {
    const { now, ttlMs } = this.options;
    if (this.holding && now() >= this.expiresAtMs - ttlMs / 4) this.lose(`the lease could not be renewed in time (${this.lastError ?? 'PostgreSQL did not answer'})`);
    // a try that hangs is not repeated; the check above still ends the holding in time
    this.trying ??= this.attempt().finally(() => (this.trying = null));
  }

  private async attempt(): Promise<void> {
    const triedAtMs = this.options.now();
    try {
      const holder = await this.claim(triedAtMs);
      if (this.closed) return;
      this.recovered();
      this.holder = holder;
      if (holder === this.replica) this.take(triedAtMs + this.options.ttlMs);
      else if (this.holding) this.lose(`replica ${holder ?? 'another'} holds the lease now`);
      else if (!this.announced) this.options.log.info(`this replica (${this.replica}) is a standby: replica ${holder ?? 'another'} holds the worker lease and runs the shared background work; this one takes over when it stops renewing (WORKER_LEASE_SECONDS=${this.options.ttlMs / 1000})`);
      this.announced = true;
    } catch (error) {
      this.failed(error);
    }
    this.emit('tried');
  }

  /** Takes the lease when it is free, expired or this replica's; resolves with its holder after the try. */
  private async claim(nowMs: number): Promise<string | null> {
    const { db, ttlMs } = this.options;
    const { rows } = await sql<{ holder: string }>`
      INSERT INTO cluster.leases AS lease (name, holder, expires_at, since) VALUES (${WORKER}, ${this.replica}, ${nowMs + ttlMs}, ${nowMs})
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at,
        since = CASE WHEN lease.holder = excluded.holder THEN lease.since ELSE excluded.since END
      WHERE lease.holder = excluded.holder OR lease.expires_at <= ${nowMs}
      RETURNING holder`.execute(db);
    if (rows.length === 1) return rows[0].holder;
    const held = await sql<{ holder: string }>`SELECT holder FROM cluster.leases WHERE name = ${WORKER}`.execute(db);
    return held.rows[0]?.holder ?? null;
  }

  private take(expiresAtMs: number): void {
    this.expiresAtMs = expiresAtMs;
    // a renewal that answered too late to be worth holding on: the next try renews afresh
    if (this.holding || this.options.now() >= expiresAtMs - this.options.ttlMs / 4) return;
    this.holding = true;
    this.options.log.info(`this replica (${this.replica}) is the cluster's worker now: it runs the background work over the shared state`);
    this.emit('taken');
  }

  private lose(reason: string): void {
    if (!this.holding) return;
    this.holding = false;
    this.options.log.info(`this replica (${this.replica}) is no longer the cluster's worker: ${reason}; its shared background work stopped`);
    this.emit('lost', reason);
  }

  private failed(error: unknown): void {
    const message = (error as Error).message;
    if (this.lastError === null) this.options.log.error(`the worker lease cannot be read or renewed in PostgreSQL: ${message}; tried again every ${this.options.ttlMs / 4000} s`);
    this.lastError = message;
  }

  private recovered(): void {
    if (this.lastError === null) return;
    this.lastError = null;
    this.options.log.info('the worker lease is read in PostgreSQL again');
  }
}

/** Resolves when `promise` settles or after `ms`, whichever is first. */
async function within(promise: Promise<unknown> | null, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise?.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
