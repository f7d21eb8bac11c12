// The accounts database's step 4, OAuth's first (issue 34): OAuth clients, grants, authorization codes,
// access and refresh tokens, pending consents, and the account event subscriptions whose principal is a
// grant with their delivery outbox. Its number is fixed (it shipped); the folder's slice.ts declares it,
// and src/databases.ts puts it with the other features' steps of the file. Every secret is a SHA-256
// hash; a grant's rows go with it (ON DELETE CASCADE), and a grant goes with its account.
import type { Migration } from '../storage/migrations.js';

export const OAUTH_TABLES_STEP: Migration = {
  version: 4,
  name: 'oauth clients, grants, codes, tokens, consents, event subscriptions',
  up: (db) =>
    db.exec(`
-- id: 'oc_' + 32 hex (random); redirect_uris: JSON array, matched exactly; metadata: what the client registered (RFC 7591), JSON
CREATE TABLE oauth_clients (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  redirect_uris TEXT NOT NULL,
  metadata      TEXT NOT NULL,
  created_at    INTEGER NOT NULL
) STRICT;

-- one approval of a client by an account; ends (row deleted) on revocation, refresh reuse, code reuse, account deletion
CREATE TABLE oauth_grants (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  client_id    TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  scope        TEXT NOT NULL,
  resource     TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL
) STRICT;
CREATE INDEX oauth_grants_account ON oauth_grants (account_id);

-- code_hash: SHA-256 of the code; grant_id: set when redeemed (a second redemption ends that grant)
CREATE TABLE oauth_codes (
  code_hash      BLOB PRIMARY KEY,
  client_id      TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id     TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  redirect_uri   TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  resource       TEXT NOT NULL,
  scope          TEXT NOT NULL,
  expires_at     INTEGER NOT NULL,
  grant_id       TEXT
) STRICT;

CREATE TABLE oauth_access_tokens (
  token_hash BLOB PRIMARY KEY,
  grant_id   TEXT NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX oauth_access_tokens_grant ON oauth_access_tokens (grant_id);

-- rotated_at: set when the token was exchanged for the next one; presenting it again ends the grant
CREATE TABLE oauth_refresh_tokens (
  token_hash BLOB PRIMARY KEY,
  grant_id   TEXT NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  issued_at  INTEGER NOT NULL,
  rotated_at INTEGER
) STRICT;
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);

-- a consent page shown: token_hash (its single-use form token) bound to the session that saw it and the request it answers
CREATE TABLE oauth_consents (
  token_hash     BLOB PRIMARY KEY,
  session_hash   BLOB NOT NULL,
  client_id      TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  redirect_uri   TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  resource       TEXT NOT NULL,
  scope          TEXT NOT NULL,
  state          TEXT,
  expires_at     INTEGER NOT NULL
) STRICT;

-- webhook subscriptions to account events; key: (grant, url, name, arguments as canonical JSON);
-- after_seq: the account event log's last entry when it was made (no replay: it gets only later entries)
CREATE TABLE event_subscriptions (
  id              TEXT PRIMARY KEY,
  grant_id        TEXT NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  name            TEXT NOT NULL,
  arguments       TEXT NOT NULL,
  url             TEXT NOT NULL,
  secret          TEXT NOT NULL,
  refresh_before  INTEGER NOT NULL,
  after_seq       INTEGER NOT NULL,
  created_at      INTEGER NOT NULL,
  last_delivery_at INTEGER,
  last_error      TEXT,
  failed_since    INTEGER,
  UNIQUE (grant_id, url, name, arguments)
) STRICT;

-- what the relay still has to POST: self-contained (url, secret copied), so a terminated envelope outlives its subscription
CREATE TABLE event_outbox (
  id              INTEGER PRIMARY KEY,
  subscription_id TEXT NOT NULL,
  webhook_id      TEXT NOT NULL,
  url             TEXT NOT NULL,
  secret          TEXT NOT NULL,
  body            TEXT NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL
) STRICT;

-- the relay's position in the account event log (one row)
CREATE TABLE event_relay (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  last_seq INTEGER NOT NULL
) STRICT;
`),
};
