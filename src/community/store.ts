// The overlay database: everything people and moderators add to the source data, in its own SQLite file
// that an import never touches (docs/PRIVACY.md says what each table keeps and for how long). A write is
// answered 201 only after its transaction committed: src/storage opens the file durably (WAL,
// synchronous=FULL) and brings its layout (migrations.ts) up to date.
//
// Modules prepare their own statements on `db`; this one owns the bookkeeping they share: the change log
// other processes' changes are noticed by, single-use tokens and the daily address keys.
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { utcDay, windowStart } from './days.js';
import { VOTE_WINDOW_MONTHS } from './tally.js';
import { openDatabase, type DatabaseKind } from '../storage/database.js';
import { OVERLAY_MIGRATIONS } from './migrations.js';

/** How the file is opened: by the server, the commands and a restore (src/backup). */
export const OVERLAY_DATABASE: DatabaseKind = { name: 'overlay database', migrations: OVERLAY_MIGRATIONS };

/** Decided reports and submissions (with their notes) are kept this long for moderators, then deleted. */
const DECIDED_KEEP_MONTHS = 12;
/** The change log only needs to outlive the server's next poll. */
const CHANGES_KEEP_MS = 86_400_000;

export type AddressRule = 'confirmation' | 'new_rater' | 'new_voter';

export interface ChangeSet {
  /** Highest sequence number read. */
  seq: number;
  toiletIds: Set<string>;
  /** The set of community toilets changed: a new snapshot is needed. */
  communityToilets: boolean;
}

export class OverlayStore {
  readonly db: Database.Database;
  private readonly statements;

  constructor(readonly path: string) {
    this.db = openDatabase(path, OVERLAY_DATABASE);
    const db = this.db;
    this.statements = {
      logChange: db.prepare('INSERT INTO changes (toilet_id, at) VALUES (?, ?)'),
      probe: db.prepare('INSERT OR REPLACE INTO readiness_probe (id, probed_at) VALUES (1, ?)'),
      changesSince: db.prepare('SELECT seq, toilet_id FROM changes WHERE seq > ? ORDER BY seq').raw(true),
      lastChange: db.prepare('SELECT coalesce(max(seq), 0) FROM changes').pluck(),
      tokenUsed: db.prepare('SELECT 1 FROM used_tokens WHERE token = ?').pluck(),
      reassignRatings: db.prepare('UPDATE ratings SET person = ? WHERE person = ?'),
      reassignVotes: db.prepare('UPDATE votes SET person = ? WHERE person = ?'),
      useToken: db.prepare('INSERT INTO used_tokens (token, expires_at) VALUES (?, ?)'),
      dayKey: db.prepare('SELECT key FROM day_keys WHERE day = ?').pluck(),
      addDayKey: db.prepare('INSERT INTO day_keys (day, key) VALUES (?, ?)'),
      dropDayKeys: db.prepare('DELETE FROM day_keys WHERE day < ?'),
      dropAddressDays: db.prepare('DELETE FROM address_days WHERE day < ?'),
      addressSeen: db.prepare('SELECT 1 FROM address_days WHERE rule = ? AND toilet_id = ? AND day = ? AND address = ?').pluck(),
      rememberAddress: db.prepare('INSERT OR IGNORE INTO address_days (rule, toilet_id, day, address) VALUES (?, ?, ?, ?)'),
      dropTokens: db.prepare('DELETE FROM used_tokens WHERE expires_at < ?'),
      dropVotes: db.prepare('DELETE FROM votes WHERE at < ?'),
      dropChanges: db.prepare('DELETE FROM changes WHERE at < ?'),
      dropReports: db.prepare("DELETE FROM reports WHERE status != 'open' AND decided_at < ?"),
      dropSubmissions: db.prepare("DELETE FROM submissions WHERE status != 'pending' AND decided_at < ?"),
    };
  }

  /** Runs `fn` in one immediate transaction: all of it commits (durably) or none. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Writes and commits (durably) one row, to prove the file takes writes now; throws what SQLite says when it does not. */
  probeWrite(nowMs: number): void {
    this.transaction(() => this.statements.probe.run(nowMs));
  }

  /** Changes when another connection commits (SQLite's data_version): cheap to poll. */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /** Records that a toilet's overlay (or, with null, the set of community toilets) changed. */
  logChange(toiletId: string | null, nowMs: number): void {
    this.statements.logChange.run(toiletId, nowMs);
  }

  lastChange(): number {
    return this.statements.lastChange.get() as number;
  }

  changesSince(seq: number): ChangeSet {
    const set: ChangeSet = { seq, toiletIds: new Set(), communityToilets: false };
    for (const [next, toiletId] of this.statements.changesSince.all(seq) as [number, string | null][]) {
      set.seq = next;
      if (toiletId === null) set.communityToilets = true;
      else set.toiletIds.add(toiletId);
    }
    return set;
  }

  /** Moves every rating and vote of one person to another (an account's, when it is deleted), in one transaction. */
  reassignPerson(from: string, to: string): void {
    this.transaction(() => {
      this.statements.reassignRatings.run(to, from);
      this.statements.reassignVotes.run(to, from);
    });
  }

  tokenUsed(token: string): boolean {
    return this.statements.tokenUsed.get(token) !== undefined;
  }

  useToken(token: string, expiresAtMs: number): void {
    this.statements.useToken.run(token, expiresAtMs);
  }

  /**
   * The secret that keys address hashes on a UTC day, made at the day's first use. Making it deletes the
   * keys and address rows of earlier days: per-day rules need nothing older.
   */
  dayKey(day: string): Buffer {
    const known = this.statements.dayKey.get(day) as Buffer | undefined;
    if (known) return known;
    return this.transaction(() => {
      const raced = this.statements.dayKey.get(day) as Buffer | undefined;
      if (raced) return raced;
      const key = randomBytes(32);
      this.statements.dropDayKeys.run(day);
      this.statements.dropAddressDays.run(day);
      this.statements.addDayKey.run(day, key);
      return key;
    });
  }

  addressSeen(rule: AddressRule, toiletId: string, day: string, address: string): boolean {
    return this.statements.addressSeen.get(rule, toiletId, day, address) !== undefined;
  }

  rememberAddress(rule: AddressRule, toiletId: string, day: string, address: string): void {
    this.statements.rememberAddress.run(rule, toiletId, day, address);
  }

  /** Deletes what no rule needs any more (run daily): see docs/PRIVACY.md. */
  purge(nowMs: number): void {
    const today = utcDay(nowMs);
    const s = this.statements;
    this.transaction(() => {
      s.dropDayKeys.run(today);
      s.dropAddressDays.run(today);
      s.dropTokens.run(nowMs);
      s.dropVotes.run(windowStart(nowMs, VOTE_WINDOW_MONTHS));
      s.dropChanges.run(nowMs - CHANGES_KEEP_MS);
      s.dropReports.run(windowStart(nowMs, DECIDED_KEEP_MONTHS));
      s.dropSubmissions.run(windowStart(nowMs, DECIDED_KEEP_MONTHS));
    });
  }

  close(): void {
    this.db.close();
  }
}
