// The registry's types, its shared sentences and policies, and the public reads' entries. Each feature
// declares its own entries in its folder (`operations.ts`), and src/operations.ts lists them all: the
// router, the guards (src/api/guards.ts) and the OpenAPI document read them from that list. An entry is
// an operation of the spec (OperationSpec, which the OpenAPI document lists) or a route outside it
// (RouteSpec, marked `openApi: false`: the site's, OAuth's and MCP's), each with its guards and the
// schemas the guard chain checks its input with.

import { QUERY_PARAMS, paramsObjectSchema, type QueryOperation, type QueryParamSet } from './params.js';
import type { JsonSchema } from './refs.js';
import { TOILET_ID, type SchemaName } from './resources.js';

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

/**
 * Spec, Limits: 60 requests per minute per IP for REST and MCP; listToiletsInArea has its own 300. A feature
 * whose callers need a budget of their own declares its policy in its folder (`rate-limits.ts`).
 */
export const RATE_LIMIT_POLICIES = {
  perIp: { name: 'per-ip', quota: 60, windowSeconds: 60 },
  areaPerIp: { name: 'area-per-ip', quota: 300, windowSeconds: 60 },
  /** The basemap (/tiles/): a map view loads 10–30 tiles, so they have a budget of their own, not the API's. */
  tilesPerIp: { name: 'tiles-per-ip', quota: 1200, windowSeconds: 60 },
  /** The site's overview of the coverage (src/overview): a map move asks up to ~30 of its tiles and a few titles. */
  overviewPerIp: { name: 'overview-per-ip', quota: 1200, windowSeconds: 60 },
} as const satisfies Record<string, RateLimitPolicy>;

/**
 * A policy as the limits count it (src/api/limits.ts): a table of its own, its quota per window from the
 * settings. A slice lists its policies' budgets (`rateLimits`); the limits are made from every slice's.
 */
export interface RateLimitBudget {
  readonly policy: RateLimitPolicy;
  /** The property of Config with the quota per window (read in the feature's config.ts). */
  readonly setting: string;
  /** How many addresses its table counts exactly: fewer for a budget few callers spend. */
  readonly maxKeys?: number;
}

/** The budgets of the service's own policies: the API's, the area's, the basemap's and the overview's. */
export const READ_RATE_LIMITS: readonly RateLimitBudget[] = [
  { policy: RATE_LIMIT_POLICIES.perIp, setting: 'rateLimitPerMinute' },
  { policy: RATE_LIMIT_POLICIES.areaPerIp, setting: 'areaRateLimitPerMinute' },
  { policy: RATE_LIMIT_POLICIES.tilesPerIp, setting: 'tilesRateLimitPerMinute' },
  { policy: RATE_LIMIT_POLICIES.overviewPerIp, setting: 'overviewRateLimitPerMinute' },
];

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

/**
 * An operator's switch that turns a feature's operations off (503 with Retry-After): declared by the
 * feature beside its operations, so the guard chain knows no feature's switch by name.
 */
export interface FeatureSwitch {
  /** The feature it switches, for errors and tests: 'billing'. */
  readonly name: string;
  /** The property of Config (read in the feature's config.ts) that is truthy while the feature is on. */
  readonly setting: string;
  /** The 503 problem type while off (the feature's problems.ts declares it), and what to do then. */
  readonly slug: string;
  readonly detail: string;
}

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
  /** The body must carry a valid signature over its raw bytes in this header, else 400 (a webhook). */
  readonly signature?: SignedBody;
}

