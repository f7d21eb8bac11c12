// The OpenAPI 3.1 description of the REST interface, built from the operations registry, the parameter
// schemas and the resource schemas. Reads name no security scheme (`security: []`, which says so to tools such
// as Redocly's linter) and the document declares none at top level. test/schemas/redocly.test.ts lints it.

import { API_PREFIX, rateLimitPolicyHeader, sessionCookieName, type OperationSpec } from './operations.js';
import { QUERY_PARAMS, type QueryParamSet } from './params.js';
import { rewriteRefs, type JsonSchema } from './refs.js';
import type { SchemaName } from './resources.js';
import { schemaCatalogue } from './catalogue.js';

export interface OpenApiOptions {
  /** {base_url} of the spec, e.g. `https://toilets.example.org` (no trailing slash needed). */
  readonly baseUrl: string;
  /** operationIds to mark deprecated; their answers then document Deprecation, Sunset and Link. */
  readonly deprecated: readonly string[];
  /** The operations to describe; the service's registry unless given. */
  /** Every operation of the service (src/operations.ts). */
  readonly operations: readonly OperationSpec[];
}

type Json = { [key: string]: unknown };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string }[];
  paths: { [path: string]: { [method: string]: Json } };
  components: { schemas: { [name: string]: JsonSchema }; securitySchemes?: { [name: string]: Json } };
}

export const API_VERSION = '1.0.0';

const securitySchemes = (baseUrl: string): Record<NonNullable<OperationSpec['security']>, Json> => ({
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: sessionCookieName(baseUrl),
    description:
      'The signed-in session of the site page: an HttpOnly, SameSite=Lax cookie set by signIn and createAccount. Operations naming it answer 401 without a valid session; the sensitive ones also want a passkey sign-in from the last 5 minutes.',
  },
});

const componentRef = (name: string) => `#/components/schemas/${name}`;
const schemaRef = (name: SchemaName) => ({ $ref: componentRef(name) });

const HEADER_DOCS: Record<string, { description: string; schema: JsonSchema }> = {
  'RateLimit-Limit': { description: 'Quota of the rate-limit policy closest to exhaustion.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer', minimum: 0 } },
  RateLimit: { description: 'Remaining quota per policy: `"<policy>";r=<remaining>;t=<seconds>`.', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The rate-limit policy: `"<policy>";q=<quota>;w=<window seconds>`.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before resending.', schema: { type: 'integer', minimum: 0 } },
  'Cache-Control': { description: 'How long a cache may keep the answer.', schema: { type: 'string' } },
  Deprecation: { description: 'The operation is deprecated (RFC 9745): `@<unix seconds>` of the deprecation.', schema: { type: 'string' } },
  Sunset: { description: 'When the operation will be removed (RFC 8594), an HTTP-date.', schema: { type: 'string' } },
  Link: { description: 'Links with rel="deprecation" and rel="sunset" to the documentation of the removal.', schema: { type: 'string' } },
  ETag: { description: 'Strong tag of the exact answer bytes (per content coding); send it back in If-None-Match.', schema: { type: 'string' } },
  Vary: { description: 'Answers of 1 KB or more depend on Accept-Encoding (gzip).', schema: { type: 'string' } },
};

const NOT_MODIFIED = 'Not modified (an extension of the spec’s statuses): If-None-Match names the answer this request would get. No body; counted toward the rate limit.';

function header(name: keyof typeof HEADER_DOCS, example?: string): Json {
  return { ...HEADER_DOCS[name], ...(example === undefined ? {} : { example }) };
}

