// The catalogue of every problem type the service answers with (RFC 9457): one entry per slug, whose `type`
// URI is `${BASE_URL}/problems/<slug>` (a short HTML page, see problem.ts). Keyed by slug, so a reply names
// its type as a checked literal (`problems.reply('other-origin', …)`), not a free string. It lives here,
// beside the HTTP layer, so the read threads take it without any contribution code.

export interface ProblemType {
  /** Fixed title, the same for every occurrence of the type. */
  readonly title: string;
  readonly status: number;
  /** What the problem means and what a client should do, shown on the type's HTML page. */
  readonly description: string;
}

export const PROBLEM_TYPES = {
  'invalid-parameters': {
    title: 'Invalid parameters',
    status: 400,
    description: 'One or more parameters of the request are invalid. The invalid_params member lists each one with the reason; correct them and send the request again.',
  },
  'not-found': {
    title: 'Not found',
    status: 404,
    description: 'Nothing exists at this address, or the resource is gone. Check the path and the identifier.',
  },
  'method-not-allowed': {
    title: 'Method not allowed',
    status: 405,
    description: 'The resource exists but does not support this HTTP method. The Allow header lists the methods it supports.',
  },
  'bad-framing': {
    title: 'Ambiguous request framing',
    status: 400,
    description: 'The request says in two ways, or in a way that does not agree, where its body ends: several different Content-Length headers, a Content-Length that is not a number, Content-Length together with Transfer-Encoding, or a Transfer-Encoding whose last coding is not chunked. A proxy and this server could read it differently, so it is refused and the connection closed. Send one Content-Length, or Transfer-Encoding: chunked alone.',
  },
  'transfer-coding-not-implemented': {
    title: 'Transfer coding not implemented',
    status: 501,
    description: 'The request body uses a transfer coding before chunked that this server does not read; only chunked is. The connection is closed. Send the body with a Content-Length, or with Transfer-Encoding: chunked.',
  },
  'payload-too-large': {
    title: 'Payload too large',
    status: 413,
    description: 'The request body is larger than this operation accepts. Send a smaller body.',
  },
  'rate-limited': {
    title: 'Too many requests',
    status: 429,
    description: 'The client sent more requests than its rate limit allows. Wait the number of seconds in the Retry-After header (also in retry_after_seconds), then send the request again.',
  },
  'server-error': {
    title: 'Internal server error',
    status: 500,
    description: 'The server failed to answer because of a fault on its side. The request may succeed if sent again later.',
  },
  unavailable: {
    title: 'Service unavailable',
    status: 503,
    description: 'The service cannot answer right now. Wait the number of seconds in the Retry-After header (also in retry_after_seconds), then send the request again.',
  },
  'other-origin': {
    title: 'Request from another origin',
    status: 403,
    description: "Contributions are accepted only from this site's own pages: the Origin header (or, without it, Sec-Fetch-Site: same-origin) must name this service's origin.",
  },
  'origin-not-allowed': {
    title: 'Origin not allowed',
    status: 403,
    description: 'This endpoint serves browser pages only from the origins its operator listed (MCP_ALLOWED_ORIGINS). Clients that are not browser pages send no Origin header and are served.',
  },
  'human-check-failed': {
    title: 'Human check failed',
    status: 403,
    description: 'The challenge_token is missing, wrong, expired or was used before. Solve a new challenge from GET /api/v1/challenge and send its solution once.',
  },
  'contributions-off': {
    title: 'Contributions are off',
    status: 503,
    description: 'The operator has switched contributions off for now; reads still work. Wait the number of seconds in the Retry-After header, then try again.',
  },
  'daily-limit': {
    title: 'One new contributor per address and day',
    status: 429,
    description: 'Each network address may add one new rater or voter per toilet per day (UTC). People who rated or voted before may change their rating or vote at any time. Wait the number of seconds in the Retry-After header (until the next UTC day).',
  },
  'sign-in-required': {
    title: 'Sign-in required',
    status: 401,
    description: 'This operation needs a signed-in account, and the request carries no valid session (none, signed out, expired, or the account was deleted). Sign in with a passkey (startSignIn, then signIn) and send the request again.',
  },
  'reauthentication-required': {
    title: 'Re-authentication required',
    status: 401,
    description: 'This operation changes what protects the account (passkeys, sessions, deletion), so it needs a passkey sign-in from the last 5 minutes. Sign in again with a passkey (startSignIn, then signIn) and send the request again.',
  },
  'sign-in-failed': {
    title: 'Sign-in failed',
    status: 401,
    description: 'The passkey could not be verified: its challenge expired or was used already, or the passkey is not registered here or its answer is not valid. Start again with startSignIn.',
  },
  'passkey-refused': {
    title: 'Passkey not registered',
    status: 400,
    description: 'The new passkey could not be verified or registered: its challenge expired or was used already, it was made for another site, user verification was missing, or it is registered already. Start again with startPasskeyRegistration.',
  },
  'last-passkey': {
    title: 'Last passkey',
    status: 409,
    description: 'An account keeps at least one passkey, or nobody could sign in to it. Add another passkey first, or delete the account.',
  },
  'account-not-deletable': {
    title: 'Account cannot be deleted yet',
    status: 409,
    description: 'Something the account holds must be ended first, such as a running subscription; the detail names it and says how to confirm its end in the deletion request.',
  },
  'moderator-required': {
    title: 'Moderator role required',
    status: 403,
    description: 'This operation is for accounts with the moderator role, which the operator grants (npm run moderate -- moderators add). Sign in with such an account, or ask the operator.',
  },
  'moderation-refused': {
    title: 'Moderation action refused',
    status: 409,
    description: 'The moderator action cannot be done as asked, for the reason the detail gives (decided already, no such toilet or lock, a value the fact does not take). Reload the queue and act again.',
  },
  'own-claim': {
    title: 'Another moderator must decide',
    status: 409,
    description: "The signed-in moderator's own account holds a pending or approved business claim on this toilet, so they may not decide any claim on it (neither approve their own nor reject a rival's). Another moderator decides it, or the operator with npm run moderate.",
  },
  'claim-conflict': {
    title: 'Toilet already claimed',
    status: 409,
    description: 'This account already has a pending or approved claim on the toilet, or another business holds it (its claim was approved). A toilet has one partner; a rejected claim does not block a new one. listMyPartnerListings shows the account\'s claims.',
  },
  'claim-not-approved': {
    title: 'Claim not approved',
    status: 409,
    description: 'The claim this partner listing was made with is not approved (it waits for a moderator, or was rejected). listMyPartnerListings shows its status and the moderator\'s reason.',
  },
  'no-running-plan': {
    title: 'No running plan',
    status: 409,
    description: 'The partner listing has no running plan, so its profile cannot be changed: buy one (startCheckout), or wait until the payment is through.',
  },
  'metrics-forbidden': {
    title: 'Metrics are not served to this address',
    status: 403,
    description: "The service's metrics are served only to the addresses its operator allows (METRICS_ALLOW), such as the monitoring system's. Scrape them from one of those, or ask the operator.",
  },
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
} as const satisfies Record<string, ProblemType>;

export type ProblemSlug = keyof typeof PROBLEM_TYPES;