/** How a feature's webhook signs its body: declared with the operation; the feature gives the verifier. */
export interface SignedBody {
  /** The request header with the signature, as the OpenAPI document names it: 'Stripe-Signature'. */
  readonly header: string;
  /** What the header holds, for the OpenAPI document. */
  readonly description: string;
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
export const RATE_LIMITED = 'Rate limit reached; wait Retry-After seconds, then resend.';
const SERVER_ERROR = 'Server error.';
export const NO_TOILET = 'No toilet has the id, or a moderator marked it gone.';
/**
 * The public reads: the registry entries of the REST read path, which every thread serves. The features'
 * operations are in their folders (`operations.ts`); src/operations.ts lists all. Listed so that fixed paths
 * come before templated ones (`/toilets/nearest` before `/toilets/{id}`).
 */
export const READ_OPERATIONS = [
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
] as const satisfies readonly OperationSpec[];

/**
 * A route outside the spec (the site's, OAuth's, MCP's): a registry entry like an operation, behind the
 * same guard chain, which the OpenAPI document does not list (`openApi: false`).
 */
export interface RouteSpec {
  /** The mark: the OpenAPI document lists no such entry, so openapi.json stays the spec's. */
  readonly openApi: false;
  /** What metrics and the access log call it; without one, its method and path (`POST /mcp`), as ever. */
  readonly operationId?: string;
  readonly method: HttpMethod;
  /** The whole path (not under API_PREFIX), `{name}` for path parameters. */
  readonly path: string;
  /** What it is for, in a line. */
  readonly summary: string;
  /** null for routes exempt from rate limiting. */
  readonly rateLimit: RateLimitPolicy | null;
  readonly guards?: OperationGuards;
  /** The query parameters, which the chain parses and checks (src/schemas/query.ts) into the handler's input. */
  readonly query?: QueryParamSet;
  /** Takes a body of at most `maxBytes` (larger: refused with `tooLargeStatus`); `form`: fields the chain reads. */
  readonly requestBody?: { readonly maxBytes: number; readonly tooLargeStatus: 400 | 413; readonly form?: FormBody };
  /**
   * How its refusals are answered: problem+json, or in the form its clients read (an HTML page, a
   * JSON-RPC error, an RFC 6749 error); the route then renders them (src/api/guards.ts checks it does).
   */
  readonly refusals: 'problem' | 'page' | 'json-rpc' | 'oauth';
  /** `no-store`: every answer, refusals included, says so (answers about one person). */
  readonly cacheControl?: 'no-store';
}

/**
 * An application/x-www-form-urlencoded body, each field at most once (RFC 6749 section 3.1): the chain
 * reads its `fields` into the handler's input (a field not named is ignored, RFC 6749 section 3.2).
 */
export interface FormBody {
  readonly fields: readonly string[];
  /** The 400's detail for a body that is no such form (another content type, a field sent twice). */
  readonly unreadable: string;
}

/** One entry of the registry: an operation of the spec, or a route outside it. */
export type RegistryEntry = OperationSpec | RouteSpec;

/** Whether the OpenAPI document lists the entry (an operation of the spec). */
export function isListed(entry: RegistryEntry): entry is OperationSpec {
  return !('openApi' in entry);
}

/** The entry's path as clients send it: an operation's under API_PREFIX, a route's as it is. */
export function fullPath(entry: RegistryEntry): string {
  return isListed(entry) ? `${API_PREFIX}${entry.path}` : entry.path;
}

/** What metrics, the access log and the registry's uniqueness check call the entry. */
export function entryName(entry: RegistryEntry): string {
  return entry.operationId ?? `${entry.method.toUpperCase()} ${routePattern(entry)}`;
}

/** The entry's path as the router's pattern: `:name` for `{name}`. */
export function routePattern(entry: RegistryEntry): string {
  return fullPath(entry).replace(/\{(\w+)\}/g, ':$1');
}

/** The entry `operationId` of a list of entries (a feature's, or src/operations.ts's of all), typed as declared. */
export function operationIn<E extends RegistryEntry, const Id extends string>(operations: readonly E[], operationId: Id): Named<E, Id> {
  const operation = operations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`the service does not serve ${operationId}`);
  return operation as Named<E, Id>;
}

/** The entry named `Id` of a list declared `as const`; of a list typed only as entries, any. */
type Named<E extends RegistryEntry, Id extends string> = string extends E['operationId'] ? E : Extract<E, { readonly operationId: Id }>;

/** The entry for `method` and `path` of a list of routes outside the spec (they may have no operationId). */
export function routeIn<E extends RouteSpec, M extends HttpMethod, const P extends string>(routes: readonly E[], method: M, path: P): Extract<E, { readonly method: M; readonly path: P }> {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  if (!route) throw new Error(`the service has no route ${method.toUpperCase()} ${path}`);
  return route as Extract<E, { readonly method: M; readonly path: P }>;
}

/** What a 503 of an operation that writes `database` means: the one sentence for every such operation. */
export function unwritable(database: 'accounts database' | 'overlay database'): string {
  return `The ${database} cannot be written now; wait Retry-After seconds.`;
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
