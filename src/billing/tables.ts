// The accounts database's step 5, billing's (issue 33): the Stripe customer of each account, the checkout
// under way per listing, every subscription as last read from Stripe, and the ids of the Stripe events
// handled. Its number is fixed (it shipped); the folder's slice.ts declares it, and src/databases.ts
// puts it with the other features' steps of the file. What the tables mean: README.md. No clock, no
// configuration: the same file comes out wherever the step runs.
import type { Migration } from '../storage/migrations.js';

export const BILLING_TABLES_STEP: Migration = {
  version: 5,
  name: 'billing customers, checkouts, subscriptions, handled events',
  up: (db) =>
    db.exec(`
-- one Stripe customer per account, made at its first checkout and reused for every later one
CREATE TABLE billing_customers (
  account_id  TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  customer_id TEXT NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL
) STRICT;

-- the checkout of a listing under way, at most one: attempt is random and part of the idempotency key, so
-- a double click makes one session; session_id is NULL while Stripe is making it
CREATE TABLE billing_checkouts (
  listing_id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  tier       TEXT NOT NULL CHECK (tier IN ('basic', 'plus')),
  attempt    TEXT NOT NULL,
  session_id TEXT UNIQUE,
  created_at INTEGER NOT NULL
) STRICT;

-- every subscription of a listing, as last read from Stripe (never from an event's body); tier is NULL
-- for a price that is not configured; period_start (ms) starts a past-due grace; created (ms) orders the
-- listing's subscriptions
CREATE TABLE billing_subscriptions (
  subscription_id TEXT PRIMARY KEY,
  listing_id      TEXT NOT NULL,
  account_id      TEXT REFERENCES accounts (id) ON DELETE SET NULL,
  customer_id     TEXT NOT NULL,
  status          TEXT NOT NULL,
  price_id        TEXT,
  tier            TEXT CHECK (tier IN ('basic', 'plus')),
  period_start    INTEGER,
  created         INTEGER NOT NULL,
  running         INTEGER NOT NULL CHECK (running IN (0, 1)),
  updated_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX billing_subscriptions_listing ON billing_subscriptions (listing_id, created);
CREATE INDEX billing_subscriptions_account ON billing_subscriptions (account_id);

-- the Stripe events handled, each written in the transaction of its effect: a resent id changes nothing
CREATE TABLE billing_events (
  event_id    TEXT PRIMARY KEY,
  type        TEXT NOT NULL,
  received_at INTEGER NOT NULL
) STRICT;
CREATE INDEX billing_events_received ON billing_events (received_at);
`),
};
