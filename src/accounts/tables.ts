// The accounts database's steps of the accounts' own tables (1 and 3): accounts, passkeys, sessions,
// challenges, recovery links, and the sessions' device label. Data only (SQL text and the statements that
// run it), declared in the feature's slice (slice.ts); src/databases.ts puts every feature's steps of the
// file in one list. Never edit a step that has shipped: add one.
import type Database from 'better-sqlite3';
import type { Migration } from '../storage/migrations.js';

/**
 * Step: a coarse device label per session ("Firefox on Android", never the full User-Agent), so the account
 * page can tell sessions apart; sessions of before have none (NULL).
 */
export const SESSION_DEVICE_STEP: Migration = {
  version: 3,
  name: 'session device label',
  up: (db: Database.Database) => db.exec('ALTER TABLE sessions ADD COLUMN device TEXT'),
};

/**
 * The steps of the accounts' own tables, with their fixed global numbers: the file's other steps are the
 * features' (partners, OAuth, billing), and src/databases.ts puts them in one list (src/storage/README.md).
 */
export const ACCOUNT_STEPS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, passkeys, sessions, challenges, recovery links',
    up: (db) =>
      db.exec(`
-- id: 'acc_' + 24 lowercase hex digits (random); user_handle: the WebAuthn user.id its passkeys carry
CREATE TABLE accounts (
  id           TEXT PRIMARY KEY,
  user_handle  BLOB NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  email        TEXT,
  moderator    INTEGER NOT NULL DEFAULT 0 CHECK (moderator IN (0, 1)),
  created_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX accounts_email ON accounts (email) WHERE email IS NOT NULL;

-- id: the credential id (base64url), one account only; public_key: COSE bytes; the private key never leaves the authenticator
CREATE TABLE passkeys (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  public_key   BLOB NOT NULL,
  counter      INTEGER NOT NULL,
  transports   TEXT NOT NULL,
  name         TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER
) STRICT;
CREATE INDEX passkeys_account ON passkeys (account_id);

-- token_hash: SHA-256 of the cookie's token; verified_at: the session's last passkey assertion
CREATE TABLE sessions (
  token_hash   BLOB PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at   INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  verified_at  INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_account ON sessions (account_id);

-- challenge_hash: SHA-256 of a WebAuthn challenge handed out; taken (deleted) by its first use
CREATE TABLE challenges (
  challenge_hash BLOB PRIMARY KEY,
  purpose        TEXT NOT NULL CHECK (purpose IN ('create-account', 'add-passkey', 'sign-in', 'recover')),
  account_id     TEXT REFERENCES accounts (id) ON DELETE CASCADE,
  user_handle    BLOB,
  expires_at     INTEGER NOT NULL
) STRICT;

-- token_hash: SHA-256 of an operator's recovery link token; taken by its first use
CREATE TABLE recovery_links (
  token_hash BLOB PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL
) STRICT;
`),
  },
  SESSION_DEVICE_STEP,
];
