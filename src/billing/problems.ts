// The problem types of partner payments (Stripe): switched off, provider trouble, plan and checkout states,
// webhook signatures.
// Data only (src/http/problem-types.ts): the read threads load it with the catalogue, src/problems.ts.
import type { ProblemTypes, SlugsOf } from '../http/problem-types.js';

export const BILLING_PROBLEMS = {
  'payments-not-open': {
    title: 'Partner payments not open',
    status: 503,
    description: 'This server takes no partner payments: its operator has not configured a payment provider. Ask the operator, or wait the number of seconds in the Retry-After header and try again.',
  },
  'payments-unavailable': {
    title: 'Partner payments not available',
    status: 503,
    description: 'The payment provider refused what this server asked of it (a setting of the operator is wrong); nothing was charged or recorded. The operator has been told in the log; wait the number of seconds in the Retry-After header and try again.',
  },
  'provider-unreachable': {
    title: 'Payment provider did not answer',
    status: 502,
    description: 'The payment provider did not answer in time; nothing was charged or recorded. Send the request again in a moment (the provider resends its own events by itself).',
  },
  'manual-plan': {
    title: 'Plan set by the operator',
    status: 409,
    description: 'The operator of this site set the partner listing’s plan by hand: it is not billed through the payment provider, so it can be neither bought nor managed there. Ask the operator to end it first.',
  },
  'subscription-exists': {
    title: 'Subscription exists',
    status: 409,
    description: 'The partner listing has a subscription that is not canceled or expired (it may be running, or waiting for a payment). Change, renew or cancel it in the payment provider’s portal (openBillingPortal) instead of buying another.',
  },
  'no-subscription': {
    title: 'No subscription',
    status: 409,
    description: 'The partner listing has no subscription to manage (none was bought, or it was canceled). Buy a plan first (startCheckout).',
  },
  'checkout-open': {
    title: 'Checkout open',
    status: 409,
    description: 'A checkout page for this listing and tier is open (or being made at this moment). Finish or cancel it on the payment page; asking for the other tier ends it, and it expires by itself after CHECKOUT_EXPIRY_MINUTES.',
  },
  'checkout-paid': {
    title: 'Checkout paid',
    status: 409,
    description: 'The listing’s checkout is paid: the plan starts as soon as the payment provider confirms it to this server. Reload the listing (listMyPartnerListings) in a moment.',
  },
  'invalid-signature': {
    title: 'Invalid webhook signature',
    status: 400,
    description: "The payment provider's signature header is missing, does not match the exact bytes of the body with this endpoint's signing secret, or is older than 5 minutes. Only the payment provider sends events here.",
  },
} as const satisfies ProblemTypes;

declare module '../http/problem-types.js' {
  interface ProblemCatalogue extends SlugsOf<typeof BILLING_PROBLEMS> {}
}
