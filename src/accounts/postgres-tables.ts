// The accounts' tables in PostgreSQL's `accounts` schema (DATABASE_URL): step 2 of the schema (step 1 is the
// server key), and the account event log's (step 3), with the layout the ACCOUNTS_DB file has after its steps 1 and 3, in PostgreSQL's types
// (bytea, bigint epoch milliseconds, boolean). Data only: the slice declares it, postgres-store.ts
// queries it. Other features' tables reference `accounts (id)` with ON DELETE CASCADE, as in the file.
import type { ColumnType } from 'kysely';
import type { AccountEventType } from './event-log.js';
import type { PostgresStep } from '../storage/postgres.js';

export const ACCOUNTS_POSTGRES_STEP: PostgresStep = {
  version: 2,
  name: 'accounts, passkeys, sessions, challenges, recovery links',
  sql: `
-- id: 'acc_' + 24 lowercase hex digits (random); user_handle: the WebAuthn user.id its passkeys carry
CREATE TABLE accounts (
  id           text PRIMARY KEY,
  user_handle  bytea NOT NULL UNIQUE,
  display_name text NOT NULL,
  email        text,
  moderator    boolean NOT NULL DEFAULT false,
  created_at   bigint NOT NULL
);
CREATE INDEX accounts_email ON accounts (email) WHERE email IS NOT NULL;

-- id: the credential id (base64url), one account only; public_key: COSE bytes
CREATE TABLE passkeys (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  public_key   bytea NOT NULL,
  counter      bigint NOT NULL,
  transports   text NOT NULL,
  name         text NOT NULL,
  created_at   bigint NOT NULL,
  last_used_at bigint
);
CREATE INDEX passkeys_account ON passkeys (account_id);

-- token_hash: SHA-256 of the cookie's token; verified_at: the session's last passkey assertion
CREATE TABLE sessions (
  token_hash   bytea PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at   bigint NOT NULL,
  last_seen_at bigint NOT NULL,
  verified_at  bigint NOT NULL,
  device       text
);
CREATE INDEX sessions_account ON sessions (account_id);

-- challenge_hash: SHA-256 of a WebAuthn challenge handed out; taken (deleted) by its first use
CREATE TABLE challenges (
  challenge_hash bytea PRIMARY KEY,
  purpose        text NOT NULL CHECK (purpose IN ('create-account', 'add-passkey', 'sign-in', 'recover')),
  account_id     text REFERENCES accounts (id) ON DELETE CASCADE,
  user_handle    bytea,
  expires_at     bigint NOT NULL
);
CREATE INDEX challenges_expiry ON challenges (expires_at);

-- token_hash: SHA-256 of an operator's recovery link token; taken by its first use
CREATE TABLE recovery_links (
  token_hash bytea PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  expires_at bigint NOT NULL
);
CREATE INDEX recovery_links_expiry ON recovery_links (expires_at);
`,
};

/** Epoch milliseconds in a bigint column: the driver reads them as text, the store turns them into numbers. */
type Millis = ColumnType<string | number, number, number>;

/** The tables of ACCOUNTS_POSTGRES_STEP as Kysely types them. */
export interface AccountsTables {
  accounts: { id: string; user_handle: Buffer; display_name: string; email: string | null; moderator: ColumnType<boolean, boolean | undefined, boolean>; created_at: Millis };
  passkeys: { id: string; account_id: string; public_key: Buffer; counter: Millis; transports: string; name: string; created_at: Millis; last_used_at: ColumnType<string | number | null, number | null | undefined, number | null> };
  sessions: { token_hash: Buffer; account_id: string; created_at: Millis; last_seen_at: Millis; verified_at: Millis; device: string | null };
  challenges: { challenge_hash: Buffer; purpose: string; account_id: string | null; user_handle: Buffer | null; expires_at: Millis };
  recovery_links: { token_hash: Buffer; account_id: string; expires_at: Millis };
}

/** The account event log (event-log.ts): step 3 of the accounts schema. */
export const EVENT_LOG_POSTGRES_STEP: PostgresStep = {
  version: 3,
  name: 'account event log',
  sql: `
CREATE TABLE account_events (
  seq        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  type       text NOT NULL CHECK (type IN ('partner.claim.status_changed', 'partner.profile.updated')),
  listing_id text,
  toilet_id  text,
  data       jsonb NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX account_events_account ON account_events (account_id, seq);
CREATE INDEX account_events_created ON account_events (created_at);
`,
};

/** The event log's table as Kysely types it. */
export interface EventLogTables {
  account_events: {
    seq: ColumnType<string, never, never>;
    account_id: string;
    type: AccountEventType;
    listing_id: string | null;
    toilet_id: string | null;
    data: ColumnType<Record<string, unknown>, string, string>;
    created_at: ColumnType<string | number, number, number>;
  };
}

