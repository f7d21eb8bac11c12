// The delivery relay of account events. Every poll (each 2 s, on the injected clock's time) it reads the
// account event log past its saved position, puts one delivery per matching live subscription in the
// outbox (in the same transaction that moves its position, so an entry is queued once and never lost),
// then POSTs what is due: signed, through the one outbound-HTTP module, one at a time per host. A refused
// delivery is tried again after 10 s, 1, 5 and 10 minutes (5 attempts), except 410 and 413; the
// subscription keeps the last error for deliveryStatus and stops receiving events after an hour of
// failures, until the client refreshes it. No replay: a new relay starts at the end of the log. A grant
// that ends sends each of its subscriptions a signed `terminated` envelope. The relay is "ready" (and the
// events extension advertised) while its worker runs and its last poll could write.
import type { AccountEventLog } from '../accounts/event-log.js';
import type { BackgroundJob } from '../feature.js';
import type { Logger } from '../log.js';
import type { OutboundHttp } from '../outbound/outbound-http.js';
import { admits, occurrence, type EventArguments } from './descriptors.js';
import type { Delivery, EventStore, OutboxRow } from './store.js';
import { controlId, deliveryError, signedHeaders } from './webhooks.js';

export const RELAY_POLL_MS = 2_000;
/** Waits before the 2nd, 3rd, 4th and 5th attempt of a delivery. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 600_000] as const;
/** A subscription failing this long gets no new events until refreshed (deliveryStatus.active false). */
export const SUSPEND_AFTER_MS = 3_600_000;
/** The Forbidden error of the events extension (SEP-3415 numbering, docs/MCP.md). */
export const FORBIDDEN = -32024;
const READ_BATCH = 500;
const DELIVERIES_PER_POLL = 200;

export interface RelayDeps {
  store: EventStore;
  log: AccountEventLog;
  outbound: OutboundHttp;
  logger: Logger;
  now: () => number;
  /** Whether the outbox and the log's place are shared by every replica (PostgreSQL): then only the cluster's worker relays. */
  shared: boolean;
}

/** A background job (src/cluster/worker.ts): on the cluster's worker when its store is shared, else on every replica over its own file. */
export class EventRelay implements BackgroundJob {
  readonly name = 'account-events';
  readonly runsOn: BackgroundJob['runsOn'];
  private timer: NodeJS.Timeout | null = null;
  private healthy = false;
  private polling: Promise<void> | null = null;

  constructor(private readonly deps: RelayDeps) {
    this.runsOn = deps.shared ? 'cluster-worker' : 'every-replica';
  }

  start(): void {
    void this.poll();
    this.timer = setInterval(() => void this.poll(), RELAY_POLL_MS);
    this.timer.unref();
  }

  /** Whether deliveries go out now: this replica relays (the worker's job runs) and the outbox took its last write. */
  ready(): boolean {
    return this.timer !== null && this.healthy;
  }

  /** One poll: queue what the log has new, deliver what is due. Tests call it at the moment they choose. */
  poll(): Promise<void> {
    this.polling ??= (async () => {
      await this.record();
      await this.deliverDue();
    })().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /**
   * Queues a terminated envelope for each subscription of a grant that ends (called inside the ending
   * transaction: the file's store writes at the call, store.ts).
   */
  terminate(grantId: string, reason: string): Promise<number> {
    const body = JSON.stringify({ type: 'terminated', error: { code: FORBIDDEN, message: `The authorization behind this subscription ended (${reason}); authorize again to subscribe.`, data: { reason } } });
    return this.deps.store.enqueueForGrant(grantId, controlId('terminated'), body, this.deps.now());
  }

  /** Stops polling (the worker lost its lease, or the server closes); a poll under way finishes. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }

  close(): Promise<void> {
    return this.stop();
  }

  /** Moves the log's new entries into the outbox, a batch a transaction; a write refused leaves the relay not ready. */
  private async record(): Promise<void> {
    const { store, log, now, logger } = this.deps;
    const nowMs = now();
    try {
      await store.purgeExpired(nowMs);
      let kept = await store.cursor();
      let cursor = kept ?? (await log.lastSeq());
      for (;;) {
        const entries = await log.read({ after: cursor, limit: READ_BATCH });
        const deliveries: Delivery[] = [];
        for (const entry of entries) {
          const body = JSON.stringify(occurrence(entry));
          for (const subscription of await store.liveOfAccount(entry.account_id, entry.type, nowMs, nowMs - SUSPEND_AFTER_MS)) {
            if (entry.seq > subscription.after_seq && admits(JSON.parse(subscription.arguments) as EventArguments, entry)) deliveries.push({ subscription, webhookId: `evt_${entry.seq}`, body });
          }
          cursor = entry.seq;
        }
        if (kept !== cursor && !(await store.record(deliveries, kept, cursor, nowMs))) break; // recorded already by another poll
        kept = cursor;
        if (entries.length < READ_BATCH) break;
      }
      this.healthy = true;
    } catch (error) {
      this.healthy = false;
      logger.error('account events relay cannot record; events are not advertised until it can', { error: String(error) });
    }
  }

  /** POSTs the due deliveries: hosts in parallel, one at a time per host. */
  private async deliverDue(): Promise<void> {
    const { store, now } = this.deps;
    const byHost = new Map<string, OutboxRow[]>();
    for (const row of await store.due(now(), DELIVERIES_PER_POLL)) {
      const host = new URL(row.url).host;
      byHost.set(host, [...(byHost.get(host) ?? []), row]);
    }
    await Promise.all([...byHost.values()].map(async (rows) => {
      for (const row of rows) await this.deliver(row);
    }));
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { store, outbound, now, logger } = this.deps;
    const result = await outbound.post(row.url, signedHeaders(row.secret, row.webhook_id, row.subscription_id, row.body, now()), row.body);
    const error = deliveryError(result);
    const nowMs = now();
    try {
      if (error === null) {
        await store.done(row.id);
        await store.delivered(row.subscription_id, nowMs);
        return;
      }
      await store.failed(row.subscription_id, error, nowMs);
      const final = (result.ok && (result.status === 410 || result.status === 413)) || row.attempts >= RETRY_DELAYS_MS.length;
      if (final) await store.done(row.id);
      else await store.retry(row.id, nowMs + RETRY_DELAYS_MS[row.attempts]);
    } catch (failure) {
      logger.error('account events relay cannot record a delivery; it is tried again', { error: String(failure) });
    }
  }
}
