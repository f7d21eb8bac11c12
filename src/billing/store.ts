// Where the billing tables are kept (layout: src/billing/tables.ts): one asynchronous interface for every
// engine, the SQLite implementation in sqlite-store.ts. A transaction's work is written once as Steps
// (src/storage/steps.ts), and it includes the partner listings' tables of the same database, so that a
// webhook's effect on a listing (src/partners) and the record of its event id commit together. README.md
// says what the rows mean.
import type { PartnerTier } from '../schemas/resources.js';
import type { Step } from '../storage/steps.js';

export interface CheckoutRow {
  listing_id: string;
  account_id: string;
  tier: PartnerTier;
  attempt: string;
  session_id: string | null;
  created_at: number;
}

export interface SubscriptionRow {
  subscription_id: string;
  listing_id: string;
  account_id: string | null;
  customer_id: string;
  status: string;
  price_id: string | null;
  tier: PartnerTier | null;
  period_start: number | null;
  created: number;
  running: 0 | 1;
  updated_at: number;
}

/** Stripe subscription statuses after which nothing more happens to it. */
export const FINAL_STATUSES: readonly string[] = ['canceled', 'incomplete_expired'];

/** The billing tables inside one transaction: every query a Step, read with `yield*`. */
export interface BillingTables {
  /** The partner listings' tables in this transaction, for the plan seam (ListingPlans); billing never reads them itself. */
  readonly listings: unknown;
  customerOf(accountId: string): Step<string | null>;
  accountOfCustomer(customerId: string): Step<string | null>;
  /** Keeps the account's customer; a second one made meanwhile (none should be: idempotency key) is not kept. */
  insertCustomer(accountId: string, customerId: string, atMs: number): Step<void>;
  checkout(listingId: string): Step<CheckoutRow | null>;
  insertCheckout(row: CheckoutRow): Step<void>;
  setCheckoutSession(listingId: string, attempt: string, sessionId: string): Step<void>;
  deleteCheckout(listingId: string, attempt: string): Step<void>;
  deleteCheckoutOfSession(sessionId: string): Step<void>;
  upsertSubscription(row: SubscriptionRow): Step<void>;
  subscription(id: string): Step<SubscriptionRow | null>;
  /** The listing's current subscription: the newest that can still run, else the newest. */
  currentOfListing(listingId: string): Step<SubscriptionRow | null>;
  openSubscriptionsOf(accountId: string): Step<SubscriptionRow[]>;
  pastDueRunning(): Step<SubscriptionRow[]>;
  setRunning(subscriptionId: string, running: boolean, atMs: number): Step<void>;
  eventHandled(eventId: string): Step<boolean>;
  recordEvent(eventId: string, type: string, atMs: number): Step<void>;
  /** Forgets handled event ids older than `beforeMs` (Stripe resends for three days at most). */
  purgeEvents(beforeMs: number): Step<number>;
}

export interface BillingStore {
  /** Whether every replica shares these tables (PostgreSQL): then the sweep runs on the cluster's worker only, else on every replica over its own file. */
  readonly shared: boolean;
  /** Runs `work` as one transaction, as if nothing else ran meanwhile; what it answers, once committed. A throw rolls it back. */
  transaction<T>(work: (tables: BillingTables) => Step<T>): Promise<T>;
  /** Runs reads that see one state of the tables (work must not write). */
  read<T>(work: (tables: BillingTables) => Step<T>): Promise<T>;
}
