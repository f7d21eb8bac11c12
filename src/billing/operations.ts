// The billing operations of the registry (issue 33): the site's checkout and portal, the payment
// provider's webhook, and the checkout's cancel link outside the spec (routes.ts). the folder's slice.ts
// names them.
import { RATE_LIMIT_POLICIES, RATE_LIMITED, type FeatureSwitch, type OperationGuards, type OperationSpec, type RouteSpec, type SignedBody } from '../schemas/operations.js';
import { LISTING_ID } from '../partners/resources.js';
import { PRIVATE } from '../accounts/operations.js';
import { NO_LISTING } from '../partners/operations.js';
// the schema names its entries give are its resources.ts's (SchemaCatalogue), wherever the entries are read
import './resources.js';

const BILLING_MAX_BYTES = 4 * 1024;
/** Spec, Limits: the webhook body is at most 512 KB. */
export const WEBHOOK_MAX_BYTES = 512 * 1024;
const BILLING_INVALID_BODY = 'The body is not JSON, larger than 4 KiB, or has invalid fields; `invalid_params` lists each one.';
const BILLING_SIGNED_OUT = 'No valid session: sign in first.';
const BILLING_OTHER_ORIGIN = "The request came from another origin: billing operations are for this site's own pages.";
const PROVIDER_SILENT = 'The payment provider did not answer in time; nothing was charged or recorded. Send the request again.';
const PAYMENTS_OFF = 'Partner payments are not open (not configured on this server) or not available (the payment provider refused; the operator is told). Wait Retry-After seconds.';
/** Off while STRIPE_SECRET_KEY is unset (config.billing is null): every billing route answers 503. */
export const BILLING_SWITCH: FeatureSwitch = {
  name: 'billing',
  setting: 'billing',
  slug: 'payments-not-open',
  detail: 'Partner payments are not open on this server (its operator has not configured Stripe). Ask the operator, or try again later.',
};
/** The webhook's body is signed by Stripe (signature.ts verifies it). */
const STRIPE_SIGNATURE: SignedBody = { header: 'Stripe-Signature', description: 'Stripe\'s signature of the raw body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.' };
/** Guards of the two billing operations of the site's page. */
const BILLING_PAGE: OperationGuards = { featureSwitch: BILLING_SWITCH, origin: 'site' };

/** Partner billing (issue 33, src/billing): the site's two operations and the payment provider's webhook. */
export const BILLING_OPERATIONS = [
  {
    operationId: 'startCheckout',
    method: 'post',
    path: '/billing/checkout',
    summary: 'Buy a partner listing: the payment page',
    description:
      "Needs an approved claim. Answers the address of the payment provider's hosted checkout page for the listing and tier (monthly, net prices: the provider adds VAT). A second click while the first page is being made answers the same page. Asking for the other tier, or coming back through the page's cancel link, ends the open checkout first. The checkout expires after 30 minutes (the operator's CHECKOUT_EXPIRY_MINUTES).",
    requestBody: { schema: 'StartCheckoutRequest', maxBytes: BILLING_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: BILLING_PAGE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The checkout page to send the person to.', schema: 'HostedPageAnswer' },
    errors: {
      400: BILLING_INVALID_BODY,
      401: BILLING_SIGNED_OUT,
      403: BILLING_OTHER_ORIGIN,
      404: NO_LISTING,
      409: "The type says which: `claim-not-approved`, `manual-plan` (a plan set by the operator runs), `subscription-exists`, `checkout-open` (a checkout for the same tier is open: finish or cancel it on its page) or `checkout-paid` (the plan starts with the provider's confirmation).",
      429: RATE_LIMITED,
      502: PROVIDER_SILENT,
      503: PAYMENTS_OFF,
    },
  },
  {
    operationId: 'openBillingPortal',
    method: 'post',
    path: '/billing/portal',
    summary: "The payment provider's portal for a listing",
    description: "Answers the address of a fresh portal session (invoices, payment method, plan, cancellation) for the listing's subscription. Short-lived: ask for a new one on each click.",
    requestBody: { schema: 'OpenBillingPortalRequest', maxBytes: BILLING_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: BILLING_PAGE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The portal page to send the person to.', schema: 'HostedPageAnswer' },
    errors: {
      400: BILLING_INVALID_BODY,
      401: BILLING_SIGNED_OUT,
      403: BILLING_OTHER_ORIGIN,
      404: NO_LISTING,
      409: "The type says which: `claim-not-approved`, `manual-plan` (a plan set by the operator runs) or `no-subscription`.",
      429: RATE_LIMITED,
      502: PROVIDER_SILENT,
      503: PAYMENTS_OFF,
    },
  },
  {
    operationId: 'receiveStripeEvent',
    method: 'post',
    path: '/billing/webhook',
    summary: "The payment provider's events",
    description:
      'For Stripe only: no session, no origin check, no rate limit (Stripe sends bursts from a few addresses). The Stripe-Signature header must sign the raw body (5 minutes tolerance). The handler reads the subscription or checkout session the event names from Stripe and does not trust the body; a repeated event id changes nothing.',
    requestBody: { schema: 'WebhookEvent', maxBytes: WEBHOOK_MAX_BYTES },
    rateLimit: null,
    guards: { featureSwitch: BILLING_SWITCH, signature: STRIPE_SIGNATURE },
    cacheControl: PRIVATE,
    success: { status: 200, description: 'Received: `{"received": true}`, with `"duplicate": true` when the event id was handled before.', schema: 'WebhookAnswer' },
    errors: {
      400: 'The Stripe-Signature is missing, does not sign these exact bytes, or is older than 5 minutes; or the body is not an event.',
      413: 'The body is larger than 512 KB.',
      502: 'Stripe did not answer when the handler read the object back; the event was not recorded: Stripe sends it again.',
      503: PAYMENTS_OFF,
    },
  },
] as const satisfies readonly OperationSpec[];

/** The cancel URL of a checkout: expires the session, then shows the dashboard (routes.ts). */
export const CHECKOUT_CANCELED_PATH = '/partner/checkout-canceled';

/** The routes of billing outside the spec. */
export const BILLING_ROUTES = [
  {
    openApi: false,
    operationId: 'checkoutCanceled',
    method: 'get',
    path: CHECKOUT_CANCELED_PATH,
    summary: "The checkout page's cancel link: a top-level navigation back from Stripe; expires that checkout, then the dashboard.",
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: { featureSwitch: BILLING_SWITCH },
    // the random attempt id in the link, not the session cookie, names the checkout
    query: {
      properties: {
        listing: LISTING_ID,
        attempt: { type: 'string', pattern: '^[0-9a-f]{32}$', title: 'the checkout attempt: 32 lowercase hex digits, as the checkout page gave it' },
      },
      required: ['listing', 'attempt'],
      together: [],
    },
    cacheControl: 'no-store',
    refusals: 'problem',
  },
] as const satisfies readonly RouteSpec[];
