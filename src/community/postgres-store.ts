// The overlay store in PostgreSQL's `overlay` schema (DATABASE_URL), shared by every replica. Transactions
// are PostgreSQL's (READ COMMITTED): the single-use and once-a-day rules hold across replicas because each
// is one INSERT ... ON CONFLICT DO NOTHING that tells whether it inserted. The change log is numbered in
// commit order: a writer takes the change lock (a transaction advisory lock) before it logs a change and
// holds it until it commits, so a replica that read up to number N never finds a smaller one committed
// later. A trigger announces each change (NOTIFY, overlay-step.ts); the server's poll of the log catches
// up on whatever a lost connection missed. What reads need is copied into memory (overlay-mirror.ts).
import { randomBytes } from 'node:crypto';
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type Database from 'better-sqlite3';
import { PostgresDatabase, type PostgresAddress, type PostgresSchema } from '../storage/postgres.js';
import { utcDay, windowStart } from './days.js';
import { VOTE_WINDOW_MONTHS } from './tally.js';
import { CHANGES_KEEP_MS, DECIDED_KEEP_MONTHS, type ChangeSet, type OverlayStore, type OverlayTransaction, type QueuedNote } from './store.js';
import { OverlayMirror, type RowSource } from './overlay-mirror.js';
import { CHANGES_CHANNEL, OVERLAY_STEP } from './overlay-step.js';

/** The schema of the overlay's tables. */
export const OVERLAY_SCHEMA = 'overlay';

/**
 * The overlay schema and its steps: the community's alone (src/databases.ts collects the same from the
 * slices; test/community/overlay-store.test.ts checks they agree), so that the dump can open it without
 * loading the list of features, which names the accounts' stores.
 */
export const OVERLAY_POSTGRES_SCHEMA: PostgresSchema = { name: 'overlay', steps: [OVERLAY_STEP] };

/**
 * The overlay store alone on its own pool (`npm run dump`, which must never read the accounts schema): the
 * `overlay` schema opened and migrated; close() ends the pool as well.
 */
export async function openOverlayAlone(address: PostgresAddress, onIdleError: (message: string) => void): Promise<OverlayStore> {
  const postgres = await PostgresDatabase.open(address, [OVERLAY_POSTGRES_SCHEMA], onIdleError);
  try {
    return await PostgresOverlayStore.open(postgres, true);
  } catch (error) {
    await postgres.close();
    throw new Error(`cannot read the overlay from the PostgreSQL database ${postgres.shown}: ${(error as Error).message}`, { cause: error });
  }
}

/** Any Kysely handle the queries run on: the pool, or one transaction. */
export type PostgresRunner = Kysely<unknown> | Transaction<unknown>;

export class PostgresOverlayStore implements OverlayStore {
  private readonly mirror = new OverlayMirror();
  private readonly listeners: (() => void)[] = [];
  private stopListening: (() => Promise<void>) | null = null;
  /** The last change the copy in memory holds. */
  private mirrored = 0;

  private constructor(
    private readonly postgres: PostgresDatabase,
    readonly db: Kysely<unknown>,
    private readonly ownsPool: boolean,
  ) {}

  /**
   * Opens the store on a migrated database: the rows reads need are copied into memory first. `ownsPool`:
   * close() ends the database's pool too (else its opener, src/stores.ts, does).
   */
  static async open(postgres: PostgresDatabase, ownsPool = false): Promise<PostgresOverlayStore> {
    const store = new PostgresOverlayStore(postgres, postgres.schema<unknown>(OVERLAY_SCHEMA), ownsPool);
    await store.reload();
    store.stopListening = postgres.listen(CHANGES_CHANNEL, () => store.listeners.forEach((listener) => listener()));
    return store;
  }

  get readable(): Database.Database {
    return this.mirror.db;
  }

  transaction<T>(fn: (tx: OverlayTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => fn(overlayWrites(trx)));
  }

  async probeWrite(nowMs: number): Promise<void> {
    await sql`INSERT INTO overlay.readiness_probe (id, probed_at) VALUES (1, ${nowMs}) ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at`.execute(this.db);
  }

