// The operations the service serves, one entry each: the router, the guards (src/api/guards.ts) and the
// OpenAPI document read them from here. Serving another operation of the spec (submitToilet, claimToilet, ...) is one more
// entry; its body schemas are already in resources.ts.

import { QUERY_PARAMS, paramsObjectSchema, type QueryOperation } from './params.js';
import type { JsonSchema } from './refs.js';
import { LISTING_ID, TOILET_ID, type SchemaName } from './resources.js';
import { SESSION_ID } from './account-resources.js';

/** The REST interface lives under this path of {base_url}; the version is part of it. */
export const API_PREFIX = '/api/v1';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503;

export interface RateLimitPolicy {
  /** Policy name in the RateLimit and RateLimit-Policy headers. */
  readonly name: string;
  readonly quota: number;
  readonly windowSeconds: number;
}

/** Spec, Limits: 60 requests per minute per IP for REST and MCP; listToiletsInArea has its own 300. */
export const RATE_LIMIT_POLICIES = {
  perIp: { name: 'per-ip', quota: 60, windowSeconds: 60 },
  areaPerIp: { name: 'area-per-ip', quota: 300, windowSeconds: 60 },
  /** The basemap (/tiles/): a map view loads 10–30 tiles, so they have a budget of their own, not the API's. */
  tilesPerIp: { name: 'tiles-per-ip', quota: 1200, windowSeconds: 60 },
  /** The site's overview of the coverage (src/overview): a map move asks up to ~30 of its tiles and a few titles. */
  overviewPerIp: { name: 'overview-per-ip', quota: 1200, windowSeconds: 60 },
  /** Sign-in and registration attempts (src/accounts): few, so a stolen cookie or an enumeration script gets nowhere fast. */
  accountsPerIp: { name: 'accounts-per-ip', quota: 10, windowSeconds: 60 },
  /** OAuth client registrations (src/oauth): a budget of their own, so registering never spends the sign-in one. */
  registrationPerIp: { name: 'registration-per-ip', quota: 10, windowSeconds: 60 },
} as const satisfies Record<string, RateLimitPolicy>;

/** The RateLimit-Policy header value of a policy, e.g. `"per-ip";q=60;w=60` (draft-ietf-httpapi-ratelimit-headers-10). */
export function rateLimitPolicyHeader(policy: RateLimitPolicy): string {
  return `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`;
}

/**
 * The session cookie (security scheme `session`): `__Host-session` when BASE_URL is https (the browser then
 * takes it only over https, for this host alone, on path /), plain `session` on an http development server.
 */
export function sessionCookieName(baseUrl: string): string {
  return baseUrl.startsWith('https:') ? '__Host-session' : 'session';
}

/** An operator's switch that can turn a group of operations off (503 with Retry-After); see Config. */
export type FeatureSwitch = 'contributions' | 'billing';

/**
 * What an operation needs checked besides its rate limit (`rateLimit`), body limit (`requestBody.maxBytes`)
 * and security scheme (`security`). src/api/guards.ts runs every check in its one order.
 */
export interface OperationGuards {
  /** The switch that must be on, else 503. */
  readonly featureSwitch?: FeatureSwitch;
  /**
   * `site`: only this site's pages may send it (Origin, or without one Sec-Fetch-Site: same-origin), else 403.
   * `listed`: a browser page (a request with Origin) only from the hostnames in MCP_ALLOWED_ORIGINS, when
   * the operator set them; requests without Origin are not from pages and pass.
   */
  readonly origin?: 'site' | 'listed';
  /** A solved human-check `challenge_token` in the body unless an account is signed in, else 403. */
  readonly humanCheck?: true;
  /**
   * `optional`: the session cookie is read when sent (a signed-in account then needs no human check); an
   * operation with `security: 'session'` requires one (401 without).
   */
  readonly session?: 'optional';
  /** With `security: 'session'`: a passkey assertion of the last 5 minutes, else 401 reauthentication-required. */
  readonly recentPasskey?: true;
  /** With `security: 'session'`: the account must hold this role (granted by the operator), else 403. */
  readonly role?: 'moderator';
  /** `stripe`: the body must carry a valid Stripe-Signature over its raw bytes, else 400 (the webhook). */
  readonly signature?: 'stripe';
}

