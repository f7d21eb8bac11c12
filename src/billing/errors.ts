// Why a billing operation is refused, as the one error its routes turn into a problem+json: `not-found`
// (404: the account has no listing with the id) or `conflict` (409: the claim, a plan, a subscription or
// a checkout stands in the way). The message says what to do. Stripe's failures are provider.ts's.
export class BillingError extends Error {
  constructor(
    readonly kind: 'not-found' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}