  async dayKey(day: string): Promise<Buffer> {
    const known = await sql<{ key: Buffer }>`SELECT key FROM overlay.day_keys WHERE day = ${day}`.execute(this.db);
    if (known.rows.length > 0) return known.rows[0].key;
    return this.db.transaction().execute(async (trx) => {
      await sql`DELETE FROM overlay.day_keys WHERE day < ${day}`.execute(trx);
      await sql`DELETE FROM overlay.address_days WHERE day < ${day}`.execute(trx);
      await sql`INSERT INTO overlay.day_keys (day, key) VALUES (${day}, ${randomBytes(32)}) ON CONFLICT (day) DO NOTHING`.execute(trx);
      const made = await sql<{ key: Buffer }>`SELECT key FROM overlay.day_keys WHERE day = ${day}`.execute(trx);
      return made.rows[0].key;
    });
  }

  async reassignPerson(from: string, to: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await sql`UPDATE overlay.ratings SET person = ${to} WHERE person = ${from}`.execute(trx);
      await sql`UPDATE overlay.votes SET person = ${to} WHERE person = ${from}`.execute(trx);
    });
  }

  async purge(nowMs: number): Promise<void> {
    const today = utcDay(nowMs);
    const decided = windowStart(nowMs, DECIDED_KEEP_MONTHS);
    await this.db.transaction().execute(async (trx) => {
      await sql`DELETE FROM overlay.day_keys WHERE day < ${today}`.execute(trx);
      await sql`DELETE FROM overlay.address_days WHERE day < ${today}`.execute(trx);
      await sql`DELETE FROM overlay.used_tokens WHERE expires_at < ${nowMs}`.execute(trx);
      await sql`DELETE FROM overlay.votes WHERE at < ${windowStart(nowMs, VOTE_WINDOW_MONTHS)}`.execute(trx);
      await sql`DELETE FROM overlay.changes WHERE at < ${nowMs - CHANGES_KEEP_MS}`.execute(trx);
      await sql`DELETE FROM overlay.reports WHERE status != 'open' AND decided_at < ${decided}`.execute(trx);
      await sql`DELETE FROM overlay.submissions WHERE status != 'pending' AND decided_at < ${decided}`.execute(trx);
    });
  }

  async lastChange(): Promise<number> {
    return this.mirrored;
  }

  /** Always looks (one indexed query): the poll is what catches up after a NOTIFY was lost. */
  async changesSince(seq: number): Promise<ChangeSet> {
    const { rows } = await sql<{ seq: string; toilet_id: string | null; oldest: string }>`
      SELECT seq, toilet_id, (SELECT min(seq) FROM overlay.changes) AS oldest FROM overlay.changes WHERE seq > ${seq} ORDER BY seq`.execute(this.db);
    const set: ChangeSet = { seq, toiletIds: new Set(), communityToilets: false };
    if (rows.length === 0) return set;
    for (const row of rows) {
      set.seq = Number(row.seq);
      if (row.toilet_id === null) set.communityToilets = true;
      else set.toiletIds.add(row.toilet_id);
    }
    if (Number(rows[0].oldest) > seq + 1 && seq > 0) {
      // the log was purged past what this replica saw (it was away a day): everything again
      await this.reload();
      return { ...set, seq: Math.max(set.seq, this.mirrored), communityToilets: true };
    }
    await this.mirror.load(this.rows, OVERLAY_SCHEMA, [...set.toiletIds], set.communityToilets);
    this.mirrored = Math.max(this.mirrored, set.seq);
    return set;
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  async queuedNotes(maxAttempts: number, limit: number): Promise<QueuedNote[]> {
    const { rows } = await sql<QueuedNote>`
      SELECT id, lat, lon, text, attempts FROM overlay.osm_notes WHERE sent_at IS NULL AND attempts < ${maxAttempts} ORDER BY id LIMIT ${limit}`.execute(this.db);
    return rows;
  }

  async noteAttempted(id: number, attempts: number): Promise<boolean> {
    const done = await sql`UPDATE overlay.osm_notes SET attempts = attempts + 1 WHERE id = ${id} AND attempts = ${attempts} AND sent_at IS NULL`.execute(this.db);
    return done.numAffectedRows === 1n;
  }

  async noteSent(id: number, atMs: number, noteId: number | null): Promise<void> {
    await sql`UPDATE overlay.osm_notes SET sent_at = ${atMs}, note_id = ${noteId}, last_error = NULL WHERE id = ${id}`.execute(this.db);
  }

  async noteFailed(id: number, error: string): Promise<void> {
    await sql`UPDATE overlay.osm_notes SET last_error = ${error} WHERE id = ${id}`.execute(this.db);
  }

  /** Stops listening and drops the copy in memory (and ends the pool when it owns it). */
  async close(): Promise<void> {
    await this.stopListening?.();
    this.mirror.close();
    if (this.ownsPool) await this.postgres.close();
  }

  /** Copies every row reads need; the log's number is read first, so a change committed meanwhile is applied again, never missed. */
  private async reload(): Promise<void> {
    const { rows } = await sql<{ seq: string }>`SELECT coalesce(max(seq), 0) AS seq FROM overlay.changes`.execute(this.db);
    await this.mirror.loadAll(this.rows, OVERLAY_SCHEMA);
    this.mirrored = Number(rows[0].seq);
  }

  /** The mirror's row source: a SELECT's rows as arrays, in the order of its columns. */
  private readonly rows: RowSource = async (text, values) => {
    const result = await this.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, values));
    return result.rows.map((row) => Object.values(row));
  };
}

