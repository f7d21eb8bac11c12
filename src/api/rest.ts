// REST routes of the public reads (spec: Endpoints), plus the documents around them: the OpenAPI
// description, problem type pages and the protected-resource discovery document. Each read route runs
// behind the guard chain (guards.ts: the rate limit, then the query parsed and validated against its one
// schema), then the read, and answers with the spec's headers.
import type { HttpServer, HttpRequestInfo } from '../http/server.js';
import { CorsPolicy, PUBLIC_READ_EXPOSED_HEADERS } from '../http/cors.js';
import type { Problems } from '../http/problem.js';
import { compileHeaders, type HttpReply } from '../http/reply.js';
import { prepareStatic } from '../http/representation.js';
import { acceptsGzip, MIN_COMPRESS_BYTES } from '../http/encoding.js';
import { parseQuery } from '../schemas/query.js';
import type { AreaParams, FindParams } from '../schemas/params.js';
import { operationIn, API_PREFIX, READ_OPERATIONS, type OperationSpec } from '../schemas/operations.js';
import { buildOpenApi } from '../schemas/openapi.js';
import { TOILET_ID } from '../schemas/resources.js';
import { isCountryCode } from '../geo/where.js';
import { PlaceLookupUnavailable, type Reads } from './reads.js';
import type { Limits } from './limits.js';
import { GuardChain, invalidQuery } from './guards.js';
import type { AreaCache } from './area-cache.js';
import { deprecationHeaders } from './deprecation.js';
import type { Config } from '../config.js';

export interface RestDeps {
  config: Config;
  reads: Reads;
  limits: Limits;
  problems: Problems;
  areaCache: AreaCache;
  now: () => number;
  /** Every operation of the service, for the OpenAPI document (src/operations.ts). */
  operations: readonly OperationSpec[];
}

export const PUBLIC_CORS = new CorsPolicy({ allowHeaders: [], exposeHeaders: PUBLIC_READ_EXPOSED_HEADERS, maxAgeSeconds: 86400 });
const TOILET_ID_PATTERN = new RegExp(TOILET_ID.pattern);

