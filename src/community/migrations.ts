// The overlay database's layout, step by step (src/storage/migrations.ts; src/storage/README.md says how
// to add a step). Never edit a step that has shipped: self-hosters' files already went through it.
//
// Step 1 is the layout of the releases before migrations, exactly. Their files are unversioned
// (user_version 0) and hold these tables already: CREATE ... IF NOT EXISTS leaves them and their rows as
// they are and makes whatever is missing, so such a file, like an empty one, comes out at version 1.
import type { Migration } from '../storage/migrations.js';

const RELEASED_LAYOUT = `
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

export const OVERLAY_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'contributions, moderation, OSM notes and the change log', up: (db) => db.exec(RELEASED_LAYOUT) },
  // GET /readyz proves the file takes a write by writing this one row (src/status/status.ts)
  {
    version: 2,
    name: 'the readiness probe row',
    up: (db) => db.exec('CREATE TABLE readiness_probe (id INTEGER PRIMARY KEY CHECK (id = 1), probed_at INTEGER NOT NULL)'),
  },
];
