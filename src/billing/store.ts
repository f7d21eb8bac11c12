// The billing tables of the accounts database (layout: src/billing/tables.ts), on the accounts
// database's own connection, so that a webhook's effect on a listing (src/partners, same database) and the
// record of its event id commit in one transaction. Statements only; README.md says what the rows mean.
import type Database from 'better-sqlite3';
import type { SqliteAccountsStore } from '../accounts/sqlite-store.js';
import type { PartnerTier } from '../schemas/resources.js';

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

export class BillingStore {
  readonly db: Database.Database;
  private readonly sql;

  constructor(private readonly accounts: SqliteAccountsStore) {
    const db = (this.db = accounts.db);
    const final = FINAL_STATUSES.map((status) => `'${status}'`).join(', ');
    this.sql = {
      customer: db.prepare('SELECT customer_id FROM billing_customers WHERE account_id = ?').pluck(),
      accountOfCustomer: db.prepare('SELECT account_id FROM billing_customers WHERE customer_id = ?').pluck(),
      insertCustomer: db.prepare('INSERT INTO billing_customers (account_id, customer_id, created_at) VALUES (?, ?, ?) ON CONFLICT (account_id) DO NOTHING'),
      checkout: db.prepare('SELECT * FROM billing_checkouts WHERE listing_id = ?'),
      insertCheckout: db.prepare('INSERT INTO billing_checkouts (listing_id, account_id, tier, attempt, session_id, created_at) VALUES (@listing_id, @account_id, @tier, @attempt, @session_id, @created_at)'),
      setCheckoutSession: db.prepare('UPDATE billing_checkouts SET session_id = ? WHERE listing_id = ? AND attempt = ?'),
      deleteCheckout: db.prepare('DELETE FROM billing_checkouts WHERE listing_id = ? AND attempt = ?'),
      deleteCheckoutOfSession: db.prepare('DELETE FROM billing_checkouts WHERE session_id = ?'),
      upsertSubscription: db.prepare(
        `INSERT INTO billing_subscriptions (subscription_id, listing_id, account_id, customer_id, status, price_id, tier, period_start, created, running, updated_at)
         VALUES (@subscription_id, @listing_id, @account_id, @customer_id, @status, @price_id, @tier, @period_start, @created, @running, @updated_at)
         ON CONFLICT (subscription_id) DO UPDATE SET status = excluded.status, price_id = excluded.price_id, tier = excluded.tier,
           period_start = excluded.period_start, running = excluded.running, updated_at = excluded.updated_at`,
      ),
      subscription: db.prepare('SELECT * FROM billing_subscriptions WHERE subscription_id = ?'),
      // the listing's current subscription: the newest that can still run, else the newest
      currentOfListing: db.prepare(`SELECT * FROM billing_subscriptions WHERE listing_id = ? ORDER BY status IN (${final}), created DESC, subscription_id DESC LIMIT 1`),
      openOfAccount: db.prepare(`SELECT * FROM billing_subscriptions WHERE account_id = ? AND status NOT IN (${final}) ORDER BY created`),
      pastDueRunning: db.prepare("SELECT * FROM billing_subscriptions WHERE status = 'past_due' AND running = 1"),
      setRunning: db.prepare('UPDATE billing_subscriptions SET running = ?, updated_at = ? WHERE subscription_id = ?'),
      eventHandled: db.prepare('SELECT 1 FROM billing_events WHERE event_id = ?').pluck(),
      insertEvent: db.prepare('INSERT INTO billing_events (event_id, type, received_at) VALUES (?, ?, ?)'),
      purgeEvents: db.prepare('DELETE FROM billing_events WHERE received_at <= ?'),
    };
  }

  transaction<T>(run: () => T): T {
    return this.accounts.transaction(run);
  }

  customerOf(accountId: string): string | null {
    return (this.sql.customer.get(accountId) as string | undefined) ?? null;
  }

  accountOfCustomer(customerId: string): string | null {
    return (this.sql.accountOfCustomer.get(customerId) as string | undefined) ?? null;
  }

  /** Keeps the account's customer; a second one made meanwhile (none should be: idempotency key) is not kept. */
  insertCustomer(accountId: string, customerId: string, atMs: number): void {
    this.sql.insertCustomer.run(accountId, customerId, atMs);
  }

  checkout(listingId: string): CheckoutRow | null {
    return (this.sql.checkout.get(listingId) as CheckoutRow | undefined) ?? null;
  }

  insertCheckout(row: CheckoutRow): void {
    this.sql.insertCheckout.run(row);
  }

  setCheckoutSession(listingId: string, attempt: string, sessionId: string): void {
    this.sql.setCheckoutSession.run(sessionId, listingId, attempt);
  }

  deleteCheckout(listingId: string, attempt: string): void {
    this.sql.deleteCheckout.run(listingId, attempt);
  }

  deleteCheckoutOfSession(sessionId: string): void {
    this.sql.deleteCheckoutOfSession.run(sessionId);
  }

  upsertSubscription(row: SubscriptionRow): void {
    this.sql.upsertSubscription.run(row);
  }

  subscription(id: string): SubscriptionRow | null {
    return (this.sql.subscription.get(id) as SubscriptionRow | undefined) ?? null;
  }

  currentOfListing(listingId: string): SubscriptionRow | null {
    return (this.sql.currentOfListing.get(listingId) as SubscriptionRow | undefined) ?? null;
  }

  openSubscriptionsOf(accountId: string): SubscriptionRow[] {
    return this.sql.openOfAccount.all(accountId) as SubscriptionRow[];
  }

  pastDueRunning(): SubscriptionRow[] {
    return this.sql.pastDueRunning.all() as SubscriptionRow[];
  }

  setRunning(subscriptionId: string, running: boolean, atMs: number): void {
    this.sql.setRunning.run(running ? 1 : 0, atMs, subscriptionId);
  }

  eventHandled(eventId: string): boolean {
    return this.sql.eventHandled.get(eventId) !== undefined;
  }

  recordEvent(eventId: string, type: string, atMs: number): void {
    this.sql.insertEvent.run(eventId, type, atMs);
  }

  /** Forgets handled event ids older than `beforeMs` (Stripe resends for three days at most). */
  purgeEvents(beforeMs: number): number {
    return this.sql.purgeEvents.run(beforeMs).changes;
  }
}