export function registerReadRoutes(server: HttpServer, deps: RestDeps): void {
  const { config, reads, problems, areaCache } = deps;
  const guards = new GuardChain(deps);
  const deprecations = deprecationHeaders(config);
  const successHeaders = (operationId: string, contentType = 'application/json'): string[] => {
    const operation = operationIn(READ_OPERATIONS, operationId);
    return [...compileHeaders(['Content-Type', contentType, ...(operation.cacheControl ? ['Cache-Control', operation.cacheControl] : []), ...(deprecations.get(operationId) ?? [])])];
  };
  const nearestHeaders = successHeaders('findToiletsNear');
  const areaHeaders = successHeaders('listToiletsInArea');
  const toiletHeaders = successHeaders('getToilet');
  /** The registry's `conditional` operations: their answers are tagged, and If-None-Match gets a 304 (representation.ts). */
  const tagged = (operationId: string): true | undefined => operationIn(READ_OPERATIONS, operationId).conditional;
  const areaTagged = tagged('listToiletsInArea');
  const toiletTagged = tagged('getToilet');
  /**
   * The encodings of the answer the reads returned last, when its client wants gzip and it is large enough:
   * made from its marked pieces (reads.preparesGzip), so no compressor runs.
   */
  const gzipped = (gzip: boolean, body: Buffer): HttpReply['encodings'] => (gzip && body.length >= MIN_COMPRESS_BYTES ? { gzip: reads.gzipOfAnswer() } : undefined);

  guards.operation<FindParams>(server, operationIn(READ_OPERATIONS, 'findToiletsNear'), {
    cors: PUBLIC_CORS,
    validate: (request) => {
      const parsed = parseQuery('findToiletsNear', request.query);
      if (!parsed.ok) return invalidQuery(parsed.invalid);
      const { country } = parsed.params;
      if (country !== undefined && !isCountryCode(country)) {
        return invalidQuery([{ name: 'country', reason: `${country} is not an ISO 3166-1 alpha-2 country code; use one such as PT, LI or AD` }]);
      }
      return { input: parsed.params };
    },
    handle: (request, context) => {
      const ok = (body: Buffer, encodings?: HttpReply['encodings']): HttpReply => ({ status: 200, headers: [...nearestHeaders, ...context.headers], body, encodings });
      const unavailable = (error: unknown): HttpReply => {
        if (!(error instanceof PlaceLookupUnavailable)) throw error;
        return guards.refuse({
          slug: 'unavailable',
          detail: `The place lookup cannot answer right now (${error.message}). Send lat and lon instead, or retry the place after ${error.retryAfterSeconds} seconds.`,
          retryAfterSeconds: error.retryAfterSeconds,
        }, context);
      };
      try {
        const gzip = acceptsGzip(request.acceptEncoding);
        reads.preparesGzip(gzip);
        const body = reads.findNear(context.input, context.nowMs);
        // a promised answer (a remote place lookup) is coded by the write path
        return body instanceof Promise ? body.then((answer) => ok(answer), unavailable) : ok(body, gzipped(gzip, body));
      } catch (error) {
        return unavailable(error);
      }
    },
  });

  guards.operation<AreaParams>(server, operationIn(READ_OPERATIONS, 'listToiletsInArea'), {
    cors: PUBLIC_CORS,
    validate: (request) => {
      const parsed = parseQuery('listToiletsInArea', request.query);
      return parsed.ok ? { input: parsed.params } : invalidQuery(parsed.invalid);
    },
    handle: (request, { input, nowMs, headers }) => {
      const gzip = acceptsGzip(request.acceptEncoding);
      const hit = areaCache.get(request.query, nowMs);
      let body: Buffer;
      let encodings: HttpReply['encodings'];
      if (hit === null) {
        reads.preparesGzip(gzip);
        body = reads.inArea(input, nowMs); // counts the partner listings it shows
        encodings = gzipped(gzip, body);
        if (areaCache.ttlMs > 0) areaCache.set(request.query, body, reads.countedByLastArea(), nowMs, encodings?.gzip ?? null);
      } else {
        body = hit.json;
        encodings = gzip && body.length >= MIN_COMPRESS_BYTES ? { gzip: areaCache.gzipOf(hit) } : undefined;
        reads.countShown(hit.counted);
      }
      return { status: 200, headers: [...areaHeaders, ...headers], body, etag: areaTagged, encodings };
    },
  });

  guards.operation(server, operationIn(READ_OPERATIONS, 'getToilet'), {
    cors: PUBLIC_CORS,
    handle: (request, context) => {
      // getToilet takes no query, and the spec gives it no 400: a stray query (a cache buster) is ignored.
      const id = request.params.id;
      const gzip = acceptsGzip(request.acceptEncoding);
      reads.preparesGzip(gzip);
      const body = TOILET_ID_PATTERN.test(id) ? reads.toilet(id, context.nowMs) : null;
      if (body === null) {
        return guards.refuse({ slug: 'not-found', detail: `No toilet has the id ${JSON.stringify(id)}, or a moderator marked it gone. Ids look like n123456 (OpenStreetMap node), w123 (way) or r12 (relation); find them with findToiletsNear or listToiletsInArea.` }, context);
      }
      return { status: 200, headers: [...toiletHeaders, ...context.headers], body, etag: toiletTagged, encodings: gzipped(gzip, body) };
    },
  });

  // 62 KB, the same until a restart: compressed (brotli, gzip) and tagged once
  const openApi: HttpReply = {
    status: 200,
    headers: compileHeaders(['Content-Type', 'application/json', 'Cache-Control', 'public, max-age=3600']),
    ...prepareStatic(JSON.stringify(buildOpenApi({ baseUrl: config.baseUrl, deprecated: config.deprecated.map((d) => d.operationId), operations: deps.operations }))),
  };
  server.route({ method: 'GET', pattern: `${API_PREFIX}/openapi.json`, cors: PUBLIC_CORS, handler: () => openApi });

  server.route({
    method: 'GET',
    pattern: '/problems/:slug',
    handler: (request: HttpRequestInfo) => problems.page(request.params.slug) ?? problems.reply('not-found', `There is no problem type ${JSON.stringify(request.params.slug)}.`),
  });

  // Spec, Authentication 2: public toilet search is an open resource; no authorization server applies.
  const protectedResource = JSON.stringify({ resource: config.baseUrl, authorization_servers: [], bearer_methods_supported: [], resource_name: 'Public Toilet Finder', resource_documentation: `${config.baseUrl}/api/v1/openapi.json` });
  server.route({
    method: 'GET',
    pattern: '/.well-known/oauth-protected-resource',
    cors: PUBLIC_CORS,
    handler: () => ({ status: 200, headers: ['Content-Type', 'application/json', 'Cache-Control', 'public, max-age=3600'], body: protectedResource }),
  });
}
