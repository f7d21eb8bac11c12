// The event subscriptions, their delivery outbox and the relay's place in the account event log, in the
// accounts database (layout: src/oauth/tables.ts). A subscription's principal is an OAuth grant:
// it goes with the grant (ON DELETE CASCADE). Outbox rows carry their URL and secret, so the terminated
// envelope of a revoked grant is still delivered after its subscription is gone.
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

export class EventStore {
  private readonly sql;

  constructor(readonly db: Database.Database) {
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
      ofGrant: db.prepare('SELECT * FROM event_subscriptions WHERE grant_id = ?'),
      liveOfAccount: db.prepare(
        'SELECT s.* FROM event_subscriptions s JOIN oauth_grants g ON g.id = s.grant_id WHERE g.account_id = ? AND s.name = ? AND s.refresh_before > ? AND (s.failed_since IS NULL OR s.failed_since > ?)',
      ),
      purgeExpired: db.prepare('DELETE FROM event_subscriptions WHERE refresh_before <= ?'),
      enqueue: db.prepare('INSERT INTO event_outbox (subscription_id, webhook_id, url, secret, body, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)'),
      due: db.prepare('SELECT * FROM event_outbox WHERE next_attempt_at <= ? ORDER BY id LIMIT ?'),
      done: db.prepare('DELETE FROM event_outbox WHERE id = ?'),
      retry: db.prepare('UPDATE event_outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?'),
      delivered: db.prepare('UPDATE event_subscriptions SET last_delivery_at = ?, last_error = NULL, failed_since = NULL WHERE id = ?'),
      failed: db.prepare('UPDATE event_subscriptions SET last_error = ?, failed_since = coalesce(failed_since, ?) WHERE id = ?'),
      cursor: db.prepare('SELECT last_seq FROM event_relay WHERE id = 1').pluck(),
      setCursor: db.prepare('INSERT INTO event_relay (id, last_seq) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last_seq = excluded.last_seq'),
    };
  }

  transaction<T>(run: () => T): T {
    return this.db.transaction(run).immediate();
  }

  subscription(key: { grant: string; url: string; name: string; arguments: string }): SubscriptionRow | null {
    return (this.sql.subscription.get(key.grant, key.url, key.name, key.arguments) as SubscriptionRow | undefined) ?? null;
  }

  countOfGrant(grantId: string): number {
    return this.sql.countOfGrant.get(grantId) as number;
  }

  /** Whether the grant has a subscription to `url` already, whose endpoint answered its challenge. */
  verified(grantId: string, url: string): boolean {
    return this.sql.verified.get(grantId, url) !== undefined;
  }

  upsert(row: Omit<SubscriptionRow, 'last_delivery_at' | 'last_error' | 'failed_since'>): void {
    this.sql.upsert.run(row);
  }

  delete(key: { grant: string; url: string; name: string; arguments: string }): boolean {
    return this.sql.delete.run(key.grant, key.url, key.name, key.arguments).changes > 0;
  }

  ofGrant(grantId: string): SubscriptionRow[] {
    return this.sql.ofGrant.all(grantId) as SubscriptionRow[];
  }

  /** The account's subscriptions to `name` that are live now and not suspended (failing since before `suspendedBefore`). */
  liveOfAccount(accountId: string, name: string, nowMs: number, suspendedBefore: number): SubscriptionRow[] {
    return this.sql.liveOfAccount.all(accountId, name, nowMs, suspendedBefore) as SubscriptionRow[];
  }

  purgeExpired(nowMs: number): number {
    return this.sql.purgeExpired.run(nowMs).changes;
  }

  enqueue(subscription: Pick<SubscriptionRow, 'id' | 'url' | 'secret'>, webhookId: string, body: string, atMs: number): void {
    this.sql.enqueue.run(subscription.id, webhookId, subscription.url, subscription.secret, body, atMs);
  }

  due(nowMs: number, limit: number): OutboxRow[] {
    return this.sql.due.all(nowMs, limit) as OutboxRow[];
  }

  done(id: number): void {
    this.sql.done.run(id);
  }

  retry(id: number, atMs: number): void {
    this.sql.retry.run(atMs, id);
  }

  delivered(subscriptionId: string, atMs: number): void {
    this.sql.delivered.run(atMs, subscriptionId);
  }

  failed(subscriptionId: string, error: string, atMs: number): void {
    this.sql.failed.run(error, atMs, subscriptionId);
  }

  cursor(): number | null {
    return (this.sql.cursor.get() as number | undefined) ?? null;
  }

  setCursor(seq: number): void {
    this.sql.setCursor.run(seq);
  }
}