export interface OperationSpec {
  /** Exactly the spec's operationId. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Under API_PREFIX, with `{name}` for path parameters. */
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly pathParams?: { readonly [name: string]: JsonSchema };
  /** Key of the query parameter set in params.ts. */
  readonly query?: QueryOperation;
  readonly requestBody?: { readonly schema: SchemaName; readonly maxBytes?: number };
  /** Security scheme the operation names; reads name none. */
  readonly security?: 'session';
  /** null for operations exempt from rate limiting (the payment provider's webhook). */
  readonly rateLimit: RateLimitPolicy | null;
  readonly guards?: OperationGuards;
  /** Cache-Control value of success answers, where the spec asks for one (or revalidation needs one). */
  readonly cacheControl?: string;
  /**
   * Success answers carry a strong ETag of their exact bytes, and a request whose If-None-Match names it is
   * answered 304 (counted toward the rate limit like any answer): our extension of the spec's status list.
   */
  readonly conditional?: true;
  readonly success: { readonly status: 200 | 201; readonly description: string; readonly schema: SchemaName };
  /** Every error status the operation answers, with what it means here. */
  readonly errors: { readonly [S in ErrorStatus]?: string };
}

const RATE_LIMITED = 'Rate limit reached; wait Retry-After seconds, then resend.';
const SERVER_ERROR = 'Server error.';
const SITE_PAGE =
  "For this site's own web page only (Origin must be the site's). Send `challenge_token`, a solved human-check challenge from GET /api/v1/challenge, used once; a signed-in account (session cookie) needs none.";
/** Contribution bodies larger than this answer 400. */
const CONTRIBUTION_MAX_BYTES = 16 * 1024;
const INVALID_BODY = 'The body is not JSON, larger than 16 KiB, or has invalid fields; `invalid_params` lists each one.';
const FORBIDDEN = 'The request came from another origin, or the human check failed (missing, wrong, expired or reused challenge_token).';
const NO_TOILET = 'No toilet has the id, or a moderator marked it gone.';
const CONTRIBUTIONS_OFF = 'Contributions are switched off; wait Retry-After seconds.';
/** The guards of the five contribution operations (spec, Authentication 5 and 6). */
const SITE_PAGE_GUARDS: OperationGuards = { featureSwitch: 'contributions', origin: 'site', session: 'optional', humanCheck: true };

const ACCOUNT_MAX_BYTES = 32 * 1024;
const ACCOUNT_INVALID_BODY = 'The body is not JSON, larger than 32 KiB, or has invalid fields; `invalid_params` lists each one.';
const OTHER_ORIGIN = "The request came from another origin: account operations are for this site's own pages.";
const SIGNED_OUT = 'No valid session: sign in first (the cookie is missing, expired or ended, or the account was deleted).';
const NOT_RECENT = `${SIGNED_OUT} Or the last passkey sign-in of this session is more than 5 minutes old: sign in again, then resend.`;
const ATTEMPTS_LIMITED = 'Too many sign-in or registration attempts from this address (10 a minute); wait Retry-After seconds.';
/** Account answers are personal: never stored by a cache. */
const PRIVATE = 'no-store';
/** Guards of the account operations that change something: the site's pages only. */
const ACCOUNT_WRITE: OperationGuards = { origin: 'site' };
const SENSITIVE: OperationGuards = { origin: 'site', recentPasskey: true };

