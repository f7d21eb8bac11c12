// The overlay database: everything people and moderators add to the source data, in its own SQLite file
// that an import never touches (docs/PRIVACY.md says what each table keeps and for how long). A write is
// answered 201 only after its transaction committed: WAL with synchronous=FULL makes a commit durable
// (fsync of the log) before the call returns, so an acknowledged contribution survives a crash.
//
// Modules prepare their own statements on `db`; this one owns the schema and the bookkeeping they share:
// the change log other processes' changes are noticed by, single-use tokens and the daily address keys.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { utcDay, windowStart } from './days.js';
import { VOTE_WINDOW_MONTHS } from './tally.js';
import { errorCode } from '../storage/errors.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS confirmations (
  toilet_id TEXT NOT NULL,
  at        INTEGER NOT NULL               -- epoch ms
);
CREATE INDEX IF NOT EXISTS confirmations_by_toilet ON confirmations (toilet_id, at);

-- person: 'd:' + keyed hash of the device id (later 'a:' + account id); one row per person and toilet
CREATE TABLE IF NOT EXISTS ratings (
  toilet_id TEXT NOT NULL,
  person    TEXT NOT NULL,
  rating    INTEGER NOT NULL,
  at        INTEGER NOT NULL,
  PRIMARY KEY (toilet_id, person)
) WITHOUT ROWID;

-- one row per person and fact: the latest vote; value in normal form (normal-form.ts)
CREATE TABLE IF NOT EXISTS votes (
  toilet_id TEXT NOT NULL,
  attribute TEXT NOT NULL,
  person    TEXT NOT NULL,
  value     TEXT NOT NULL,
  at        INTEGER NOT NULL,
  PRIMARY KEY (toilet_id, attribute, person)
) WITHOUT ROWID;

-- a moderator's value for a fact; attribute 'existence' with value 'gone' hides the toilet
CREATE TABLE IF NOT EXISTS locks (
  toilet_id TEXT NOT NULL,
  attribute TEXT NOT NULL,
  value     TEXT NOT NULL,
  at        INTEGER NOT NULL,
  PRIMARY KEY (toilet_id, attribute)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS reports (
  id         INTEGER PRIMARY KEY,
  toilet_id  TEXT NOT NULL,
  kind       TEXT NOT NULL,
  note       TEXT,
  at         INTEGER NOT NULL,
  status     TEXT NOT NULL DEFAULT 'open', -- open | approved | rejected
  decided_at INTEGER
);
CREATE INDEX IF NOT EXISTS reports_by_status ON reports (status, toilet_id);

CREATE TABLE IF NOT EXISTS submissions (
  id             INTEGER PRIMARY KEY,
  lat            REAL NOT NULL,
  lon            REAL NOT NULL,
  name           TEXT,
  access         TEXT,
  fee            TEXT,
  opening_hours  TEXT,
  wheelchair     TEXT,
  changing_table TEXT,
  note           TEXT,
  at             INTEGER NOT NULL,
  status         TEXT NOT NULL DEFAULT 'pending', -- pending | approved | rejected
  decided_at     INTEGER
);

-- approved submissions: toilets the source database does not have (ids c_<submission id>)
CREATE TABLE IF NOT EXISTS community_toilets (
  id             TEXT PRIMARY KEY,
  lat            REAL NOT NULL,
  lon            REAL NOT NULL,
  name           TEXT,
  access         TEXT NOT NULL,
  access_rule    TEXT NOT NULL,
  fee_required   INTEGER,
  opening_hours  TEXT,
  wheelchair     TEXT NOT NULL,
  changing_table TEXT NOT NULL,
  time_zone      TEXT NOT NULL,
  country        TEXT,
  approved_at    INTEGER NOT NULL          -- epoch seconds
);

-- per-address-per-day rules: address is a keyed hash with that day's key; both go when the day ends
CREATE TABLE IF NOT EXISTS address_days (
  rule      TEXT NOT NULL,                 -- confirmation | new_rater | new_voter
  toilet_id TEXT NOT NULL,
  day       TEXT NOT NULL,
  address   TEXT NOT NULL,
  PRIMARY KEY (rule, toilet_id, day, address)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS day_keys (
  day TEXT PRIMARY KEY,
  key BLOB NOT NULL
);

-- human-check tokens already used, kept until they expire
CREATE TABLE IF NOT EXISTS used_tokens (
  token      TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS moderation_log (
  id      INTEGER PRIMARY KEY,
  at      INTEGER NOT NULL,
  action  TEXT NOT NULL,
  target  TEXT NOT NULL,
  reason  TEXT NOT NULL,
  details TEXT                             -- JSON
);

-- anonymous OpenStreetMap notes waiting to be sent (osm-notes.ts)
CREATE TABLE IF NOT EXISTS osm_notes (
  id         INTEGER PRIMARY KEY,
  report_id  INTEGER NOT NULL,
  lat        REAL NOT NULL,
  lon        REAL NOT NULL,
  text       TEXT NOT NULL,
  queued_at  INTEGER NOT NULL,
  sent_at    INTEGER,
  note_id    INTEGER,
  attempts   INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
);

-- what changed, for a server noticing another process's writes (moderation): toilet_id NULL = the set
-- of community toilets changed
CREATE TABLE IF NOT EXISTS changes (
  seq       INTEGER PRIMARY KEY AUTOINCREMENT,
  toilet_id TEXT,
  at        INTEGER NOT NULL
);
`;

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

/** The overlay database, ready for use; a failure names the file and keeps its error code (storage-errors.ts). */
function open(path: string): Database.Database {
  let db: Database.Database | null = null;
  try {
    mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000'); // the moderation command may hold the write lock for a moment
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db?.close();
    throw Object.assign(new Error(`cannot open the overlay database ${path}: ${(error as Error).message}`, { cause: error }), { code: errorCode(error) });
  }
}

export class OverlayStore {
  readonly db: Database.Database;
  private readonly statements;

  constructor(readonly path: string) {
    this.db = open(path);
    const db = this.db;
    this.statements = {
      logChange: db.prepare('INSERT INTO changes (toilet_id, at) VALUES (?, ?)'),
      changesSince: db.prepare('SELECT seq, toilet_id FROM changes WHERE seq > ? ORDER BY seq').raw(true),
      lastChange: db.prepare('SELECT coalesce(max(seq), 0) FROM changes').pluck(),
      tokenUsed: db.prepare('SELECT 1 FROM used_tokens WHERE token = ?').pluck(),
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
