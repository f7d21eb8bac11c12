// Whether a subscription, as read from Stripe, runs a plan, and at which tier. Running: `active`,
// `trialing`, or `past_due` for PAST_DUE_GRACE_DAYS from the start of the unpaid period; every other
// status (incomplete, incomplete_expired, unpaid, canceled, paused, past due beyond the grace) does not.
// The tier follows the price of the subscription's item (an upgrade in the portal changes it); a price
// that is not configured for a tier runs nothing (and is logged by the caller).
import type Stripe from 'stripe';
import type { BillingConfig } from './config.js';
import type { PartnerTier } from '../schemas/resources.js';

const DAY_MS = 86_400_000;

export interface SubscriptionPlan {
  tier: PartnerTier | null;
  priceId: string | null;
  /** Start of the current period (ms): a past-due grace counts from it. */
  periodStart: number | null;
  running: boolean;
}

export function tierOfPrice(config: BillingConfig, priceId: string | null): PartnerTier | null {
  if (priceId === config.prices.basic) return 'basic';
  if (priceId === config.prices.plus) return 'plus';
  return null;
}

export function statusRuns(config: BillingConfig, status: string, periodStart: number | null, nowMs: number): boolean {
  if (status === 'active' || status === 'trialing') return true;
  return status === 'past_due' && periodStart !== null && nowMs < periodStart + config.pastDueGraceDays * DAY_MS;
}

export function planOfSubscription(config: BillingConfig, subscription: Stripe.Subscription, nowMs: number): SubscriptionPlan {
  const item = subscription.items.data[0];
  const priceId = item?.price.id ?? null;
  const tier = tierOfPrice(config, priceId);
  const periodStart = item === undefined ? null : item.current_period_start * 1000;
  return { tier, priceId, periodStart, running: tier !== null && statusRuns(config, subscription.status, periodStart, nowMs) };
}
