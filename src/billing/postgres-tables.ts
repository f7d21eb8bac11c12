// The billing tables in PostgreSQL's `accounts` schema (DATABASE_URL): step 5 of the schema, with the layout
// the ACCOUNTS_DB file has after its step 5 (customers, checkouts, subscriptions, handled Stripe events) in
// PostgreSQL's types. Data only: the slice declares it, postgres-store.ts queries it. README.md says what
// the rows mean; the foreign keys to the accounts are the file's.
import type { PostgresStep } from '../storage/postgres.js';

export const BILLING_POSTGRES_STEP: PostgresStep = {
  version: 5,
  name: 'billing customers, checkouts, subscriptions, handled events',
  sql: `
CREATE TABLE billing_customers (
  account_id  text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  customer_id text NOT NULL UNIQUE,
  created_at  bigint NOT NULL
);

CREATE TABLE billing_checkouts (
  listing_id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  tier       text NOT NULL CHECK (tier IN ('basic', 'plus')),
  attempt    text NOT NULL,
  session_id text UNIQUE,
  created_at bigint NOT NULL
);

CREATE TABLE billing_subscriptions (
  subscription_id text PRIMARY KEY,
  listing_id      text NOT NULL,
  account_id      text REFERENCES accounts (id) ON DELETE SET NULL,
  customer_id     text NOT NULL,
  status          text NOT NULL,
  price_id        text,
  tier            text CHECK (tier IN ('basic', 'plus')),
  period_start    bigint,
  created         bigint NOT NULL,
  running         smallint NOT NULL CHECK (running IN (0, 1)),
  updated_at      bigint NOT NULL
);
CREATE INDEX billing_subscriptions_listing ON billing_subscriptions (listing_id, created);
CREATE INDEX billing_subscriptions_account ON billing_subscriptions (account_id);

CREATE TABLE billing_events (
  event_id    text PRIMARY KEY,
  type        text NOT NULL,
  received_at bigint NOT NULL
);
CREATE INDEX billing_events_received ON billing_events (received_at);
`,
};