/** Headers of one answer (spec, Limits and Versioning). */
function responseHeaders(operation: OperationSpec, status: number, deprecated: boolean): Json {
  const headers: Json = {};
  const success = status < 300 || status === 304;
  const policy = operation.rateLimit;
  if (policy) {
    // The first three on every answer; the policy headers on success and 429 answers.
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) headers[name] = header(name);
    if (success || status === 429) {
      headers.RateLimit = header('RateLimit', `"${policy.name}";r=42;t=17`);
      headers['RateLimit-Policy'] = header('RateLimit-Policy', rateLimitPolicyHeader(policy));
    }
  }
  if (status === 429 || status === 503) headers['Retry-After'] = header('Retry-After');
  if (success && operation.cacheControl) headers['Cache-Control'] = header('Cache-Control', operation.cacheControl);
  if (operation.conditional && (status === 200 || status === 304)) headers.ETag = header('ETag');
  if (success && operation.method === 'get') headers.Vary = header('Vary', 'Accept-Encoding');
  if (deprecated) for (const name of ['Deprecation', 'Sunset', 'Link']) headers[name] = header(name);
  return headers;
}

function queryParameters(set: QueryParamSet): Json[] {
  return Object.entries(set.properties).map(([name, { description, ...schema }]) => ({
    name,
    in: 'query',
    required: set.required.includes(name),
    ...(typeof description === 'string' ? { description } : {}),
    schema,
  }));
}

function operationObject(operation: OperationSpec, deprecated: boolean): Json {
  const parameters = [
    ...Object.entries(operation.pathParams ?? {}).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
    ...(operation.query ? queryParameters(QUERY_PARAMS[operation.query]) : []),
    ...(operation.conditional
      ? [{ name: 'If-None-Match', in: 'header', required: false, description: 'The ETag of a copy the client holds: answered 304 while it is current.', schema: { type: 'string' } }]
      : []),
    ...(operation.guards?.signature
      ? [{ name: operation.guards.signature.header, in: 'header', required: true, description: operation.guards.signature.description, schema: { type: 'string' } }]
      : []),
  ];
  const responses: Json = {
    [operation.success.status]: {
      description: operation.success.description,
      headers: responseHeaders(operation, operation.success.status, deprecated),
      content: { 'application/json': { schema: schemaRef(operation.success.schema) } },
    },
  };
  if (operation.conditional) responses[304] = { description: NOT_MODIFIED, headers: responseHeaders(operation, 304, deprecated) };
  for (const [status, description] of Object.entries(operation.errors)) {
    responses[status] = {
      description,
      headers: responseHeaders(operation, Number(status), deprecated),
      content: { 'application/problem+json': { schema: schemaRef('Problem') } },
    };
  }
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: operation.description,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.requestBody
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaRef(operation.requestBody.schema) } } } }
      : {}),
    responses,
    security: operation.security ? [{ [operation.security]: [] }] : [],
    ...(deprecated ? { deprecated: true } : {}),
  };
}

export function buildOpenApi({ baseUrl, deprecated, operations }: OpenApiOptions): OpenApiDocument {
  const known = new Set(operations.map((operation) => operation.operationId));
  const unknown = deprecated.filter((operationId) => !known.has(operationId));
  if (unknown.length > 0) throw new Error(`deprecated names operations the service does not serve: ${unknown.join(', ')}`);

  const paths: OpenApiDocument['paths'] = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation, deprecated.includes(operation.operationId));
  }
  const schemes = [...new Set(operations.flatMap((operation) => (operation.security ? [operation.security] : [])))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Public Toilet Finder API',
      version: API_VERSION,
      description:
        'Finds public toilets near a place or coordinate, in a map box, or by id. Reads are free and need no account, key or cookie. Toilet data comes from OpenStreetMap under ODbL-1.0: show the `attribution` of every answer.',
      // what the answers are licensed under: the data (the service's code is MIT)
      license: { name: 'Open Database License 1.0 (the OpenStreetMap data in the answers)', identifier: 'ODbL-1.0' },
    },
    servers: [{ url: `${baseUrl.replace(/\/+$/, '')}${API_PREFIX}` }],
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemaCatalogue()).map(([name, schema]) => [name, rewriteRefs(schema, componentRef)])),
      ...(schemes.length > 0 ? { securitySchemes: Object.fromEntries(schemes.map((name) => [name, securitySchemes(baseUrl)[name]])) } : {}),
    },
  };
}
