// The event subscriptions, their outbox and the relay's place in the log in PostgreSQL's accounts schema
// (DATABASE_URL; layout: postgres-tables.ts), shared by every replica. What the file's immediate
// transactions guarantee holds across replicas by statements: the relay's place moves only from the place
// it read (UPDATE … WHERE last_seq = from, or the first INSERT … ON CONFLICT DO NOTHING), in the transaction
// that queues its deliveries, so of two relays recording one range one queues it and the other nothing;
// and the outbox's UNIQUE (subscription, webhook id) keeps a delivery once whatever queues it. A grant's
// terminated envelopes are queued inside the transaction that ends it (`enqueueForGrantIn`).
import { sql, type Kysely, type Transaction } from 'kysely';
import { affectedRows } from '../storage/postgres-steps.js';
import type { Delivery, EventStore, OutboxRow, SubscriptionKey, SubscriptionRow } from './store.js';

const ONCE = sql.raw('ON CONFLICT (subscription_id, webhook_id) DO NOTHING');

export class PostgresEventStore implements EventStore {
  /** `db`: the accounts schema's database (PostgresDatabase.schema('accounts')). */
  constructor(private readonly db: Kysely<unknown>) {}

  async subscription(key: SubscriptionKey): Promise<SubscriptionRow | null> {
    const { rows } = await sql<SubscriptionRow>`SELECT * FROM accounts.event_subscriptions
      WHERE grant_id = ${key.grant} AND url = ${key.url} AND name = ${key.name} AND arguments = ${key.arguments}`.execute(this.db);
    return rows[0] ?? null;
  }

  async countOfGrant(grantId: string): Promise<number> {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM accounts.event_subscriptions WHERE grant_id = ${grantId}`.execute(this.db);
    return rows[0].n;
  }

  async verified(grantId: string, url: string): Promise<boolean> {
    const { rows } = await sql`SELECT 1 FROM accounts.event_subscriptions WHERE grant_id = ${grantId} AND url = ${url} LIMIT 1`.execute(this.db);
    return rows.length > 0;
  }

  async upsert(row: Omit<SubscriptionRow, 'last_delivery_at' | 'last_error' | 'failed_since'>): Promise<void> {
    await sql`INSERT INTO accounts.event_subscriptions (id, grant_id, name, arguments, url, secret, refresh_before, after_seq, created_at)
      VALUES (${row.id}, ${row.grant_id}, ${row.name}, ${row.arguments}, ${row.url}, ${row.secret}, ${row.refresh_before}, ${row.after_seq}, ${row.created_at})
      ON CONFLICT (grant_id, url, name, arguments) DO UPDATE SET secret = excluded.secret, refresh_before = excluded.refresh_before, failed_since = NULL`.execute(this.db);
  }

  async delete(key: SubscriptionKey): Promise<boolean> {
    return affectedRows(await sql`DELETE FROM accounts.event_subscriptions
      WHERE grant_id = ${key.grant} AND url = ${key.url} AND name = ${key.name} AND arguments = ${key.arguments}`.execute(this.db)) > 0;
  }

  /** Commits on its own: from inside the transaction that ends the grant, call enqueueForGrantIn. */
  enqueueForGrant(grantId: string, webhookId: string, body: string, atMs: number): Promise<number> {
    return this.enqueueForGrantIn(this.db, grantId, webhookId, body, atMs);
  }

  /** enqueueForGrant inside `tx` (of the accounts schema): the envelopes commit, or roll back, with the grant's end. */
  async enqueueForGrantIn<Tables>(tx: Transaction<Tables> | Kysely<unknown>, grantId: string, webhookId: string, body: string, atMs: number): Promise<number> {
    return affectedRows(await sql`INSERT INTO accounts.event_outbox (subscription_id, webhook_id, url, secret, body, next_attempt_at)
      SELECT id, ${webhookId}, url, secret, ${body}, ${atMs} FROM accounts.event_subscriptions WHERE grant_id = ${grantId} ${ONCE}`.execute(tx));
  }

  async liveOfAccount(accountId: string, name: string, nowMs: number, suspendedBefore: number): Promise<SubscriptionRow[]> {
    const { rows } = await sql<SubscriptionRow>`SELECT s.* FROM accounts.event_subscriptions s JOIN accounts.oauth_grants g ON g.id = s.grant_id
      WHERE g.account_id = ${accountId} AND s.name = ${name} AND s.refresh_before > ${nowMs} AND (s.failed_since IS NULL OR s.failed_since > ${suspendedBefore})`.execute(this.db);
    return rows;
  }

  async purgeExpired(nowMs: number): Promise<number> {
    return affectedRows(await sql`DELETE FROM accounts.event_subscriptions WHERE refresh_before <= ${nowMs}`.execute(this.db));
  }

  record(deliveries: readonly Delivery[], from: number | null, to: number, atMs: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const moved = from === null
        ? sql`INSERT INTO accounts.event_relay (id, last_seq) VALUES (1, ${to}) ON CONFLICT (id) DO NOTHING`
        : sql`UPDATE accounts.event_relay SET last_seq = ${to} WHERE id = 1 AND last_seq = ${from}`;
      if (affectedRows(await moved.execute(tx)) === 0) return false; // another relay recorded from that place first
      if (deliveries.length > 0) await enqueue(tx, deliveries, atMs);
      return true;
    });
  }

  async due(nowMs: number, limit: number): Promise<OutboxRow[]> {
    const { rows } = await sql<OutboxRow>`SELECT * FROM accounts.event_outbox WHERE next_attempt_at <= ${nowMs} ORDER BY id LIMIT ${limit}`.execute(this.db);
    return rows;
  }

  async done(id: number): Promise<void> {
    await sql`DELETE FROM accounts.event_outbox WHERE id = ${id}`.execute(this.db);
  }

  async retry(id: number, atMs: number): Promise<void> {
    await sql`UPDATE accounts.event_outbox SET attempts = attempts + 1, next_attempt_at = ${atMs} WHERE id = ${id}`.execute(this.db);
  }

  async delivered(subscriptionId: string, atMs: number): Promise<void> {
    await sql`UPDATE accounts.event_subscriptions SET last_delivery_at = ${atMs}, last_error = NULL, failed_since = NULL WHERE id = ${subscriptionId}`.execute(this.db);
  }

  async failed(subscriptionId: string, error: string, atMs: number): Promise<void> {
    await sql`UPDATE accounts.event_subscriptions SET last_error = ${error}, failed_since = coalesce(failed_since, ${atMs}) WHERE id = ${subscriptionId}`.execute(this.db);
  }

  async cursor(): Promise<number | null> {
    const { rows } = await sql<{ last_seq: number }>`SELECT last_seq FROM accounts.event_relay WHERE id = 1`.execute(this.db);
    return rows[0]?.last_seq ?? null;
  }
}

/** Queues the deliveries in one statement (arrays, whatever their number), each once. */
async function enqueue(tx: Transaction<unknown>, deliveries: readonly Delivery[], atMs: number): Promise<void> {
  const column = <T>(of: (delivery: Delivery) => T) => deliveries.map(of);
  await sql`INSERT INTO accounts.event_outbox (subscription_id, webhook_id, url, secret, body, next_attempt_at)
    SELECT s, w, u, k, b, ${atMs} FROM unnest(${column((d) => d.subscription.id)}::text[], ${column((d) => d.webhookId)}::text[],
      ${column((d) => d.subscription.url)}::text[], ${column((d) => d.subscription.secret)}::text[], ${column((d) => d.body)}::text[]) AS d (s, w, u, k, b)
    ${ONCE}`.execute(tx);
}
