// events/subscribe and events/unsubscribe of the events extension, webhook mode. A subscription's key is
// (grant, url, name, arguments); subscribing again with the same key is an idempotent refresh (new secret,
// new lifetime, reactivated). The first subscription of a grant to a URL is verified inside the call: a
// signed `verification` envelope with a single-use challenge the endpoint must echo in a 2xx JSON answer,
// else the subscribe fails. Lifetimes are granted up to 24 hours (no expiry is never granted); there is no
// replay (cursor null). Bounds: 10 subscriptions per grant, 6 verification POSTs per host a minute.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { OutboundHttp } from '../outbound/outbound-http.js';
import { canonicalArguments, checkArguments, isEventName, type EventArguments } from './descriptors.js';
import { FORBIDDEN, SUSPEND_AFTER_MS } from './relay.js';
import type { EventStore, SubscriptionRow } from './store.js';
import { controlId, deliveryError, secretFault, signedHeaders } from './webhooks.js';

/** The events extension's error numbers (SEP-3415's provisional table; docs/MCP.md says why these). */
export const EVENT_ERRORS = { invalidParams: -32602, notFound: -32023, forbidden: FORBIDDEN, resourceExhausted: -32025, unsupported: -32026, callbackEndpoint: -32027 } as const;

export const MAX_SUBSCRIPTIONS_PER_GRANT = 10;
export const MAX_VERIFICATIONS_PER_HOST_PER_MINUTE = 6;
export const MAX_LIFETIME_MS = 24 * 3_600_000;
/** Shorter suggestions are raised to this (the extension lets a server clamp very short ones up). */
export const MIN_LIFETIME_MS = 60_000;

export class EventError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Caller {
  account: string;
  grant: string;
  /** The caller's own listings: what its filters may name. */
  listings: readonly { id: string; toilet_id: string }[];
}

export interface SubscribeResult extends Record<string, unknown> {
  id: string;
  refreshBefore: string;
  cursor: null;
  truncated: false;
  deliveryStatus?: { active: boolean; lastDeliveryAt: string | null; lastError: string | null; failedSince?: string };
}

export class Subscriptions {
  /** Verification POSTs per host in the current minute (by the injected clock). */
  private readonly verifications = new Map<string, { windowStart: number; count: number }>();

  constructor(
    private readonly store: EventStore,
    private readonly outbound: OutboundHttp,
    /** The account event log's newest seq: where a new subscription starts (no replay). */
    private readonly lastSeq: () => Promise<number>,
    private readonly now: () => number,
  ) {}

  async subscribe(caller: Caller, params: Record<string, unknown>): Promise<SubscribeResult> {
    const name = this.eventName(params.name);
    const args = this.ownArguments(caller, params.arguments);
    const delivery = params.delivery as Record<string, unknown> | undefined;
    if (typeof delivery !== 'object' || delivery === null) throw new EventError(EVENT_ERRORS.invalidParams, 'delivery is required: {mode: "webhook", url, secret}');
    if (delivery.mode !== 'webhook') throw new EventError(EVENT_ERRORS.unsupported, 'Only webhook delivery is offered here.', { feature: 'delivery.mode', value: delivery.mode ?? null });
    const url = this.url(delivery.url);
    const secretProblem = secretFault(delivery.secret);
    if (secretProblem !== null) throw new EventError(EVENT_ERRORS.invalidParams, secretProblem);
    const secret = delivery.secret as string;
    const key = { grant: caller.grant, url, name, arguments: canonicalArguments(args) };
    const existing = await this.store.subscription(key);
    if (existing === null && (await this.store.countOfGrant(caller.grant)) >= MAX_SUBSCRIPTIONS_PER_GRANT) {
      throw new EventError(EVENT_ERRORS.resourceExhausted, `An authorization may hold ${MAX_SUBSCRIPTIONS_PER_GRANT} subscriptions; unsubscribe one first.`, { limit: 'subscriptions_per_grant', max: MAX_SUBSCRIPTIONS_PER_GRANT });
    }
    const id = `sub_${createHash('sha256').update(JSON.stringify([key.grant, key.url, key.name, key.arguments])).digest('hex').slice(0, 32)}`;
    if (!(await this.store.verified(caller.grant, url))) await this.verify(url, secret, id);
    const nowMs = this.now();
    const refreshBefore = nowMs + this.lifetime(params.ttlMs);
    await this.store.upsert({ id, grant_id: caller.grant, name, arguments: key.arguments, url, secret, refresh_before: refreshBefore, after_seq: await this.lastSeq(), created_at: nowMs });
    return { id, refreshBefore: new Date(refreshBefore).toISOString(), cursor: null, truncated: false, ...(existing === null ? {} : { deliveryStatus: deliveryStatus(existing, nowMs) }) };
  }

