// The operations the service serves, one entry each: the router, the guards (src/api/guards.ts) and the
// OpenAPI document read them from here. Serving another operation of the spec (submitToilet, claimToilet, ...) is one more
// entry; its body schemas are already in resources.ts.

import { QUERY_PARAMS, paramsObjectSchema, type QueryOperation } from './params.js';
import type { JsonSchema } from './refs.js';
import { TOILET_ID, type SchemaName } from './resources.js';

/** The REST interface lives under this path of {base_url}; the version is part of it. */
export const API_PREFIX = '/api/v1';

export type HttpMethod = 'get' | 'post' | 'patch';
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
} as const satisfies Record<string, RateLimitPolicy>;

/** The RateLimit-Policy header value of a policy, e.g. `"per-ip";q=60;w=60` (draft-ietf-httpapi-ratelimit-headers-10). */
export function rateLimitPolicyHeader(policy: RateLimitPolicy): string {
  return `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`;
}

/** An operator's switch that can turn a group of operations off (503 with Retry-After); see Config. */
export type FeatureSwitch = 'contributions';

/**
 * What an operation needs checked besides its rate limit (`rateLimit`), body limit (`requestBody.maxBytes`)
 * and security scheme (`security`). src/api/guards.ts runs every check in its one order.
 */
export interface OperationGuards {
  /** The switch that must be on, else 503. */
  readonly featureSwitch?: FeatureSwitch;
  /** `site`: only this site's pages may send it (Origin, or without one Sec-Fetch-Site: same-origin), else 403. */
  readonly origin?: 'site';
  /** A solved human-check `challenge_token` in the body unless an account is signed in, else 403. */
  readonly humanCheck?: true;
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
  /** Cache-Control value of success answers, where the spec asks for one. */
  readonly cacheControl?: string;
  readonly success: { readonly status: 200 | 201; readonly description: string; readonly schema: SchemaName };
  /** Every error status the operation answers, with what it means here. */
  readonly errors: { readonly [S in ErrorStatus]?: string };
}

const RATE_LIMITED = 'Rate limit reached; wait Retry-After seconds, then resend.';
const SERVER_ERROR = 'Server error.';
const SITE_PAGE =
  "For this site's own web page only (Origin must be the site's). Send `challenge_token`, a solved human-check challenge from GET /api/v1/challenge, used once.";
/** Contribution bodies larger than this answer 400. */
const CONTRIBUTION_MAX_BYTES = 16 * 1024;
const INVALID_BODY = 'The body is not JSON, larger than 16 KiB, or has invalid fields; `invalid_params` lists each one.';
const FORBIDDEN = 'The request came from another origin, or the human check failed (missing, wrong, expired or reused challenge_token).';
const NO_TOILET = 'No toilet has the id, or a moderator marked it gone.';
const CONTRIBUTIONS_OFF = 'Contributions are switched off; wait Retry-After seconds.';
/** The guards of the five contribution operations (spec, Authentication 5 and 6). */
const SITE_PAGE_GUARDS: OperationGuards = { featureSwitch: 'contributions', origin: 'site', humanCheck: true };

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
    description: 'Show the attribution.',
    pathParams: { id: TOILET_ID },
    rateLimit: RATE_LIMIT_POLICIES.perIp,
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
    description: `${SITE_PAGE} One rating per person (device_id) and toilet; the latest counts. One address adds one new rater per toilet per UTC day (429 until the next day); people who rated before may change their rating.`,
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
      `${SITE_PAGE} Each person has one vote per fact; the latest counts. A voted value replaces the shown value when it has more than half of all votes of the last 24 months and at least 2; the source value counts as one vote; on a tie the shown value stays. One address adds one new voter per toilet per UTC day. Votes for existence \`gone\` never hide a toilet; a moderator decides.`,
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
