// receiveStripeEvent after its guards (signature checked over the raw bytes): the Stripe events that
// change a plan or a checkout. Stripe delivers at least once and in any order, so an event is only a hint
// of what to read: the subscription (or checkout session) it names is read back from Stripe, and the state
// written is the state read. Its effect and its id are written in one transaction, so a resent id changes
// nothing, and an event whose read failed (Stripe did not answer: 502) is not recorded and is redone when
// Stripe sends it again. Events are handled one at a time, so two reads of one subscription cannot write
// in the wrong order.
import type Stripe from 'stripe';
import type { BillingConfig } from './config.js';
import type { Logger } from '../log.js';
import type { ListingPlans } from './listings.js';
import { planOfSubscription } from './plan.js';
import { askStripe, ProviderRefused } from './provider.js';
import type { BillingStore, BillingTables } from './store.js';
import type { Step } from '../storage/steps.js';

/** The part of an event billing reads; the signature guard has verified the bytes it came from. */
export interface SignedEvent {
  id: string;
  type: string;
  data: { object: { id?: unknown } };
}

type Reading =
  | { kind: 'subscription'; subscription: Stripe.Subscription }
  | { kind: 'session'; session: Stripe.Checkout.Session; subscription: Stripe.Subscription | null }
  | { kind: 'nothing' };

const SESSION_EVENTS = ['checkout.session.completed', 'checkout.session.expired', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed'];

export interface EventDeps {
  config: BillingConfig;
  stripe: Stripe;
  store: BillingStore;
  listings: ListingPlans;
  log: Logger;
  now: () => number;
}

export class StripeEvents {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly unknownTypes = new Set<string>();

  constructor(private readonly deps: EventDeps) {}

  /** Handles one event (after the ones before it); `duplicate` when its id was handled before. */
  receive(event: SignedEvent): Promise<{ duplicate: boolean }> {
    const run = this.queue.then(() => this.handle(event));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes a subscription read from Stripe (its listing's plan follows), inside the caller's transaction;
   * deletion writes the canceled ones too. Answers the toilets whose plan changed (ListingPlans.planShown
   * once committed).
   */
  *apply(tables: BillingTables, subscription: Stripe.Subscription): Step<string[]> {
    const { config, listings, log, now } = this.deps;
    const listingId = subscription.metadata.listing;
    if (typeof listingId !== 'string' || (yield* listings.listingIn(tables, listingId)) === null) {
      log.error('a Stripe subscription names no partner listing of this service; nothing changed', { subscription: subscription.id });
      return [];
    }
    const nowMs = now();
    const plan = planOfSubscription(config, subscription, nowMs);
    if (plan.tier === null) log.error('a Stripe subscription has a price configured for no tier (STRIPE_PRICE_BASIC, STRIPE_PRICE_PLUS): its plan does not run', { subscription: subscription.id, price: plan.priceId });
    const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
    yield* tables.upsertSubscription({
      subscription_id: subscription.id,
      listing_id: listingId,
      account_id: yield* tables.accountOfCustomer(customerId),
      customer_id: customerId,
      status: subscription.status,
      price_id: plan.priceId,
      tier: plan.tier,
      period_start: plan.periodStart,
      created: subscription.created * 1000,
      running: plan.running ? 1 : 0,
      updated_at: nowMs,
    });
    return yield* this.applyCurrent(tables, listingId);
  }

  /**
   * Reports the listing's current subscription to the plan seam, inside the caller's transaction: an old
   * subscription's late event must not stop the plan a newer one pays for. Answers the toilets changed.
   */
  *applyCurrent(tables: BillingTables, listingId: string): Step<string[]> {
    const current = yield* tables.currentOfListing(listingId);
    if (current === null) return [];
    return [yield* this.deps.listings.applyStripePlanIn(tables, listingId, { tier: current.running === 1 ? current.tier : null, subscriptionId: current.subscription_id, status: current.status })];
  }

  private async handle(event: SignedEvent): Promise<{ duplicate: boolean }> {
    const { store, listings, now } = this.deps;
    if (await store.read((tables) => tables.eventHandled(event.id))) return { duplicate: true };
    const reading = await this.read(event);
    const events = this;
    const outcome = await store.transaction(function* (tables) {
      // a resend handled meanwhile (Stripe retries while the first delivery reads): its effect is there already
      if (yield* tables.eventHandled(event.id)) return { duplicate: true, toilets: [] };
      const toilets: string[] = [];
      if (reading.kind === 'subscription') toilets.push(...(yield* events.apply(tables, reading.subscription)));
      if (reading.kind === 'session') {
        if (reading.session.status !== 'open') yield* tables.deleteCheckoutOfSession(reading.session.id);
        if (reading.subscription !== null) toilets.push(...(yield* events.apply(tables, reading.subscription)));
      }
      yield* tables.recordEvent(event.id, event.type, now());
      return { duplicate: false, toilets };
    });
    listings.planShown(outcome.toilets);
    return { duplicate: outcome.duplicate };
  }

  /** What the event names, read from Stripe now. */
  private async read(event: SignedEvent): Promise<Reading> {
    const { stripe, log } = this.deps;
    const id = event.data.object.id;
    try {
      if (event.type.startsWith('customer.subscription.') && typeof id === 'string') {
        return { kind: 'subscription', subscription: await askStripe('read a subscription', () => stripe.subscriptions.retrieve(id)) };
      }
      if (SESSION_EVENTS.includes(event.type) && typeof id === 'string') {
        const session = await askStripe('read a checkout session', () => stripe.checkout.sessions.retrieve(id));
        const subscriptionId = typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
        const subscription = subscriptionId === null ? null : await askStripe('read a subscription', () => stripe.subscriptions.retrieve(subscriptionId));
        return { kind: 'session', session, subscription };
      }
    } catch (error) {
      // Stripe has no such object (another account's test event, a deleted object): nothing to do, now or on a resend
      if (error instanceof ProviderRefused && error.code === 'resource_missing') {
        log.error('a Stripe event names an object Stripe does not know; ignored', { event: event.id, type: event.type });
        return { kind: 'nothing' };
      }
      throw error;
    }
    if (!this.unknownTypes.has(event.type)) {
      this.unknownTypes.add(event.type);
      log.info('Stripe event type not handled; answered 200 (said once per type)', { type: event.type });
    }
    return { kind: 'nothing' };
  }
}
