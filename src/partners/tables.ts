// The accounts database's step 2, partners' own: business claims, partner listings and the account event
// log (issue 32). Its number is fixed (it shipped); the folder's slice.ts declares it, and src/databases.ts
// puts it with the other features' steps of the file. src/partners owns what the claim and listing tables mean (src/partners/README.md),
// src/accounts/event-log.ts the log. Claims and listings outlive their account (ON DELETE SET NULL) with the contact details erased,
// so a toilet's history and a billing reference stay whole; the log goes with the account.
import type { Migration } from '../storage/migrations.js';

export const PARTNER_TABLES_STEP: Migration = {
  version: 2,
  name: 'partner claims, partner listings, account events',
  up: (db) =>
    db.exec(`
-- id: 'clm_' + 24 lowercase hex (random); contact_*, website, note: erased (NULL) when the account is
-- deleted and 90 days after the decision (docs/PRIVACY.md)
CREATE TABLE partner_claims (
  id              TEXT PRIMARY KEY,
  account_id      TEXT REFERENCES accounts (id) ON DELETE SET NULL,
  toilet_id       TEXT NOT NULL,
  business_name   TEXT NOT NULL,
  contact_email   TEXT,
  contact_phone   TEXT,
  website         TEXT,
  note            TEXT,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'withdrawn')),
  created_at      INTEGER NOT NULL,
  decided_at      INTEGER,
  decision_reason TEXT
) STRICT;
CREATE INDEX partner_claims_toilet ON partner_claims (toilet_id, status);
CREATE INDEX partner_claims_account ON partner_claims (account_id);
CREATE INDEX partner_claims_pending ON partner_claims (created_at) WHERE status = 'pending';

-- id: 'pl_' + 32 lowercase hex (random), one per claim, made with it; name: partner.name (the claimed
-- business name, or a moderator's correction); plan_*: the plan seam (src/partners/plans.ts), stripe_*: the
-- subscription billing reports; toilet_state: what the owner's dashboard says of the toilet
CREATE TABLE partner_listings (
  id                     TEXT PRIMARY KEY,
  claim_id               TEXT NOT NULL UNIQUE REFERENCES partner_claims (id),
  account_id             TEXT REFERENCES accounts (id) ON DELETE SET NULL,
  toilet_id              TEXT NOT NULL,
  name                   TEXT NOT NULL,
  stopped_at             INTEGER,
  plan_tier              TEXT CHECK (plan_tier IN ('basic', 'plus')),
  plan_source            TEXT CHECK (plan_source IN ('manual', 'stripe')),
  plan_changed_at        INTEGER,
  stripe_subscription_id TEXT,
  stripe_status          TEXT,
  conditions             TEXT CHECK (conditions IN ('everyone', 'customers')),
  opening_hours          TEXT,
  closed_until           INTEGER NOT NULL DEFAULT 0,
  toilet_state           TEXT NOT NULL DEFAULT 'present' CHECK (toilet_state IN ('present', 'gone', 'vanished')),
  created_at             INTEGER NOT NULL,
  updated_at             INTEGER NOT NULL
) STRICT;
CREATE INDEX partner_listings_account ON partner_listings (account_id);
CREATE INDEX partner_listings_toilet ON partner_listings (toilet_id);
CREATE INDEX partner_listings_closed ON partner_listings (closed_until) WHERE closed_until > 0;

-- seq: AUTOINCREMENT so a number is never used twice, even after the newest entries were purged or went
-- with their account: a reader's "after seq" cursor stays right
CREATE TABLE account_events (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  type       TEXT NOT NULL CHECK (type IN ('partner.claim.status_changed', 'partner.profile.updated')),
  listing_id TEXT,
  toilet_id  TEXT,
  data       TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX account_events_account ON account_events (account_id, seq);
CREATE INDEX account_events_created ON account_events (created_at);
`),
};
