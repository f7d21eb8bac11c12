// Signed event delivery to the service's webhook, as Stripe does it: one POST per event with the raw JSON
// body and a `Stripe-Signature` header made by the `stripe` SDK's own helper (generateTestHeaderString,
// HMAC-SHA256 of "t.body"), retried while the endpoint answers 5xx or cannot be reached. On demand it
// delivers an event twice (`resend`) or holds events back and lets them go in another order (`hold`,
// `release`), since Stripe promises neither once-only nor in-order delivery.
import { EventEmitter } from 'node:events';
import Stripe from 'stripe';
import { newId, type StandInEvent } from './state.js';

export interface DeliveryAttempt {
  eventId: string;
  /** The endpoint's HTTP status, or 0 when it could not be reached. */
  status: number;
  body: string;
}

export interface WebhookOptions {
  /** The service's receiveStripeEvent URL; null: events are kept but not sent. */
  url: string | null;
  secret: string;
  now: () => number;
  /** Waits before each retry of a failed delivery; its length is the number of retries. */
  retryDelaysMs: readonly number[];
}

export class WebhookDelivery extends EventEmitter<{ attempt: [DeliveryAttempt] }> {
  readonly events: StandInEvent[] = [];
  readonly attempts: DeliveryAttempt[] = [];
  private held: StandInEvent[] | null = null;
  private pending = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly options: WebhookOptions) {
    super();
  }

  set url(url: string | null) {
    this.options.url = url;
  }

  /** Makes the event for a change and sends it (or holds it). */
  emitEvent(type: string, object: unknown): StandInEvent {
    const event: StandInEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(this.options.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      // a copy: the event carries the object as it was when it happened
      data: { object: structuredClone(object) },
    };
    this.events.push(event);
    if (this.held !== null) this.held.push(event);
    else this.send(event);
    return event;
  }

  /** Keeps the next events back until `release`. */
  hold(): void {
    this.held ??= [];
  }

  /** Sends the held events, last first when `reversed`. */
  release(reversed = false): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of reversed ? held.reverse() : held) this.send(event);
  }

  /** Delivers an event again, as Stripe may. */
  resend(eventId: string): void {
    const event = this.events.find((e) => e.id === eventId);
    if (!event) throw new Error(`no event ${eventId}`);
    this.send(event);
  }

  /** The last event of a type, for tests. */
  last(type: string): StandInEvent | undefined {
    return this.events.findLast((e) => e.type === type);
  }

  /** Posts any body with a signature (the secret and timestamp as given): the tests' forgeries and lies. */
  async post(payload: string, options: { secret?: string; timestampSeconds?: number; signature?: string } = {}): Promise<{ status: number; body: string }> {
    if (this.options.url === null) throw new Error('the stand-in has no webhook URL');
    const signature =
      options.signature ??
      Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? this.options.secret, timestamp: options.timestampSeconds ?? Math.floor(this.options.now() / 1000) });
    const response = await fetch(this.options.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': signature, 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
      body: payload,
    });
    return { status: response.status, body: await response.text() };
  }

  /** Resolves once no delivery is under way or waiting for a retry. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private send(event: StandInEvent, attempt = 0): void {
    if (this.options.url === null) return;
    this.pending++;
    void this.deliver(event).then((outcome) => {
      this.attempts.push(outcome);
      this.emit('attempt', outcome);
      const failed = outcome.status === 0 || outcome.status >= 500;
      const delay = this.options.retryDelaysMs[attempt];
      if (failed && delay !== undefined) {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          this.send(event, attempt + 1);
          this.done();
        }, delay);
        this.timers.add(timer);
      } else {
        this.done();
      }
    });
  }

  private done(): void {
    this.pending--;
    if (this.pending === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async deliver(event: StandInEvent): Promise<DeliveryAttempt> {
    try {
      const { status, body } = await this.post(JSON.stringify(event, null, 2));
      return { eventId: event.id, status, body };
    } catch (error) {
      return { eventId: event.id, status: 0, body: String(error) };
    }
  }
}
