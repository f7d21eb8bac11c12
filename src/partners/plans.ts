// The plan seam: whether a listing's plan runs, at which tier, and who says so. Two sources set it:
// `manual` (the operator, `npm run moderate -- plan`, for testing and for sites that bill outside Stripe)
// and `stripe` (billing's webhooks, src/billing). Neither overrides the other: Stripe never touches a
// running manual plan, and the operator's command refuses a listing whose Stripe subscription is not in a
// final state. Billing owns the subscription; it reports each one it reads here (applyStripePlan), and the
// listing keeps its id and status in `stripe_subscription_id` / `stripe_status` for that refusal.
// A plan change emits no account event (the spec's events are claim status and profile); the dashboard
// (listMyPartnerListings) shows the plan, and billing's own records say why it changed.
import { PartnerError } from './errors.js';
import type { PartnerContext } from './context.js';
import type { ListingWithClaim, PartnerTables, PlanSource, PlanTier } from './store.js';
import type { Step } from '../storage/steps.js';

/** Stripe subscription statuses after which nothing more happens to it (Stripe API, Subscription.status). */
export const STRIPE_FINAL_STATUSES: readonly string[] = ['canceled', 'incomplete_expired'];

export interface PlanState {
  tier: PlanTier | null;
  source: PlanSource | null;
  /** The plan runs: the listing shows while its claim is approved, it is not stopped and its toilet is served. */
  running: boolean;
}

export interface StripePlan {
  /** The tier the subscription pays for while it runs; null when it does not run (past due, canceled ...). */
  tier: PlanTier | null;
  subscriptionId: string;
  /** Stripe's status of the subscription, as read from Stripe (not from the event body). */
  status: string;
}

export function planOf(listing: ListingWithClaim): PlanState {
  return { tier: listing.plan_tier, source: listing.plan_source, running: listing.plan_tier !== null && listing.stopped_at === null };
}

/** The listing has a Stripe subscription that can still charge or run (not canceled, not expired). */
export function hasOpenStripeSubscription(listing: ListingWithClaim): boolean {
  return listing.stripe_subscription_id !== null && !STRIPE_FINAL_STATUSES.includes(listing.stripe_status ?? '');
}

export class PartnerPlans {
  constructor(private readonly context: PartnerContext) {}

  /**
   * Sets the listing's plan by hand (tier null: none). Refused for an unknown or stopped listing, a claim
   * not approved (a plan needs one), and a listing with an open Stripe subscription (cancel it in billing
   * first). Returns the new state.
   */
  async setManualPlan(listingId: string, tier: PlanTier | null): Promise<PlanState> {
    const { store, now } = this.context;
    const listing = await store.transaction(function* (tables) {
      const found = yield* listingIn(tables, listingId);
      if (found.claim_status !== 'approved') throw new PartnerError('claim-not-approved', `the claim of ${listingId} is ${found.claim_status}, not approved: approve it first (approve ${found.claim_id})`);
      if (found.stopped_at !== null) throw new PartnerError('claim-not-approved', `${listingId} was stopped (its account was deleted); it takes no plan`);
      if (hasOpenStripeSubscription(found)) {
        throw new PartnerError('stripe-subscription', `${listingId} has the Stripe subscription ${found.stripe_subscription_id} (${found.stripe_status}): billing sets its plan; cancel the subscription first`);
      }
      yield* tables.setPlan(listingId, tier, 'manual', now());
      return (yield* tables.listing(listingId))!;
    });
    this.context.changed([listing.toilet_id]);
    return planOf(listing);
  }

  /**
   * What billing reports of a listing's subscription: the subscription is recorded, and the plan follows it
   * unless a manual plan runs (then `applied` is false and the tier stays). Idempotent.
   */
  async applyStripePlan(listingId: string, plan: StripePlan): Promise<{ applied: boolean; state: PlanState }> {
    const outcome = await this.context.store.transaction((tables) => this.applyStripePlanIn(tables, listingId, plan));
    this.context.changed([outcome.toilet]);
    return { applied: outcome.applied, state: outcome.state };
  }

  /** applyStripePlan inside the caller's transaction (billing's, with its event id); the caller calls `changed` with `toilet` once committed. */
  *applyStripePlanIn(tables: PartnerTables, listingId: string, plan: StripePlan): Step<{ applied: boolean; state: PlanState; toilet: string }> {
    const found = yield* listingIn(tables, listingId);
    const nowMs = this.context.now();
    yield* tables.setStripe(listingId, plan.subscriptionId, plan.status, nowMs);
    const manualRuns = found.plan_source === 'manual' && found.plan_tier !== null;
    if (!manualRuns) yield* tables.setPlan(listingId, found.stopped_at === null ? plan.tier : null, 'stripe', nowMs);
    const listing = (yield* tables.listing(listingId))!;
    return { applied: !manualRuns, state: planOf(listing), toilet: listing.toilet_id };
  }

  /** Whether the listing has a Stripe subscription not in a final state (the plan command refuses those). */
  async hasOpenStripeSubscription(listingId: string): Promise<boolean> {
    return hasOpenStripeSubscription(await this.context.store.read((tables) => listingIn(tables, listingId)));
  }
}

function* listingIn(tables: PartnerTables, listingId: string): Step<ListingWithClaim> {
  const found = yield* tables.listing(listingId);
  if (found === null) throw new PartnerError('not-found', `no partner listing has the id ${listingId}`);
  return found;
}
