// The billing tables in the accounts SQLite file (ACCOUNTS_DB), on the accounts store's connection,
// beside the partner tables: a transaction's work runs synchronously inside one immediate better-sqlite3
// transaction (src/storage/steps.ts), so a webhook's effect on a listing and its event id commit together
// and nothing else runs between a read and the write that depends on it.
import type Database from 'better-sqlite3';
import type { SqliteAccountsStore } from '../accounts/sqlite-store.js';
import { answered, runNow, type Step } from '../storage/steps.js';
import { FINAL_STATUSES, type BillingStore, type BillingTables, type CheckoutRow, type SubscriptionRow } from './store.js';

export class SqliteBillingStore implements BillingStore {
  readonly shared = false;
  private readonly tables: SqliteBillingTables;

  /** `listings`: the partner tables of the same connection (src/partners/sqlite-store.ts). */
  constructor(
    private readonly accounts: SqliteAccountsStore,
    listings: unknown,
  ) {
    this.tables = new SqliteBillingTables(accounts.db, listings);
  }

  async transaction<T>(work: (tables: BillingTables) => Step<T>): Promise<T> {
    return this.accounts.transaction(() => runNow(work(this.tables)));
  }

  async read<T>(work: (tables: BillingTables) => Step<T>): Promise<T> {
    return this.accounts.db.transaction(() => runNow(work(this.tables))).deferred();
  }
}

class SqliteBillingTables implements BillingTables {
  private readonly sql;

  constructor(
    db: Database.Database,
    readonly listings: unknown,
  ) {
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

  customerOf(accountId: string): Step<string | null> {
    return answered((this.sql.customer.get(accountId) as string | undefined) ?? null);
  }

  accountOfCustomer(customerId: string): Step<string | null> {
    return answered((this.sql.accountOfCustomer.get(customerId) as string | undefined) ?? null);
  }

  insertCustomer(accountId: string, customerId: string, atMs: number): Step<void> {
    return answered(void this.sql.insertCustomer.run(accountId, customerId, atMs));
  }

  checkout(listingId: string): Step<CheckoutRow | null> {
    return answered((this.sql.checkout.get(listingId) as CheckoutRow | undefined) ?? null);
  }

  insertCheckout(row: CheckoutRow): Step<void> {
    return answered(void this.sql.insertCheckout.run(row));
  }

  setCheckoutSession(listingId: string, attempt: string, sessionId: string): Step<void> {
    return answered(void this.sql.setCheckoutSession.run(sessionId, listingId, attempt));
  }

  deleteCheckout(listingId: string, attempt: string): Step<void> {
    return answered(void this.sql.deleteCheckout.run(listingId, attempt));
  }

  deleteCheckoutOfSession(sessionId: string): Step<void> {
    return answered(void this.sql.deleteCheckoutOfSession.run(sessionId));
  }

  upsertSubscription(row: SubscriptionRow): Step<void> {
    return answered(void this.sql.upsertSubscription.run(row));
  }

  subscription(id: string): Step<SubscriptionRow | null> {
    return answered((this.sql.subscription.get(id) as SubscriptionRow | undefined) ?? null);
  }

  currentOfListing(listingId: string): Step<SubscriptionRow | null> {
    return answered((this.sql.currentOfListing.get(listingId) as SubscriptionRow | undefined) ?? null);
  }

  openSubscriptionsOf(accountId: string): Step<SubscriptionRow[]> {
    return answered(this.sql.openOfAccount.all(accountId) as SubscriptionRow[]);
  }

  pastDueRunning(): Step<SubscriptionRow[]> {
    return answered(this.sql.pastDueRunning.all() as SubscriptionRow[]);
  }

  setRunning(subscriptionId: string, running: boolean, atMs: number): Step<void> {
    return answered(void this.sql.setRunning.run(running ? 1 : 0, atMs, subscriptionId));
  }

  eventHandled(eventId: string): Step<boolean> {
    return answered(this.sql.eventHandled.get(eventId) !== undefined);
  }

  recordEvent(eventId: string, type: string, atMs: number): Step<void> {
    return answered(void this.sql.insertEvent.run(eventId, type, atMs));
  }

  purgeEvents(beforeMs: number): Step<number> {
    return answered(this.sql.purgeEvents.run(beforeMs).changes);
  }
}
