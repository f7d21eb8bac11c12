// The partner tables in PostgreSQL's `accounts` schema (DATABASE_URL): step 4 of the schema, with the layout
// the ACCOUNTS_DB file has after its steps 2 and 6 (claims, listings, monthly figures; the event log is the
// schema's step 3) in PostgreSQL's types, and one row more: partner_writes, the count of committed writes
// that dataVersion() answers. Data only: the slice declares it, postgres-store.ts queries it. Claims and
// listings outlive their account (ON DELETE SET NULL), as in the file.
import type { PostgresStep } from '../storage/postgres.js';

export const PARTNERS_POSTGRES_STEP: PostgresStep = {
  version: 4,
  name: 'partner claims, partner listings, listing figures',
  sql: `
CREATE TABLE partner_claims (
  id              text PRIMARY KEY,
  account_id      text REFERENCES accounts (id) ON DELETE SET NULL,
  toilet_id       text NOT NULL,
  business_name   text NOT NULL,
  contact_email   text,
  contact_phone   text,
  website         text,
  note            text,
  status          text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'withdrawn')),
  created_at      bigint NOT NULL,
  decided_at      bigint,
  decision_reason text,
  -- the order of insertion, as the file's rowid: claims made in one millisecond keep theirs
  made            bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX partner_claims_toilet ON partner_claims (toilet_id, status);
CREATE INDEX partner_claims_account ON partner_claims (account_id);
CREATE INDEX partner_claims_pending ON partner_claims (created_at) WHERE status = 'pending';

CREATE TABLE partner_listings (
  id                     text PRIMARY KEY,
  claim_id               text NOT NULL UNIQUE REFERENCES partner_claims (id),
  account_id             text REFERENCES accounts (id) ON DELETE SET NULL,
  toilet_id              text NOT NULL,
  name                   text NOT NULL,
  stopped_at             bigint,
  plan_tier              text CHECK (plan_tier IN ('basic', 'plus')),
  plan_source            text CHECK (plan_source IN ('manual', 'stripe')),
  plan_changed_at        bigint,
  stripe_subscription_id text,
  stripe_status          text,
  conditions             text CHECK (conditions IN ('everyone', 'customers')),
  opening_hours          text,
  closed_until           bigint NOT NULL DEFAULT 0,
  toilet_state           text NOT NULL DEFAULT 'present' CHECK (toilet_state IN ('present', 'gone', 'vanished')),
  created_at             bigint NOT NULL,
  updated_at             bigint NOT NULL,
  made                   bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX partner_listings_account ON partner_listings (account_id);
CREATE INDEX partner_listings_toilet ON partner_listings (toilet_id);
CREATE INDEX partner_listings_closed ON partner_listings (closed_until) WHERE closed_until > 0;

-- month: 'YYYY-MM' in UTC, the month of the fold that added the counts
CREATE TABLE partner_listing_figures (
  listing_id text NOT NULL REFERENCES partner_listings (id) ON DELETE CASCADE,
  month      text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-1][0-9]$'),
  shown      bigint NOT NULL CHECK (shown >= 0),
  opened     bigint NOT NULL CHECK (opened >= 0),
  PRIMARY KEY (listing_id, month)
);

-- one row: one more for each committed transaction that wrote to the tables above (its last statement, so
-- a reader sees the new count only with the change)
CREATE TABLE partner_writes (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  count    bigint NOT NULL
);
INSERT INTO partner_writes (count) VALUES (0);
`,
};
