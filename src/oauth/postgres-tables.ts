// The OAuth tables in PostgreSQL's `accounts` schema (DATABASE_URL): step 6 of the schema, with the layout
// the ACCOUNTS_DB file has after its steps 4, 7 and 8 for clients, grants, codes, tokens and pending
// consents, in PostgreSQL's types (bytea for the SHA-256 hashes, bigint epoch milliseconds). The account
// event subscriptions and their outbox (the file's step 4 too) come with the event store's PostgreSQL
// implementation. Data only: the slice declares it, postgres-store.ts queries it. A grant's rows go with
// it, and a grant with its account (ON DELETE CASCADE), as in the file.
import type { PostgresStep } from '../storage/postgres.js';

export const OAUTH_POSTGRES_STEP: PostgresStep = {
  version: 6,
  name: 'oauth clients, grants, codes, tokens, consents',
  sql: `
CREATE TABLE oauth_clients (
  id                  text PRIMARY KEY,
  name                text NOT NULL,
  redirect_uris       text NOT NULL,
  metadata            text NOT NULL,
  created_at          bigint NOT NULL,
  authorized_at       bigint,
  document_expires_at bigint,
  -- the order of registration, as the file's rowid
  made                bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX oauth_clients_unauthorized ON oauth_clients (created_at) WHERE authorized_at IS NULL;

CREATE TABLE oauth_grants (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  client_id    text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  scope        text NOT NULL,
  resource     text NOT NULL,
  created_at   bigint NOT NULL,
  last_used_at bigint NOT NULL,
  made         bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX oauth_grants_account ON oauth_grants (account_id);

CREATE TABLE oauth_codes (
  code_hash      bytea PRIMARY KEY,
  client_id      text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  account_id     text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  redirect_uri   text NOT NULL,
  code_challenge text NOT NULL,
  resource       text NOT NULL,
  scope          text NOT NULL,
  expires_at     bigint NOT NULL,
  grant_id       text
);

CREATE TABLE oauth_access_tokens (
  token_hash bytea PRIMARY KEY,
  grant_id   text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  expires_at bigint NOT NULL
);
CREATE INDEX oauth_access_tokens_grant ON oauth_access_tokens (grant_id);

CREATE TABLE oauth_refresh_tokens (
  token_hash bytea PRIMARY KEY,
  grant_id   text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  issued_at  bigint NOT NULL,
  rotated_at bigint
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);

CREATE TABLE oauth_consents (
  token_hash     bytea PRIMARY KEY,
  session_hash   bytea NOT NULL,
  client_id      text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  redirect_uri   text NOT NULL,
  code_challenge text NOT NULL,
  resource       text NOT NULL,
  scope          text NOT NULL,
  state          text,
  expires_at     bigint NOT NULL
);
`,
};
