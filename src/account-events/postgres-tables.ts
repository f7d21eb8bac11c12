// The account event subscriptions, their delivery outbox and the relay's place in the log in PostgreSQL's
// `accounts` schema (DATABASE_URL): step 7 of the schema, with the layout the ACCOUNTS_DB file has after its
// steps 4 and 9 in PostgreSQL's types. A subscription goes with its OAuth grant (step 6, ON DELETE CASCADE),
// as in the file; an outbox row is self-contained and holds one delivery of a change to a subscription at
// most (UNIQUE subscription + webhook id), whichever replica's relay recorded it. Data only: the slice
// declares it, postgres-store.ts queries it.
import type { PostgresStep } from '../storage/postgres.js';

export const EVENTS_POSTGRES_STEP: PostgresStep = {
  version: 7,
  name: 'event subscriptions, outbox, relay position',
  readableBy: 6,
  sql: `
CREATE TABLE event_subscriptions (
  id               text PRIMARY KEY,
  grant_id         text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  name             text NOT NULL,
  arguments        text NOT NULL,
  url              text NOT NULL,
  secret           text NOT NULL,
  refresh_before   bigint NOT NULL,
  after_seq        bigint NOT NULL,
  created_at       bigint NOT NULL,
  last_delivery_at bigint,
  last_error       text,
  failed_since     bigint,
  UNIQUE (grant_id, url, name, arguments)
);

CREATE TABLE event_outbox (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id text NOT NULL,
  webhook_id      text NOT NULL,
  url             text NOT NULL,
  secret          text NOT NULL,
  body            text NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at bigint NOT NULL,
  UNIQUE (subscription_id, webhook_id)
);
CREATE INDEX event_outbox_due ON event_outbox (next_attempt_at);

CREATE TABLE event_relay (
  id       integer PRIMARY KEY CHECK (id = 1),
  last_seq bigint NOT NULL
);
`,
};