  async unsubscribe(caller: Caller, params: Record<string, unknown>): Promise<Record<string, never>> {
    const name = this.eventName(params.name);
    const args = checkArguments(params.arguments);
    if (typeof args === 'string') throw new EventError(EVENT_ERRORS.invalidParams, args);
    const url = (params.delivery as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string') throw new EventError(EVENT_ERRORS.invalidParams, 'delivery.url is required: the URL of the subscription');
    if (!(await this.store.delete({ grant: caller.grant, url, name, arguments: canonicalArguments(args) }))) {
      throw new EventError(EVENT_ERRORS.notFound, 'No subscription of this authorization has this name, arguments and URL.', { kind: 'subscription' });
    }
    return {};
  }

  private eventName(name: unknown): SubscriptionRow['name'] {
    if (typeof name !== 'string') throw new EventError(EVENT_ERRORS.invalidParams, 'name is required: an event name from events/list');
    if (!isEventName(name)) throw new EventError(EVENT_ERRORS.notFound, `There is no event ${JSON.stringify(name)}; events/list names them.`, { kind: 'event' });
    return name;
  }

  /** The filters, if they name only the caller's own listings and toilets. */
  private ownArguments(caller: Caller, value: unknown): EventArguments {
    const args = checkArguments(value);
    if (typeof args === 'string') throw new EventError(EVENT_ERRORS.invalidParams, args);
    if (args.listing_id !== undefined && !caller.listings.some((l) => l.id === args.listing_id)) {
      throw new EventError(EVENT_ERRORS.forbidden, 'These events report changes to your own listings only: listing_id is not one of yours (see get_my_partner_listings).');
    }
    if (args.toilet_id !== undefined && !caller.listings.some((l) => l.toilet_id === args.toilet_id)) {
      throw new EventError(EVENT_ERRORS.forbidden, 'These events report changes to your own listings only: you have no listing on this toilet_id (see get_my_partner_listings).');
    }
    return args;
  }

  private url(value: unknown): string {
    if (typeof value !== 'string' || value.length > 2000) throw new EventError(EVENT_ERRORS.invalidParams, 'delivery.url is required: an https URL of at most 2000 characters');
    const fault = this.outbound.urlFault(value);
    if (fault !== null) throw new EventError(EVENT_ERRORS.invalidParams, `delivery.url ${fault}`);
    return value;
  }

  private lifetime(ttlMs: unknown): number {
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs)) return MAX_LIFETIME_MS; // omitted, or null (no expiry is not granted)
    return Math.min(MAX_LIFETIME_MS, Math.max(MIN_LIFETIME_MS, Math.floor(ttlMs)));
  }

  /** The challenge echo; throws CallbackEndpointError when the endpoint does not answer it. */
  private async verify(url: string, secret: string, subscriptionId: string): Promise<void> {
    const host = new URL(url).host; // a webhook URL is https on 443: the host is the name
    const nowMs = this.now();
    const window = this.verifications.get(host);
    const current = window !== undefined && nowMs - window.windowStart < 60_000 ? window : { windowStart: nowMs, count: 0 };
    if (current.count >= MAX_VERIFICATIONS_PER_HOST_PER_MINUTE) {
      throw new EventError(EVENT_ERRORS.resourceExhausted, `This server verifies at most ${MAX_VERIFICATIONS_PER_HOST_PER_MINUTE} endpoints of one host a minute; try again in a minute.`, { limit: 'verifications_per_host_per_minute', max: MAX_VERIFICATIONS_PER_HOST_PER_MINUTE });
    }
    current.count += 1;
    this.verifications.set(host, current);
    const challenge = randomBytes(24).toString('base64url');
    const body = JSON.stringify({ type: 'verification', challenge });
    const result = await this.outbound.post(url, signedHeaders(secret, controlId('verification'), subscriptionId, body, nowMs), body);
    const failed = deliveryError(result);
    if (failed !== null) throw new EventError(EVENT_ERRORS.callbackEndpoint, `The endpoint did not accept the verification POST (${result.ok ? `HTTP ${result.status}` : result.detail}).`, { reason: failed });
    if (!result.ok || !echoes(result.body, challenge)) {
      throw new EventError(EVENT_ERRORS.callbackEndpoint, 'The endpoint did not echo the challenge: answer the verification POST with {"challenge": "<the challenge>"}.', { reason: 'challenge_failed' });
    }
  }
}

function echoes(body: string, challenge: string): boolean {
  let echoed: unknown;
  try {
    echoed = (JSON.parse(body) as { challenge?: unknown }).challenge;
  } catch {
    return false;
  }
  if (typeof echoed !== 'string') return false;
  const a = Buffer.from(echoed);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

function deliveryStatus(row: SubscriptionRow, nowMs: number): NonNullable<SubscribeResult['deliveryStatus']> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    active: row.failed_since === null || nowMs - row.failed_since < SUSPEND_AFTER_MS,
    lastDeliveryAt: iso(row.last_delivery_at),
    lastError: row.last_error,
    ...(row.failed_since === null ? {} : { failedSince: iso(row.failed_since)! }),
  };
}
