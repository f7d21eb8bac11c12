// The overlay store in its SQLite file (OVERLAY_DB, the default): src/storage opens it durably (WAL,
// synchronous=FULL) and brings its layout (migrations.ts) up to date. The statements stay synchronous
// inside; the interface is asynchronous so that PostgreSQL (postgres-store.ts) can stand beside it.
// Transactions of this process run one after the other (BEGIN IMMEDIATE ... COMMIT around an async
// function), so an await inside one never lets another one's statements in.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { FactAttribute } from '../rules/facts.js';
import { utcDay, windowStart } from './days.js';
import { VOTE_WINDOW_MONTHS } from './tally.js';
import { openDatabase, type DatabaseKind } from '../storage/database.js';
import { OVERLAY_MIGRATIONS } from './migrations.js';
import { CHANGES_KEEP_MS, DECIDED_KEEP_MONTHS, type AddressRule, type ChangeSet, type OverlayStore, type OverlayTransaction, type QueuedNote, type Submission } from './store.js';

/** How the file is opened: by the server, the commands and a restore (src/backup). */
export const OVERLAY_DATABASE: DatabaseKind = { name: 'overlay database', migrations: OVERLAY_MIGRATIONS };

/** Async functions run as immediate transactions of one connection, one at a time. */
export class SqliteTransactions {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: Database.Database) {}

  run<T>(fn: () => Promise<T>): Promise<T> {
    const done = this.queue.then(async () => {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn();
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
    this.queue = done.catch(() => undefined);
    return done;
  }
}

export class SqliteOverlayStore implements OverlayStore {
  readonly db: Database.Database;
  readonly transactions: SqliteTransactions;
  private readonly s;
  private readonly tx: OverlayTransaction;
  private version = -1;

  constructor(readonly path: string) {
    const db = (this.db = openDatabase(path, OVERLAY_DATABASE));
    this.transactions = new SqliteTransactions(db);
    this.s = {
      logChange: db.prepare('INSERT INTO changes (toilet_id, at) VALUES (?, ?)'),
      probe: db.prepare('INSERT OR REPLACE INTO readiness_probe (id, probed_at) VALUES (1, ?)'),
      changesSince: db.prepare('SELECT seq, toilet_id FROM changes WHERE seq > ? ORDER BY seq').raw(true),
      lastChange: db.prepare('SELECT coalesce(max(seq), 0) FROM changes').pluck(),
      reassignRatings: db.prepare('UPDATE ratings SET person = ? WHERE person = ?'),
      reassignVotes: db.prepare('UPDATE votes SET person = ? WHERE person = ?'),
      useToken: db.prepare('INSERT OR IGNORE INTO used_tokens (token, expires_at) VALUES (?, ?)'),
      dayKey: db.prepare('SELECT key FROM day_keys WHERE day = ?').pluck(),
      addDayKey: db.prepare('INSERT INTO day_keys (day, key) VALUES (?, ?)'),
      dropDayKeys: db.prepare('DELETE FROM day_keys WHERE day < ?'),
      dropAddressDays: db.prepare('DELETE FROM address_days WHERE day < ?'),
      rememberAddress: db.prepare('INSERT OR IGNORE INTO address_days (rule, toilet_id, day, address) VALUES (?, ?, ?, ?)'),
      dropTokens: db.prepare('DELETE FROM used_tokens WHERE expires_at < ?'),
      dropVotes: db.prepare('DELETE FROM votes WHERE at < ?'),
      dropChanges: db.prepare('DELETE FROM changes WHERE at < ?'),
      dropReports: db.prepare("DELETE FROM reports WHERE status != 'open' AND decided_at < ?"),
      dropSubmissions: db.prepare("DELETE FROM submissions WHERE status != 'pending' AND decided_at < ?"),
      confirm: db.prepare('INSERT INTO confirmations (toilet_id, at) VALUES (?, ?)'),
      rated: db.prepare('SELECT 1 FROM ratings WHERE toilet_id = ? AND person = ?').pluck(),
      rate: db.prepare('INSERT OR REPLACE INTO ratings (toilet_id, person, rating, at) VALUES (?, ?, ?, ?)'),
      voted: db.prepare('SELECT 1 FROM votes WHERE toilet_id = ? AND person = ? LIMIT 1').pluck(),
      vote: db.prepare('INSERT OR REPLACE INTO votes (toilet_id, attribute, person, value, at) VALUES (?, ?, ?, ?, ?)'),
      report: db.prepare('INSERT INTO reports (toilet_id, kind, note, at) VALUES (?, ?, ?, ?)'),
      submit: db.prepare(
        'INSERT INTO submissions (lat, lon, name, access, fee, opening_hours, wheelchair, changing_table, note, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      queuedNotes: db.prepare('SELECT id, lat, lon, text, attempts FROM osm_notes WHERE sent_at IS NULL AND attempts < ? ORDER BY id LIMIT ?'),
      noteAttempted: db.prepare('UPDATE osm_notes SET attempts = attempts + 1 WHERE id = ? AND attempts = ? AND sent_at IS NULL'),
      noteSent: db.prepare('UPDATE osm_notes SET sent_at = ?, note_id = ?, last_error = NULL WHERE id = ?'),
      noteFailed: db.prepare('UPDATE osm_notes SET last_error = ? WHERE id = ?'),
    };
    this.tx = this.transactionWrites();
  }

  get readable(): Database.Database {
    return this.db;
  }

  transaction<T>(fn: (tx: OverlayTransaction) => Promise<T>): Promise<T> {
    return this.transactions.run(() => fn(this.tx));
  }

  async probeWrite(nowMs: number): Promise<void> {
    await this.transactions.run(async () => this.s.probe.run(nowMs));
  }

  async dayKey(day: string): Promise<Buffer> {
    const known = this.s.dayKey.get(day) as Buffer | undefined;
    if (known) return known;
    return this.transactions.run(async () => {
      const raced = this.s.dayKey.get(day) as Buffer | undefined;
      if (raced) return raced;
      const key = randomBytes(32);
      this.s.dropDayKeys.run(day);
      this.s.dropAddressDays.run(day);
      this.s.addDayKey.run(day, key);
      return key;
    });
  }

  async reassignPerson(from: string, to: string): Promise<void> {
    await this.transactions.run(async () => {
      this.s.reassignRatings.run(to, from);
      this.s.reassignVotes.run(to, from);
    });
  }

  async purge(nowMs: number): Promise<void> {
    const { s } = this;
    const today = utcDay(nowMs);
    await this.transactions.run(async () => {
      s.dropDayKeys.run(today);
      s.dropAddressDays.run(today);
      s.dropTokens.run(nowMs);
      s.dropVotes.run(windowStart(nowMs, VOTE_WINDOW_MONTHS));
      s.dropChanges.run(nowMs - CHANGES_KEEP_MS);
      s.dropReports.run(windowStart(nowMs, DECIDED_KEEP_MONTHS));
      s.dropSubmissions.run(windowStart(nowMs, DECIDED_KEEP_MONTHS));
    });
  }

  async lastChange(): Promise<number> {
    this.version = this.dataVersion();
    return this.s.lastChange.get() as number;
  }

  /** data_version changes only when another connection commits: without `look`, a poll costs one pragma. */
  async changesSince(seq: number, look: boolean): Promise<ChangeSet | null> {
    const version = this.dataVersion();
    if (version === this.version && !look) return null;
    const set: ChangeSet = { seq, toiletIds: new Set(), communityToilets: false };
    for (const [next, toiletId] of this.s.changesSince.all(seq) as [number, string | null][]) {
      set.seq = next;
      if (toiletId === null) set.communityToilets = true;
      else set.toiletIds.add(toiletId);
    }
    this.version = version;
    return set;
  }

  /** Another process's commits are found by the poll (data_version): nothing tells of them sooner. */
  onChange(): void {}

  async queuedNotes(maxAttempts: number, limit: number): Promise<QueuedNote[]> {
    return this.s.queuedNotes.all(maxAttempts, limit) as QueuedNote[];
  }

  async noteAttempted(id: number, attempts: number): Promise<boolean> {
    return this.s.noteAttempted.run(id, attempts).changes === 1;
  }

  async noteSent(id: number, atMs: number, noteId: number | null): Promise<void> {
    this.s.noteSent.run(atMs, noteId, id);
  }

  async noteFailed(id: number, error: string): Promise<void> {
    this.s.noteFailed.run(error, id);
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  private transactionWrites(): OverlayTransaction {
    const { s } = this;
    const anyOf = (statement: Database.Statement, toiletIds: readonly string[], person: string) => toiletIds.some((id) => statement.get(id, person) !== undefined);
    return {
      useToken: async (token, expiresAtMs) => s.useToken.run(token, expiresAtMs).changes === 1,
      rememberAddress: async (rule: AddressRule, toiletId, day, address) => s.rememberAddress.run(rule, toiletId, day, address).changes === 1,
      addConfirmation: async (toiletId, atMs) => void s.confirm.run(toiletId, atMs),
      hasRated: async (toiletIds, person) => anyOf(s.rated, toiletIds, person),
      rate: async (toiletId, person, rating, atMs) => void s.rate.run(toiletId, person, rating, atMs),
      hasVoted: async (toiletIds, person) => anyOf(s.voted, toiletIds, person),
      vote: async (toiletId, attribute: FactAttribute, person, value, atMs) => void s.vote.run(toiletId, attribute, person, value, atMs),
      addReport: async (toiletId, kind, note, atMs) => Number(s.report.run(toiletId, kind, note, atMs).lastInsertRowid),
      addSubmission: async (x: Submission, atMs) =>
        Number(s.submit.run(x.lat, x.lon, x.name ?? null, x.access ?? null, x.fee ?? null, x.opening_hours ?? null, x.wheelchair ?? null, x.changing_table ?? null, x.note ?? null, atMs).lastInsertRowid),
      logChange: async (toiletId, atMs) => void s.logChange.run(toiletId, atMs),
    };
  }
}
