// The event subscriptions, their delivery outbox and the relay's place in the account event log, behind one
// asynchronous interface; kept in the accounts database (layout: src/oauth/tables.ts and outbox-once-step.ts)
// beside the OAuth grants they belong to, or in PostgreSQL's accounts schema (postgres-store.ts). A
// subscription's principal is an OAuth grant: it goes with the grant (ON DELETE CASCADE). Outbox rows carry
// their URL and secret, so the terminated envelope of a revoked grant is still delivered after its
// subscription is gone; the outbox holds a change's delivery to a subscription once (unique subscription +
// webhook id), however many relays record it.
import type Database from 'better-sqlite3';

export interface SubscriptionRow {
  id: string;
  grant_id: string;
  name: string;
  /** Canonical JSON of the filters. */
  arguments: string;
  url: string;
  secret: string;
  refresh_before: number;
  /** The log's last seq when the subscription was made: it gets only later entries. */
  after_seq: number;
  created_at: number;
  last_delivery_at: number | null;
  last_error: string | null;
  failed_since: number | null;
}

export interface OutboxRow {
  id: number;
  subscription_id: string;
  webhook_id: string;
  url: string;
  secret: string;
  body: string;
  attempts: number;
  next_attempt_at: number;
}

export type SubscriptionKey = { grant: string; url: string; name: string; arguments: string };

/** One delivery to put in the outbox. */
export interface Delivery {
  subscription: Pick<SubscriptionRow, 'id' | 'url' | 'secret'>;
  webhookId: string;
  body: string;
}

export interface EventStore {
  subscription(key: SubscriptionKey): Promise<SubscriptionRow | null>;
  countOfGrant(grantId: string): Promise<number>;
  /** Whether the grant has a subscription to `url` already, whose endpoint answered its challenge. */
  verified(grantId: string, url: string): Promise<boolean>;
  upsert(row: Omit<SubscriptionRow, 'last_delivery_at' | 'last_error' | 'failed_since'>): Promise<void>;
  delete(key: SubscriptionKey): Promise<boolean>;
  /**
   * Queues `body` for every subscription of the grant (its terminated envelope). The file's implementation
   * writes before it returns, so called inside the transaction that ends the grant it commits with it;
   * PostgreSQL's takes that transaction (PostgresEventStore.enqueueForGrantIn).
   */
  enqueueForGrant(grantId: string, webhookId: string, body: string, atMs: number): Promise<number>;
  /** The account's subscriptions to `name` that are live now and not suspended (failing since before `suspendedBefore`). */
  liveOfAccount(accountId: string, name: string, nowMs: number, suspendedBefore: number): Promise<SubscriptionRow[]>;
  purgeExpired(nowMs: number): Promise<number>;
  /**
   * Puts the deliveries in the outbox and moves the relay's place from `from` (null: none kept yet) to `to`,
   * in one transaction; false, with nothing queued, when the place is no longer `from` (recorded already).
   */
  record(deliveries: readonly Delivery[], from: number | null, to: number, atMs: number): Promise<boolean>;
  due(nowMs: number, limit: number): Promise<OutboxRow[]>;
  done(id: number): Promise<void>;
  retry(id: number, atMs: number): Promise<void>;
  delivered(subscriptionId: string, atMs: number): Promise<void>;
  failed(subscriptionId: string, error: string, atMs: number): Promise<void>;
  /** The relay's place in the log, null before its first record. */
  cursor(): Promise<number | null>;
}

/** The subscriptions and outbox in the ACCOUNTS_DB file (synchronous inside). */
export class SqliteEventStore implements EventStore {
  private readonly sql;

