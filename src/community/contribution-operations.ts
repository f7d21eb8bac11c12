// The five contribution operations of the registry (spec, Contributions): proposals, confirmations,
// ratings, reports and corrections from the site's pages, and the human-check challenge they need, a route
// outside the spec (routes.ts). slice.ts names them.
import { API_PREFIX, RATE_LIMIT_POLICIES, RATE_LIMITED, NO_TOILET, type FeatureSwitch, type OperationGuards, type OperationSpec, type RouteSpec } from '../schemas/operations.js';
import { TOILET_ID } from '../schemas/resources.js';
// the schema names its entries give are its resources.ts's (SchemaCatalogue), wherever the entries are read
import './resources.js';

const SITE_PAGE =
  "For this site's own web page only (Origin must be the site's). Send `challenge_token`, a solved human-check challenge from GET /api/v1/challenge, used once; a signed-in account (session cookie) needs none.";
/** Contribution bodies larger than this answer 400. */
const CONTRIBUTION_MAX_BYTES = 16 * 1024;
const INVALID_BODY = 'The body is not JSON, larger than 16 KiB, or has invalid fields; `invalid_params` lists each one.';
const FORBIDDEN = 'The request came from another origin, or the human check failed (missing, wrong, expired or reused challenge_token).';
const CONTRIBUTIONS_OFF = 'Contributions are switched off; wait Retry-After seconds.';
/** CONTRIBUTIONS_ENABLED=false turns the contributions (and their challenge) off; reads go on. */
export const CONTRIBUTIONS_SWITCH: FeatureSwitch = {
  name: 'contributions',
  setting: 'contributionsEnabled',
  slug: 'contributions-off',
  detail: 'Contributions are switched off for now; reads still work. Try again later.',
};
/** The guards of the five contribution operations (spec, Authentication 5 and 6). */
const SITE_PAGE_GUARDS: OperationGuards = { featureSwitch: CONTRIBUTIONS_SWITCH, origin: 'site', session: 'optional', humanCheck: true };

export const CONTRIBUTION_OPERATIONS = [
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
] as const satisfies readonly OperationSpec[];

/** The site's widget fetches a challenge before a contribution, so it shares their budget and switch. */
export const CHALLENGE_ROUTES = [
  {
    openApi: false,
    method: 'get',
    path: `${API_PREFIX}/challenge`,
    summary: 'A human-check challenge for the next contribution (its solution is the `challenge_token`).',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: { featureSwitch: CONTRIBUTIONS_SWITCH },
    refusals: 'problem',
  },
] as const satisfies readonly RouteSpec[];
