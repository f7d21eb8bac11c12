// The billing tables in PostgreSQL's accounts schema (DATABASE_URL; layout: postgres-tables.ts), shared by
// every replica. A transaction's Steps run in one READ COMMITTED transaction of the partner store
// (src/partners/postgres-store.ts), on the partner tables of that transaction too, so a webhook's effect on
// a listing and the record of its event id commit together. The file's immediate transactions exclude each
// other; here the rules that need it take a transaction advisory lock on what they decide about before they
// read it: one checkout per listing (two clicks through two replicas: the second waits, then sees the
// first's row and asks Stripe with its idempotency key), and one handling per Stripe event id (a resend
// through another replica waits, then finds it handled). A customer is kept once (ON CONFLICT DO NOTHING).
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { PostgresPartnerStore } from '../partners/postgres-store.js';
import { changedBy, rowsOf } from '../storage/postgres-steps.js';
import type { Step } from '../storage/steps.js';
import { FINAL_STATUSES, type BillingStore, type BillingTables, type CheckoutRow, type SubscriptionRow } from './store.js';

const FINAL = sql.raw(FINAL_STATUSES.map((status) => `'${status}'`).join(', '));
const CHECKOUT_LOCK = 'toilet-finder billing checkout';
const EVENT_LOCK = 'toilet-finder stripe event';

export class PostgresBillingStore implements BillingStore {
  readonly shared = true;
  constructor(private readonly partners: PostgresPartnerStore) {}

  transaction<T>(work: (tables: BillingTables) => Step<T>): Promise<T> {
    return this.partners.run('write', (trx, listings) => new PostgresBillingTables(trx, listings, true), work);
  }

  read<T>(work: (tables: BillingTables) => Step<T>): Promise<T> {
    return this.partners.run('read', (trx, listings) => new PostgresBillingTables(trx, listings, false), work);
  }
}

/** The statements on one transaction; each query a Step that yields its promise. */
class PostgresBillingTables implements BillingTables {
  constructor(
    private readonly trx: Transaction<unknown>,
    readonly listings: unknown,
    private readonly writing: boolean,
  ) {}

  *customerOf(accountId: string): Step<string | null> {
    return (yield* this.rows<{ customer_id: string }>(sql`SELECT customer_id FROM accounts.billing_customers WHERE account_id = ${accountId}`))[0]?.customer_id ?? null;
  }

  *accountOfCustomer(customerId: string): Step<string | null> {
    return (yield* this.rows<{ account_id: string }>(sql`SELECT account_id FROM accounts.billing_customers WHERE customer_id = ${customerId}`))[0]?.account_id ?? null;
  }

  *insertCustomer(accountId: string, customerId: string, atMs: number): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.billing_customers (account_id, customer_id, created_at) VALUES (${accountId}, ${customerId}, ${atMs}) ON CONFLICT (account_id) DO NOTHING`);
  }

  /** In a write transaction under the listing's checkout lock: the decision on its row is one at a time. */
  *checkout(listingId: string): Step<CheckoutRow | null> {
    yield* this.lock(CHECKOUT_LOCK, listingId);
    return (yield* this.rows<CheckoutRow>(sql`SELECT * FROM accounts.billing_checkouts WHERE listing_id = ${listingId}`))[0] ?? null;
  }

  *insertCheckout(row: CheckoutRow): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.billing_checkouts (listing_id, account_id, tier, attempt, session_id, created_at)
      VALUES (${row.listing_id}, ${row.account_id}, ${row.tier}, ${row.attempt}, ${row.session_id}, ${row.created_at})`);
  }

  *setCheckoutSession(listingId: string, attempt: string, sessionId: string): Step<void> {
    yield* this.change(sql`UPDATE accounts.billing_checkouts SET session_id = ${sessionId} WHERE listing_id = ${listingId} AND attempt = ${attempt}`);
  }

  *deleteCheckout(listingId: string, attempt: string): Step<void> {
    yield* this.change(sql`DELETE FROM accounts.billing_checkouts WHERE listing_id = ${listingId} AND attempt = ${attempt}`);
  }

  *deleteCheckoutOfSession(sessionId: string): Step<void> {
    yield* this.change(sql`DELETE FROM accounts.billing_checkouts WHERE session_id = ${sessionId}`);
  }

  *upsertSubscription(row: SubscriptionRow): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.billing_subscriptions (subscription_id, listing_id, account_id, customer_id, status, price_id, tier, period_start, created, running, updated_at)
      VALUES (${row.subscription_id}, ${row.listing_id}, ${row.account_id}, ${row.customer_id}, ${row.status}, ${row.price_id}, ${row.tier}, ${row.period_start}, ${row.created}, ${row.running}, ${row.updated_at})
      ON CONFLICT (subscription_id) DO UPDATE SET status = excluded.status, price_id = excluded.price_id, tier = excluded.tier,
        period_start = excluded.period_start, running = excluded.running, updated_at = excluded.updated_at`);
  }

  *subscription(id: string): Step<SubscriptionRow | null> {
    return (yield* this.rows<SubscriptionRow>(sql`SELECT * FROM accounts.billing_subscriptions WHERE subscription_id = ${id}`))[0] ?? null;
  }

  *currentOfListing(listingId: string): Step<SubscriptionRow | null> {
    const query = sql`SELECT * FROM accounts.billing_subscriptions WHERE listing_id = ${listingId} ORDER BY status IN (${FINAL}), created DESC, subscription_id DESC LIMIT 1`;
    return (yield* this.rows<SubscriptionRow>(query))[0] ?? null;
  }

  openSubscriptionsOf(accountId: string): Step<SubscriptionRow[]> {
    return this.rows(sql`SELECT * FROM accounts.billing_subscriptions WHERE account_id = ${accountId} AND status NOT IN (${FINAL}) ORDER BY created`);
  }

  pastDueRunning(): Step<SubscriptionRow[]> {
    return this.rows(sql`SELECT * FROM accounts.billing_subscriptions WHERE status = 'past_due' AND running = 1`);
  }

  *setRunning(subscriptionId: string, running: boolean, atMs: number): Step<void> {
    yield* this.change(sql`UPDATE accounts.billing_subscriptions SET running = ${running ? 1 : 0}, updated_at = ${atMs} WHERE subscription_id = ${subscriptionId}`);
  }

  /** In a write transaction under the event id's lock: a resend handled meanwhile by another replica is seen as handled. */
  *eventHandled(eventId: string): Step<boolean> {
    yield* this.lock(EVENT_LOCK, eventId);
    return (yield* this.rows(sql`SELECT 1 FROM accounts.billing_events WHERE event_id = ${eventId}`)).length > 0;
  }

  *recordEvent(eventId: string, type: string, atMs: number): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.billing_events (event_id, type, received_at) VALUES (${eventId}, ${type}, ${atMs})`);
  }

  purgeEvents(beforeMs: number): Step<number> {
    return this.change(sql`DELETE FROM accounts.billing_events WHERE received_at <= ${beforeMs}`);
  }

  /** Holds `what` of `kind` until the transaction ends (write transactions only). */
  private *lock(kind: string, what: string): Step<void> {
    if (this.writing) yield* this.rows(sql`SELECT pg_advisory_xact_lock(hashtext(${kind}), hashtext(${what}))`);
  }

  private change(query: RawBuilder<unknown>): Step<number> {
    return changedBy(this.trx, query);
  }

  private rows<R>(query: RawBuilder<unknown>): Step<R[]> {
    return rowsOf<R>(this.trx, query);
  }
}