  constructor(private readonly db: Database.Database) {
    this.sql = {
      subscription: db.prepare('SELECT * FROM event_subscriptions WHERE grant_id = ? AND url = ? AND name = ? AND arguments = ?'),
      countOfGrant: db.prepare('SELECT count(*) FROM event_subscriptions WHERE grant_id = ?').pluck(),
      verified: db.prepare('SELECT 1 FROM event_subscriptions WHERE grant_id = ? AND url = ? LIMIT 1').pluck(),
      upsert: db.prepare(
        `INSERT INTO event_subscriptions (id, grant_id, name, arguments, url, secret, refresh_before, after_seq, created_at)
         VALUES (@id, @grant_id, @name, @arguments, @url, @secret, @refresh_before, @after_seq, @created_at)
         ON CONFLICT (grant_id, url, name, arguments) DO UPDATE SET secret = excluded.secret, refresh_before = excluded.refresh_before, failed_since = NULL`,
      ),
      delete: db.prepare('DELETE FROM event_subscriptions WHERE grant_id = ? AND url = ? AND name = ? AND arguments = ?'),
      enqueueForGrant: db.prepare(
        `INSERT INTO event_outbox (subscription_id, webhook_id, url, secret, body, next_attempt_at)
         SELECT id, @webhookId, url, secret, @body, @atMs FROM event_subscriptions WHERE grant_id = @grantId
         ON CONFLICT (subscription_id, webhook_id) DO NOTHING`,
      ),
      liveOfAccount: db.prepare(
        'SELECT s.* FROM event_subscriptions s JOIN oauth_grants g ON g.id = s.grant_id WHERE g.account_id = ? AND s.name = ? AND s.refresh_before > ? AND (s.failed_since IS NULL OR s.failed_since > ?)',
      ),
      purgeExpired: db.prepare('DELETE FROM event_subscriptions WHERE refresh_before <= ?'),
      enqueue: db.prepare(
        'INSERT INTO event_outbox (subscription_id, webhook_id, url, secret, body, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (subscription_id, webhook_id) DO NOTHING',
      ),
      due: db.prepare('SELECT * FROM event_outbox WHERE next_attempt_at <= ? ORDER BY id LIMIT ?'),
      done: db.prepare('DELETE FROM event_outbox WHERE id = ?'),
      retry: db.prepare('UPDATE event_outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?'),
      delivered: db.prepare('UPDATE event_subscriptions SET last_delivery_at = ?, last_error = NULL, failed_since = NULL WHERE id = ?'),
      failed: db.prepare('UPDATE event_subscriptions SET last_error = ?, failed_since = coalesce(failed_since, ?) WHERE id = ?'),
      cursor: db.prepare('SELECT last_seq FROM event_relay WHERE id = 1').pluck(),
      setCursor: db.prepare('INSERT INTO event_relay (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq'),
    };
  }

  async subscription(key: SubscriptionKey): Promise<SubscriptionRow | null> {
    return (this.sql.subscription.get(key.grant, key.url, key.name, key.arguments) as SubscriptionRow | undefined) ?? null;
  }

  async countOfGrant(grantId: string): Promise<number> {
    return this.sql.countOfGrant.get(grantId) as number;
  }

  async verified(grantId: string, url: string): Promise<boolean> {
    return this.sql.verified.get(grantId, url) !== undefined;
  }

  async upsert(row: Omit<SubscriptionRow, 'last_delivery_at' | 'last_error' | 'failed_since'>): Promise<void> {
    this.sql.upsert.run(row);
  }

  async delete(key: SubscriptionKey): Promise<boolean> {
    return this.sql.delete.run(key.grant, key.url, key.name, key.arguments).changes > 0;
  }

  async liveOfAccount(accountId: string, name: string, nowMs: number, suspendedBefore: number): Promise<SubscriptionRow[]> {
    return this.sql.liveOfAccount.all(accountId, name, nowMs, suspendedBefore) as SubscriptionRow[];
  }

  async purgeExpired(nowMs: number): Promise<number> {
    return this.sql.purgeExpired.run(nowMs).changes;
  }

  async enqueueForGrant(grantId: string, webhookId: string, body: string, atMs: number): Promise<number> {
    return this.sql.enqueueForGrant.run({ grantId, webhookId, body, atMs }).changes;
  }

  async record(deliveries: readonly Delivery[], from: number | null, to: number, atMs: number): Promise<boolean> {
    return this.db.transaction(() => {
      if (((this.sql.cursor.get() as number | undefined) ?? null) !== from) return false;
      for (const { subscription, webhookId, body } of deliveries) this.sql.enqueue.run(subscription.id, webhookId, subscription.url, subscription.secret, body, atMs);
      this.sql.setCursor.run(to);
      return true;
    }).immediate();
  }

  async due(nowMs: number, limit: number): Promise<OutboxRow[]> {
    return this.sql.due.all(nowMs, limit) as OutboxRow[];
  }

  async done(id: number): Promise<void> {
    this.sql.done.run(id);
  }

  async retry(id: number, atMs: number): Promise<void> {
    this.sql.retry.run(atMs, id);
  }

  async delivered(subscriptionId: string, atMs: number): Promise<void> {
    this.sql.delivered.run(atMs, subscriptionId);
  }

  async failed(subscriptionId: string, error: string, atMs: number): Promise<void> {
    this.sql.failed.run(error, atMs, subscriptionId);
  }

  async cursor(): Promise<number | null> {
    return (this.sql.cursor.get() as number | undefined) ?? null;
  }
}