/** Logs a change under the change lock (see the header comment), which the transaction holds until it ends. */
export async function logChange(trx: PostgresRunner, toiletId: string | null, atMs: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext('toilet-finder overlay changes'))`.execute(trx);
  await sql`INSERT INTO overlay.changes (toilet_id, at) VALUES (${toiletId}, ${atMs})`.execute(trx);
}

function inserted(result: { numAffectedRows?: bigint }): boolean {
  return result.numAffectedRows === 1n;
}

function overlayWrites(trx: Transaction<unknown>): OverlayTransaction {
  const exists = async (query: ReturnType<typeof sql>) => (await query.execute(trx)).rows.length > 0;
  const id = async (query: ReturnType<typeof sql<{ id: string }>>) => Number((await query.execute(trx)).rows[0].id);
  return {
    useToken: async (token, expiresAtMs) => inserted(await sql`INSERT INTO overlay.used_tokens (token, expires_at) VALUES (${token}, ${expiresAtMs}) ON CONFLICT DO NOTHING`.execute(trx)),
    rememberAddress: async (rule, toiletId, day, address) =>
      inserted(await sql`INSERT INTO overlay.address_days (rule, toilet_id, day, address) VALUES (${rule}, ${toiletId}, ${day}, ${address}) ON CONFLICT DO NOTHING`.execute(trx)),
    addConfirmation: async (toiletId, atMs) => void (await sql`INSERT INTO overlay.confirmations (toilet_id, at) VALUES (${toiletId}, ${atMs})`.execute(trx)),
    hasRated: (toiletIds, person) => exists(sql`SELECT 1 FROM overlay.ratings WHERE toilet_id = ANY(${toiletIds}) AND person = ${person} LIMIT 1`),
    rate: async (toiletId, person, rating, atMs) =>
      void (await sql`INSERT INTO overlay.ratings (toilet_id, person, rating, at) VALUES (${toiletId}, ${person}, ${rating}, ${atMs})
        ON CONFLICT (toilet_id, person) DO UPDATE SET rating = excluded.rating, at = excluded.at`.execute(trx)),
    hasVoted: (toiletIds, person) => exists(sql`SELECT 1 FROM overlay.votes WHERE toilet_id = ANY(${toiletIds}) AND person = ${person} LIMIT 1`),
    vote: async (toiletId, attribute, person, value, atMs) =>
      void (await sql`INSERT INTO overlay.votes (toilet_id, attribute, person, value, at) VALUES (${toiletId}, ${attribute}, ${person}, ${value}, ${atMs})
        ON CONFLICT (toilet_id, attribute, person) DO UPDATE SET value = excluded.value, at = excluded.at`.execute(trx)),
    addReport: (toiletId, kind, note, atMs) => id(sql<{ id: string }>`INSERT INTO overlay.reports (toilet_id, kind, note, at) VALUES (${toiletId}, ${kind}, ${note}, ${atMs}) RETURNING id`),
    addSubmission: (s, atMs) =>
      id(sql<{ id: string }>`INSERT INTO overlay.submissions (lat, lon, name, access, fee, opening_hours, wheelchair, changing_table, note, at)
        VALUES (${s.lat}, ${s.lon}, ${s.name ?? null}, ${s.access ?? null}, ${s.fee ?? null}, ${s.opening_hours ?? null}, ${s.wheelchair ?? null}, ${s.changing_table ?? null}, ${s.note ?? null}, ${atMs})
        RETURNING id`),
    logChange: (toiletId, atMs) => logChange(trx, toiletId, atMs),
  };
}
