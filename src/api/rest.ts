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
  const guards = new GuardChain(deps);
  const answers = readAnswers(deps);
  registerNearest(server, guards, deps, answers);
  registerArea(server, guards, deps, answers);
  registerToilet(server, guards, deps, answers);
  registerDocuments(server, deps);
}

/** What the read routes answer with, made once: each read's success headers, and its gzip when worth it. */
interface ReadAnswers {
  headers(operationId: ReadOperationId): readonly string[];
  /**
   * The encodings of the answer the reads returned last, when its client wants gzip and it is large enough:
   * made from its marked pieces (reads.preparesGzip), so no compressor runs.
   */
  gzipped(gzip: boolean, body: Buffer): HttpReply['encodings'];
}

type ReadOperationId = (typeof READ_OPERATIONS)[number]['operationId'];

function readAnswers({ config, reads }: RestDeps): ReadAnswers {
  const deprecations = deprecationHeaders(config);
  const headers = new Map(
    READ_OPERATIONS.map((operation: OperationSpec) => {
      const cache = operation.cacheControl ? ['Cache-Control', operation.cacheControl] : [];
      return [operation.operationId, [...compileHeaders(['Content-Type', 'application/json', ...cache, ...(deprecations.get(operation.operationId) ?? [])])]];
    }),
  );
  return {
    headers: (operationId) => headers.get(operationId)!,
    gzipped: (gzip, body) => (gzip && body.length >= MIN_COMPRESS_BYTES ? { gzip: reads.gzipOfAnswer() } : undefined),
  };
}

function registerNearest(server: HttpServer, guards: GuardChain, { reads }: RestDeps, answers: ReadAnswers): void {
  const nearestHeaders = answers.headers('findToiletsNear');
  const spec = operationIn(READ_OPERATIONS, 'findToiletsNear');
  guards.operation<typeof spec>(server, spec, {
    cors: PUBLIC_CORS,
    refine: (params) => {
      const { country } = params;
      if (country !== undefined && !isCountryCode(country)) {
        return invalidQuery([{ name: 'country', reason: `${country} is not an ISO 3166-1 alpha-2 country code; use one such as PT, LI or AD` }]);
      }
      return { input: params };
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
        return body instanceof Promise ? body.then((answer) => ok(answer), unavailable) : ok(body, answers.gzipped(gzip, body));
      } catch (error) {
        return unavailable(error);
      }
    },
  });
}

function registerArea(server: HttpServer, guards: GuardChain, { reads, areaCache }: RestDeps, answers: ReadAnswers): void {
  const spec = operationIn(READ_OPERATIONS, 'listToiletsInArea');
  const areaHeaders = answers.headers('listToiletsInArea');
  guards.operation(server, spec, {
    cors: PUBLIC_CORS,
    handle: (request, { input, nowMs, headers }) => {
      const gzip = acceptsGzip(request.acceptEncoding);
      const hit = areaCache.get(request.query, nowMs);
      let body: Buffer;
      let encodings: HttpReply['encodings'];
      if (hit === null) {
        reads.preparesGzip(gzip);
        body = reads.inArea(input, nowMs); // counts the partner listings it shows
        encodings = answers.gzipped(gzip, body);
        if (areaCache.ttlMs > 0) areaCache.set(request.query, body, reads.countedByLastArea(), nowMs, encodings?.gzip ?? null);
      } else {
        body = hit.json;
        encodings = gzip && body.length >= MIN_COMPRESS_BYTES ? { gzip: areaCache.gzipOf(hit) } : undefined;
        reads.countShown(hit.counted);
      }
      // the registry's `conditional` operations: their answers are tagged, and If-None-Match gets a 304 (representation.ts)
      return { status: 200, headers: [...areaHeaders, ...headers], body, etag: spec.conditional, encodings };
    },
  });
}

function registerToilet(server: HttpServer, guards: GuardChain, { reads }: RestDeps, answers: ReadAnswers): void {
  const spec = operationIn(READ_OPERATIONS, 'getToilet');
  const toiletHeaders = answers.headers('getToilet');
  guards.operation(server, spec, {
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
      return { status: 200, headers: [...toiletHeaders, ...context.headers], body, etag: spec.conditional, encodings: answers.gzipped(gzip, body) };
    },
  });
}

/** The documents around the reads: the OpenAPI description, the problem type pages, the protected-resource document. */
function registerDocuments(server: HttpServer, { config, problems, operations }: RestDeps): void {
  // 62 KB, the same until a restart: compressed (brotli, gzip) and tagged once
  const openApi: HttpReply = {
    status: 200,
    headers: compileHeaders(['Content-Type', 'application/json', 'Cache-Control', 'public, max-age=3600']),
    ...prepareStatic(JSON.stringify(buildOpenApi({ baseUrl: config.baseUrl, deprecated: config.deprecated.map((d) => d.operationId), operations }))),
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