/** The account operations (issue 31): passkeys, sessions, the account itself. Paths are ours, stable and documented in README. */
const ACCOUNT_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'startPasskeyRegistration',
    method: 'post',
    path: '/account/passkey-options',
    summary: 'Options to create a passkey',
    description:
      'Signed out with `display_name`: the options for the first passkey of a new account (then createAccount). Signed in: for another passkey of the account (then addPasskey), which, like addPasskey, needs a passkey sign-in from the last 5 minutes (asked here, before the authenticator makes a passkey). With `recovery_token`: for a new passkey of the account an operator recovery link names (then recoverAccount). The options hold a challenge valid once, for 5 minutes.',
    requestBody: { schema: 'StartPasskeyRegistrationRequest', maxBytes: ACCOUNT_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.accountsPerIp,
    guards: { origin: 'site', session: 'optional' },
    cacheControl: PRIVATE,
    success: { status: 200, description: 'WebAuthn creation options.', schema: 'PasskeyCreationOptions' },
    errors: { 400: `${ACCOUNT_INVALID_BODY} Also: display_name is missing (signed out), or the recovery link is unknown, used or expired.`, 401: 'Signed in, for another passkey: the last passkey sign-in of this session is more than 5 minutes old; sign in again, then resend.', 403: OTHER_ORIGIN, 429: ATTEMPTS_LIMITED, 503: 'The accounts database cannot be written now; wait Retry-After seconds.' },
  },
  {
    operationId: 'createAccount',
    method: 'post',
    path: '/account',
    summary: 'Create an account with a passkey',
    description: 'Answers the options of startPasskeyRegistration with the new passkey, with a solved `challenge_token`. Signs in: the answer sets the session cookie.',
    requestBody: { schema: 'CreateAccountRequest', maxBytes: ACCOUNT_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.accountsPerIp,
    guards: { origin: 'site', humanCheck: true },
    cacheControl: PRIVATE,
    success: { status: 201, description: 'The account, signed in (Set-Cookie).', schema: 'Account' },
    errors: {
      400: `${ACCOUNT_INVALID_BODY} Or the passkey was refused (challenge expired or used, other origin or RP ID, no user verification, registered already).`,
      403: 'The request came from another origin, or the human check failed.',
      429: ATTEMPTS_LIMITED,
      503: 'The accounts database cannot be written now; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'getAccount',
    method: 'get',
    path: '/account',
    summary: 'The signed-in account',
    description: 'Never cached, never shared with other origins.',
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The account.', schema: 'Account' },
    errors: { 401: SIGNED_OUT, 429: RATE_LIMITED },
  },
  {
    operationId: 'deleteAccount',
    method: 'delete',
    path: '/account',
    summary: 'Delete the signed-in account',
    description:
      'Deletes the account, its passkeys and every session; its ratings and votes stay counted under a pseudonym linked to nothing. Needs a passkey sign-in from the last 5 minutes. Send `{}`, or `{"confirm_cancellation": true}` to end with it what would otherwise keep it (409).',
    requestBody: { schema: 'DeleteAccountRequest', maxBytes: ACCOUNT_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SENSITIVE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'Deleted; the answer removes the session cookie.', schema: 'AccountDeleted' },
    errors: {
      400: ACCOUNT_INVALID_BODY,
      401: NOT_RECENT,
      403: OTHER_ORIGIN,
      409: 'Something the account holds must end first (a running subscription): the detail names it; resend with confirm_cancellation true.',
      429: RATE_LIMITED,
      503: 'The accounts database cannot be written now; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'listPasskeys',
    method: 'get',
    path: '/account/passkeys',
    summary: 'The passkeys of the signed-in account',
    description: 'Name, created and last used. Never cached, never shared with other origins.',
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The passkeys.', schema: 'PasskeyList' },
    errors: { 401: SIGNED_OUT, 429: RATE_LIMITED },
  },
  {
    operationId: 'addPasskey',
    method: 'post',
    path: '/account/passkeys',
    summary: 'Add a passkey to the signed-in account',
    description: 'Answers the options startPasskeyRegistration gave this session. Needs a passkey sign-in from the last 5 minutes. The answer counts the other sessions, to offer ending them.',
    requestBody: { schema: 'AddPasskeyRequest', maxBytes: ACCOUNT_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.accountsPerIp,
    guards: SENSITIVE,
    cacheControl: PRIVATE,
    success: { status: 201, description: 'The passkey is registered.', schema: 'PasskeyAdded' },
    errors: {
      400: `${ACCOUNT_INVALID_BODY} Or the passkey was refused (challenge expired or used, other origin or RP ID, no user verification, registered already).`,
      401: NOT_RECENT,
      403: OTHER_ORIGIN,
      429: ATTEMPTS_LIMITED,
      503: 'The accounts database cannot be written now; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'removePasskey',
    method: 'delete',
    path: '/account/passkeys/{passkey}',
    summary: 'Remove a passkey of the signed-in account',
    description: 'Never the last one. Needs a passkey sign-in from the last 5 minutes. The answer counts the other sessions, to offer ending them.',
    pathParams: { passkey: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,1400}$', title: 'a credential id (base64url) from listPasskeys' } },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SENSITIVE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The passkey is removed.', schema: 'PasskeyRemoved' },
    errors: { 401: NOT_RECENT, 403: OTHER_ORIGIN, 404: 'The account has no passkey with this id.', 409: 'It is the last passkey of the account.', 429: RATE_LIMITED, 503: 'The accounts database cannot be written now; wait Retry-After seconds.' },
  },
  {
    operationId: 'listSessions',
    method: 'get',
    path: '/account/sessions',
    summary: 'The signed-in sessions of the account',
    description: 'Each with its id (not its secret), when it signed in and was last used, a coarse device label, and whether it is this one. Never cached, never shared with other origins.',
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The sessions, the last used first.', schema: 'SessionList' },
    errors: { 401: SIGNED_OUT, 429: RATE_LIMITED },
  },
  {
    operationId: 'endSession',
    method: 'delete',
    path: '/account/sessions/{session}',
    summary: 'End one session of the account',
    description: 'Signs that session out (a lost or shared device). Ending this very session signs out here too (the answer removes the cookie). Needs a passkey sign-in from the last 5 minutes.',
    pathParams: { session: SESSION_ID },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SENSITIVE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The session is ended.', schema: 'SessionEnded' },
    errors: { 401: NOT_RECENT, 403: OTHER_ORIGIN, 404: 'The account has no session with this id (it may have ended already).', 429: RATE_LIMITED, 503: 'The accounts database cannot be written now; wait Retry-After seconds.' },
  },
  {
    operationId: 'signOutEverywhere',
    method: 'delete',
    path: '/account/sessions',
    summary: 'End every other session of the account, and with connections=all its connected apps',
    description:
      'This session stays. With `connections=all` every connected app of the account (OAuth grant of /mcp/account) ends too: its access and refresh tokens stop at once and its event subscriptions are sent `terminated`. The answer says how many of each ended. Needs a passkey sign-in from the last 5 minutes.',
    query: 'signOutEverywhere',
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SENSITIVE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The other sessions are ended (and the connected apps, with connections=all).', schema: 'SessionsEnded' },
    errors: { 400: 'connections is something other than `all`; `invalid_params` says so.', 401: NOT_RECENT, 403: OTHER_ORIGIN, 429: RATE_LIMITED, 503: 'The accounts database cannot be written now; wait Retry-After seconds.' },
  },
  {
    operationId: 'recoverAccount',
    method: 'post',
    path: '/account/recovery',
    summary: 'Register a new passkey with an operator recovery link',
    description:
      "For a person who lost every passkey: the operator's recovery link (`npm run moderate -- accounts recovery-link`, single use, 15 minutes) carries `recovery_token`. Answers the options startPasskeyRegistration gave for it; ends the account's other sessions and signs in (Set-Cookie).",
    requestBody: { schema: 'RecoverAccountRequest', maxBytes: ACCOUNT_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.accountsPerIp,
    guards: ACCOUNT_WRITE,
    cacheControl: PRIVATE,
    success: { status: 201, description: 'The passkey is registered and the account signed in.', schema: 'Account' },
    errors: {
      400: `${ACCOUNT_INVALID_BODY} Or the recovery link is unknown, used or expired, or the passkey was refused.`,
      403: OTHER_ORIGIN,
      429: ATTEMPTS_LIMITED,
      503: 'The accounts database cannot be written now; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'startSignIn',
    method: 'post',
    path: '/session/options',
    summary: 'Options to sign in with a passkey',
    description: 'Discoverable credentials: no user name needed, and the browser can offer passkeys in the autofill of a field with autocomplete="username webauthn". The options hold a challenge valid once, for 5 minutes.',
    rateLimit: RATE_LIMIT_POLICIES.accountsPerIp,
    guards: ACCOUNT_WRITE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'WebAuthn request options.', schema: 'PasskeyRequestOptions' },
    errors: { 403: OTHER_ORIGIN, 429: ATTEMPTS_LIMITED, 503: 'The accounts database cannot be written now; wait Retry-After seconds.' },
  },
  {
    operationId: 'signIn',
    method: 'post',
    path: '/session',
    summary: 'Sign in with a passkey',
    description: 'Answers the options of startSignIn. Starts a new session (Set-Cookie) and ends the one the request carried, if any.',
    requestBody: { schema: 'SignInRequest', maxBytes: ACCOUNT_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.accountsPerIp,
    guards: ACCOUNT_WRITE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The account, signed in (Set-Cookie).', schema: 'Account' },
    errors: {
      400: ACCOUNT_INVALID_BODY,
      401: 'The passkey was not verified: challenge expired or used, unknown passkey, wrong signature, origin or RP ID, no user verification, or a signature counter that went back.',
      403: OTHER_ORIGIN,
      429: ATTEMPTS_LIMITED,
      503: 'The accounts database cannot be written now; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'signOut',
    method: 'delete',
    path: '/session',
    summary: 'Sign out',
    description: 'Ends the session the request carries and removes its cookie; answers the same when there is none.',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: ACCOUNT_WRITE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'Signed out.', schema: 'SignedOut' },
    errors: { 403: OTHER_ORIGIN, 429: RATE_LIMITED, 503: 'The accounts database cannot be written now; wait Retry-After seconds.' },
  },
];

const NOT_MODERATOR = 'The signed-in account does not hold the moderator role (the operator grants it: npm run moderate -- moderators add).';

/**
 * The moderator queue of the site (issue 31): what `npm run moderate` lists and does, through the one
 * moderation module (src/community/moderation.ts), for accounts with the moderator role.
 */
const MODERATION_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'listModerationQueue',
    method: 'get',
    path: '/moderation/queue',
    summary: 'The moderator queue',
    description: 'Pending submissions (with the toilets listed within 100 m), open reports (with the toilet and its other open reports), toilets most voters call gone, pending business claims (with the toilet, the contact details and the other claims on it), the locks in force, and the latest 20 actions: what `npm run moderate -- list` and `log` show. Never cached, never shared with other origins.',
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: { role: 'moderator' },
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The queue.', schema: 'ModerationQueue' },
    errors: { 401: SIGNED_OUT, 403: NOT_MODERATOR, 429: RATE_LIMITED },
  },
  {
    operationId: 'moderate',
    method: 'post',
    path: '/moderation/actions',
    summary: 'Act on the moderator queue',
    description:
      'One action of `npm run moderate`, with the same effect and the same entry in the moderation log (plus the moderator\'s account id): `approve` or `reject` a `target` (sub_<n>, rep_<n>, or a business claim clm_..., whose approval may correct the business `name`); `lock` a `fact` of `toilet_id` to `value`; `unlock` it; mark `toilet_id` `gone`. Each needs a `reason`. Needs a passkey sign-in from the last 5 minutes.',
    requestBody: { schema: 'ModerationActionRequest', maxBytes: ACCOUNT_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: { origin: 'site', role: 'moderator', recentPasskey: true },
    cacheControl: PRIVATE,
    success: { status: 200, description: 'Done, in the words of the command line.', schema: 'ModerationActionDone' },
    errors: {
      400: `${ACCOUNT_INVALID_BODY} Also: a field the action needs is missing.`,
      401: NOT_RECENT,
      403: `${OTHER_ORIGIN} Or: ${NOT_MODERATOR}`,
      409: 'The action is refused as the command line would refuse it (the submission, report or claim was decided already, another claim on the toilet is approved, no such toilet, no such lock, a value the fact does not take): the detail says why. Or (type own-claim) the moderator\'s own account holds a claim on the toilet, so another moderator must decide its claims.',
      429: RATE_LIMITED,
      503: 'The overlay database cannot be written now; wait Retry-After seconds.',
    },
  },
];

const PARTNER_MAX_BYTES = 16 * 1024;
const PARTNER_INVALID_BODY = 'The body is not JSON, larger than 16 KiB, or has invalid fields; `invalid_params` lists each one.';
const PARTNER_WRITE: OperationGuards = { origin: 'site' };
const NO_LISTING = 'The account has no partner listing with the id.';

/** Business claims and partner listings (issue 32): the spec's two operations and the owner's list. */
const PARTNER_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'listMyPartnerListings',
    method: 'get',
    path: '/partner/listings',
    summary: "The signed-in account's claims and partner listings",
    description:
      'Each listing with its claim (status, the moderator\'s reason), the toilet (id, name, whether it is still on the map), the plan (tier, source, running), the profile, whether the partner object shows now, and for a running Plus plan the monthly figures (how often the toilet was shown in answers and opened, this month and the 12 before it). The partner dashboard and the account MCP tool `get_my_partner_listings` read the same. Never cached.',
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The listings, oldest first.', schema: 'PartnerListingList' },
    errors: { 401: SIGNED_OUT, 429: RATE_LIMITED },
  },
  {
    operationId: 'claimToilet',
    method: 'post',
    path: '/toilets/{id}/claims',
    summary: 'Claim a toilet for a business',
    description:
      "For this site's own page, signed in. Saves a claim that waits for a moderator and makes its partner listing (`pl_...`, see listMyPartnerListings) at once. `website` must be an http or https address. Contact details reach moderators only. A rejected claim does not block a new one.",
    pathParams: { id: TOILET_ID },
    requestBody: { schema: 'ClaimToiletRequest', maxBytes: PARTNER_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PARTNER_WRITE,
    cacheControl: PRIVATE,
    success: { status: 201, description: 'Saved; waits for a moderator.', schema: 'ClaimToiletAnswer' },
    errors: {
      400: PARTNER_INVALID_BODY,
      401: SIGNED_OUT,
      403: OTHER_ORIGIN,
      404: NO_TOILET,
      409: 'This account already has a pending or approved claim on the toilet, or another business holds it.',
      429: RATE_LIMITED,
      503: 'The accounts database cannot be written now; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'updatePartnerProfile',
    method: 'patch',
    path: '/partner/listings/{id}',
    summary: "Change a partner listing's conditions, hours or live switch",
    description:
      "For this site's own page, signed in as the listing's owner, with an approved claim and a running plan. Send any of the keys. `opening_hours` is checked with the same evaluator as the map data's (an empty string or null clears it); `open_now` false closes the toilet for 12 hours (`closed_until`), true ends the closure at once. These are the business's statements: they never change result order, nor the toilet's own access, opening_hours or open_now.",
    pathParams: { id: LISTING_ID },
    requestBody: { schema: 'UpdatePartnerProfileRequest', maxBytes: PARTNER_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PARTNER_WRITE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The profile after the change.', schema: 'PartnerProfileAnswer' },
    errors: {
      400: `${PARTNER_INVALID_BODY} Also: opening_hours the evaluator cannot read.`,
      401: SIGNED_OUT,
      403: OTHER_ORIGIN,
      404: NO_LISTING,
      409: 'The claim is not approved, or the listing has no running plan.',
      429: RATE_LIMITED,
      503: 'The accounts database cannot be written now; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'checkPartnerHours',
    method: 'post',
    path: '/partner/listings/{id}/hours-check',
    summary: 'Check business hours before saving them',
    description:
      "For this site's own page, signed in as the listing's owner (the partner dashboard checks the hours field with it as the person leaves it). Runs exactly the validation updatePartnerProfile runs on `opening_hours` (400 naming the fault) and answers what the partner label would say with these hours now, the live switch aside. Changes nothing.",
    pathParams: { id: LISTING_ID },
    requestBody: { schema: 'PartnerHoursCheckRequest', maxBytes: PARTNER_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PARTNER_WRITE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The hours can be saved; what the label would say with them now.', schema: 'PartnerHoursCheck' },
    errors: {
      400: `${PARTNER_INVALID_BODY} Also: opening_hours the evaluator cannot read.`,
      401: SIGNED_OUT,
      403: OTHER_ORIGIN,
      404: NO_LISTING,
      429: RATE_LIMITED,
    },
  },
];

const BILLING_MAX_BYTES = 4 * 1024;
/** Spec, Limits: the webhook body is at most 512 KB. */
export const WEBHOOK_MAX_BYTES = 512 * 1024;
const BILLING_INVALID_BODY = 'The body is not JSON, larger than 4 KiB, or has invalid fields; `invalid_params` lists each one.';
const BILLING_SIGNED_OUT = 'No valid session: sign in first.';
const BILLING_OTHER_ORIGIN = "The request came from another origin: billing operations are for this site's own pages.";
const PROVIDER_SILENT = 'The payment provider did not answer in time; nothing was charged or recorded. Send the request again.';
const PAYMENTS_OFF = 'Partner payments are not open (not configured on this server) or not available (the payment provider refused; the operator is told). Wait Retry-After seconds.';
/** Guards of the two billing operations of the site's page. */
const BILLING_PAGE: OperationGuards = { featureSwitch: 'billing', origin: 'site' };

/** Partner billing (issue 33, src/billing): the site's two operations and the payment provider's webhook. */
const BILLING_OPERATIONS: readonly OperationSpec[] = [
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
    guards: { featureSwitch: 'billing', signature: 'stripe' },
    cacheControl: PRIVATE,
    success: { status: 200, description: 'Received: `{"received": true}`, with `"duplicate": true` when the event id was handled before.', schema: 'WebhookAnswer' },
    errors: {
      400: 'The Stripe-Signature is missing, does not sign these exact bytes, or is older than 5 minutes; or the body is not an event.',
      413: 'The body is larger than 512 KB.',
      502: 'Stripe did not answer when the handler read the object back; the event was not recorded: Stripe sends it again.',
      503: PAYMENTS_OFF,
    },
  },
];

/** Listed so that fixed paths come before templated ones (`/toilets/nearest` before `/toilets/{id}`). */
export const OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'findToiletsNear',
    method: 'get',
    path: '/toilets/nearest',
    summary: 'Find the toilets nearest to a place or coordinate',
    description:
      'Send `place`, or `lat` and `lon`. Without either the answer is 200 with status `needs_location`; an unresolved place gives 200 with status `place_not_found`. Results are sorted by distance, nearest first. Show the attribution.',
    query: 'findToiletsNear',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    cacheControl: 'public, max-age=60',
    success: { status: 200, description: 'The nearest toilets, or a question to put to the user.', schema: 'FindResult' },
    errors: {
      400: 'A parameter is invalid; `invalid_params` lists each one.',
      429: RATE_LIMITED,
      500: SERVER_ERROR,
      503: 'The place lookup or the database is unavailable; wait Retry-After seconds. Sending lat and lon still works when only the place lookup failed.',
    },
  },
  {
    operationId: 'listToiletsInArea',
    method: 'get',
    path: '/toilets',
    summary: 'List the toilets in a map box',
    description: 'Returns all toilets in the box, those nearest to its centre first. Has its own rate limit of 300 requests per minute per IP. Show the attribution.',
    query: 'listToiletsInArea',
    rateLimit: RATE_LIMIT_POLICIES.areaPerIp,
    cacheControl: 'public, max-age=300',
    conditional: true,
    success: { status: 200, description: 'The toilets in the box.', schema: 'AreaResult' },
    errors: {
      400: 'A parameter is invalid or the box is too large; `invalid_params` lists each one.',
      429: RATE_LIMITED,
      500: SERVER_ERROR,
      503: 'The database is unavailable; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'getToilet',
    method: 'get',
    path: '/toilets/{id}',
    summary: 'Fetch one toilet by id',
    description: 'Show the attribution. Beside `toilet`, `details` carries what the map data says beyond the result item (key systems, Changing Places, changing table, wheelchair details, hand washing, water, showers, floor), when it says anything.',
    pathParams: { id: TOILET_ID },
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    // Contributions show in the very next answer: a cache keeps the answer but asks (If-None-Match) each time.
    cacheControl: 'no-cache',
    conditional: true,
    success: { status: 200, description: 'The toilet.', schema: 'ToiletAnswer' },
    errors: {
      404: 'No toilet has the id, or a moderator marked it gone.',
      429: RATE_LIMITED,
      500: SERVER_ERROR,
      503: 'The database is unavailable; wait Retry-After seconds.',
    },
  },
  {
    operationId: 'submitToilet',
    method: 'post',
    path: '/submissions',
    summary: 'Propose a toilet',
    description: `${SITE_PAGE} A moderator reviews the proposal before it goes live; once approved it is toilet \`c_<n>\` with source \`community\`.`,
    requestBody: { schema: 'SubmitToiletRequest', maxBytes: CONTRIBUTION_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SITE_PAGE_GUARDS,
    success: { status: 201, description: 'Saved; waits for a moderator: `{"id": "sub_<n>", "status": "pending"}`.', schema: 'CreatedAnswer' },
    errors: { 400: INVALID_BODY, 403: FORBIDDEN, 429: RATE_LIMITED, 503: CONTRIBUTIONS_OFF },
  },
  {
    operationId: 'confirmToilet',
    method: 'post',
    path: '/toilets/{id}/confirmations',
    summary: 'Confirm that a toilet exists as shown',
    description: `${SITE_PAGE} One confirmation per toilet and address per UTC day; a second one the same day answers 201 with the count unchanged.`,
    pathParams: { id: TOILET_ID },
    requestBody: { schema: 'ConfirmToiletRequest', maxBytes: CONTRIBUTION_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SITE_PAGE_GUARDS,
    success: { status: 201, description: 'Counted; `confirmations` counts the last 12 months.', schema: 'ConfirmToiletAnswer' },
    errors: { 400: INVALID_BODY, 403: FORBIDDEN, 404: NO_TOILET, 429: RATE_LIMITED, 503: CONTRIBUTIONS_OFF },
  },
  {
    operationId: 'rateToilet',
    method: 'post',
    path: '/toilets/{id}/ratings',
    summary: 'Rate the cleanliness of a toilet',
    description: `${SITE_PAGE} One rating per person (the signed-in account, else device_id) and toilet; the latest counts. One address (an IPv6 one by its /64) adds one new rater per toilet per UTC day (429 until the next day); people who rated before may change their rating.`,
    pathParams: { id: TOILET_ID },
    requestBody: { schema: 'RateToiletRequest', maxBytes: CONTRIBUTION_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SITE_PAGE_GUARDS,
    success: { status: 201, description: 'Counted.', schema: 'RateToiletAnswer' },
    errors: { 400: INVALID_BODY, 403: FORBIDDEN, 404: NO_TOILET, 429: `${RATE_LIMITED} Also: this address already added a new rater to this toilet today.`, 503: CONTRIBUTIONS_OFF },
  },
  {
    operationId: 'reportToilet',
    method: 'post',
    path: '/toilets/{id}/reports',
    summary: 'Report a problem with a toilet',
    description: `${SITE_PAGE} The report waits for a moderator; while it is open the toilet's verification_state is \`disputed\`.`,
    pathParams: { id: TOILET_ID },
    requestBody: { schema: 'ReportToiletRequest', maxBytes: CONTRIBUTION_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SITE_PAGE_GUARDS,
    success: { status: 201, description: 'Saved; waits for a moderator: `{"id": "rep_<n>", "status": "pending"}`.', schema: 'CreatedAnswer' },
    errors: { 400: INVALID_BODY, 403: FORBIDDEN, 404: NO_TOILET, 429: RATE_LIMITED, 503: CONTRIBUTIONS_OFF },
  },
  {
    operationId: 'correctToilet',
    method: 'post',
    path: '/toilets/{id}/votes',
    summary: 'Vote on facts of a toilet',
    description:
      `${SITE_PAGE} Each person (the signed-in account, else device_id) has one vote per fact; the latest counts. A voted value replaces the shown value when it has more than half of all votes of the last 24 months and at least 2; the source value counts as one vote; on a tie the shown value stays. One address adds one new voter per toilet per UTC day. Votes for existence \`gone\` never hide a toilet; a moderator decides.`,
    pathParams: { id: TOILET_ID },
    requestBody: { schema: 'CorrectToiletRequest', maxBytes: CONTRIBUTION_MAX_BYTES },
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: SITE_PAGE_GUARDS,
    success: {
      status: 201,
      description: 'Counted: `{"id": "<toilet id>", "attributes": {"<fact>": {"value": "<value now shown or null>", "decided": <provenance.decided entry>}}}`.',
      schema: 'CreatedAnswer',
    },
    errors: { 400: INVALID_BODY, 403: FORBIDDEN, 404: NO_TOILET, 429: `${RATE_LIMITED} Also: this address already added a new voter to this toilet today.`, 503: CONTRIBUTIONS_OFF },
  },
  ...ACCOUNT_OPERATIONS,
  ...PARTNER_OPERATIONS,
  ...MODERATION_OPERATIONS,
  ...BILLING_OPERATIONS,
];

export function fullPath(operation: OperationSpec): string {
  return `${API_PREFIX}${operation.path}`;
}

export function operationById(operationId: string): OperationSpec {
  const operation = OPERATIONS.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`the service does not serve ${operationId}`);
  return operation;
}

/**
 * Path and query parameters of an operation as one object schema with typed values (MCP tools take
 * their arguments this way; `selfContainedSchema(operation.success.schema)` is the matching output).
 */
export function inputSchemaOf(operation: OperationSpec): JsonSchema {
  const query = operation.query ? QUERY_PARAMS[operation.query] : { properties: {}, required: [], together: [] };
  const path = operation.pathParams ?? {};
  return paramsObjectSchema({
    properties: { ...path, ...query.properties },
    required: [...Object.keys(path), ...query.required],
    together: query.together,
  });
}
