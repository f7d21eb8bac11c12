// Why a billing operation is refused, as the one error its routes turn into a problem+json. The kind is the
// problem type (404 `not-found`: the account has no listing with the id; the others 409), so a client (the
// partner dashboard) can say each reason in its own words; the message says what to do. Stripe's failures
// are provider.ts's.
export type BillingRefusal =
  | 'not-found'
  /** the listing's claim waits for a moderator or was rejected */
  | 'claim-not-approved'
  /** the operator set the plan by hand (`npm run moderate -- plan`): not billed through Stripe */
  | 'manual-plan'
  /** startCheckout: the listing has a subscription not in a final state */
  | 'subscription-exists'
  /** openBillingPortal: no subscription, or only a canceled or expired one */
  | 'no-subscription'
  /** startCheckout: a checkout of this tier is open, or one is being made at this moment */
  | 'checkout-open'
  /** startCheckout: the open checkout was paid; the plan starts with Stripe's event */
  | 'checkout-paid';

export class BillingError extends Error {
  constructor(
    readonly kind: BillingRefusal,
    message: string,
  ) {
    super(message);
  }
}
