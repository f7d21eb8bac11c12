// REST routes of the public reads (spec: Endpoints), plus the documents around them: the OpenAPI
// description, problem type pages and the protected-resource discovery document. Each read route:
// rate limit, parse and validate the query (one schema), run the read, answer with the spec's headers.
import type { HttpServer, HttpRequestInfo } from '../http/server.js';
import { CorsPolicy, PUBLIC_READ_EXPOSED_HEADERS } from '../http/cors.js';
import type { Problems } from '../http/problem.js';
import { compileHeaders, type HttpReply } from '../http/reply.js';
import { parseQuery } from '../schemas/query.js';
import { operationById, API_PREFIX } from '../schemas/operations.js';
import { buildOpenApi } from '../schemas/openapi.js';
import { TOILET_ID } from '../schemas/resources.js';
import { isCountryCode } from '../geo/where.js';
import { PlaceLookupUnavailable, type Reads } from './reads.js';
import { takeBudget, type Limits } from './limits.js';
import type { AreaCache } from './area-cache.js';
import { deprecationHeaders } from './deprecation.js';
import type { Config } from '../config.js';

export interface RestDeps {
  config: Config;
  reads: Reads;
  limits: Limits;
  problems: Problems<string>;
  areaCache: AreaCache;
  now: () => number;
}

export const PUBLIC_CORS = new CorsPolicy({ allowHeaders: [], exposeHeaders: PUBLIC_READ_EXPOSED_HEADERS, maxAgeSeconds: 86400 });
const TOILET_ID_PATTERN = new RegExp(TOILET_ID.pattern);

export function registerReadRoutes(server: HttpServer, deps: RestDeps): void {
  const { config, reads, limits, problems, areaCache, now } = deps;
  const deprecations = deprecationHeaders(config);
  const successHeaders = (operationId: string, contentType = 'application/json'): string[] => {
    const operation = operationById(operationId);
    return [...compileHeaders(['Content-Type', contentType, ...(operation.cacheControl ? ['Cache-Control', operation.cacheControl] : []), ...(deprecations.get(operationId) ?? [])])];
  };
  const nearestHeaders = successHeaders('findToiletsNear');
  const areaHeaders = successHeaders('listToiletsInArea');
  const toiletHeaders = successHeaders('getToilet');
  const invalid = (invalidParams: { name: string; reason: string }[], headers: string[]): HttpReply =>
    problems.reply('invalid-parameters', `Correct ${invalidParams.length === 1 ? 'this parameter' : `these ${invalidParams.length} parameters`} and send the request again: ${invalidParams.map((p) => `${p.name}: ${p.reason}`).join('; ')}.`, { invalidParams, headers });

  server.route({
    method: 'GET',
    pattern: `${API_PREFIX}/toilets/nearest`,
    cors: PUBLIC_CORS,
    handler: (request: HttpRequestInfo) => {
      const nowMs = now();
      const budget = takeBudget(limits.perIp, request, nowMs, problems);
      if (budget.refused) return budget.refused;
      const parsed = parseQuery('findToiletsNear', request.query);
      if (!parsed.ok) return invalid(parsed.invalid, budget.headers);
      const { country } = parsed.params;
      if (country !== undefined && !isCountryCode(country)) {
        return invalid([{ name: 'country', reason: `${country} is not an ISO 3166-1 alpha-2 country code; use one such as PT, LI or AD` }], budget.headers);
      }
      const ok = (body: Buffer): HttpReply => ({ status: 200, headers: [...nearestHeaders, ...budget.headers], body });
      const unavailable = (error: unknown): HttpReply => {
        if (!(error instanceof PlaceLookupUnavailable)) throw error;
        return problems.reply('unavailable', `The place lookup cannot answer right now (${error.message}). Send lat and lon instead, or retry the place after ${error.retryAfterSeconds} seconds.`, {
          retryAfterSeconds: error.retryAfterSeconds,
          headers: budget.headers,
        });
      };
      try {
        const body = reads.findNear(parsed.params, nowMs);
        return body instanceof Promise ? body.then(ok, unavailable) : ok(body);
      } catch (error) {
        return unavailable(error);
      }
    },
  });

  server.route({
    method: 'GET',
    pattern: `${API_PREFIX}/toilets`,
    cors: PUBLIC_CORS,
    handler: (request: HttpRequestInfo) => {
      const nowMs = now();
      const budget = takeBudget(limits.areaPerIp, request, nowMs, problems);
      if (budget.refused) return budget.refused;
      const parsed = parseQuery('listToiletsInArea', request.query);
      if (!parsed.ok) return invalid(parsed.invalid, budget.headers);
      let body = areaCache.get(request.query, nowMs);
      if (body === null) {
        body = reads.inArea(parsed.params, nowMs);
        areaCache.set(request.query, body, nowMs);
      }
      return { status: 200, headers: [...areaHeaders, ...budget.headers], body };
    },
  });

  server.route({
    method: 'GET',
    pattern: `${API_PREFIX}/toilets/:id`,
    cors: PUBLIC_CORS,
    handler: (request: HttpRequestInfo) => {
      const nowMs = now();
      const budget = takeBudget(limits.perIp, request, nowMs, problems);
      if (budget.refused) return budget.refused;
      // getToilet takes no query, and the spec gives it no 400: a stray query (a cache buster) is ignored.
      const id = request.params.id;
      const body = TOILET_ID_PATTERN.test(id) ? reads.toilet(id, nowMs) : null;
      if (body === null) {
        return problems.reply('not-found', `No toilet has the id ${JSON.stringify(id)}, or a moderator marked it gone. Ids look like n123456 (OpenStreetMap node), w123 (way) or r12 (relation); find them with findToiletsNear or listToiletsInArea.`, { headers: budget.headers });
      }
      return { status: 200, headers: [...toiletHeaders, ...budget.headers], body };
    },
  });

  const openApi = JSON.stringify(buildOpenApi({ baseUrl: config.baseUrl, deprecated: config.deprecated.map((d) => d.operationId) }));
  server.route({
    method: 'GET',
    pattern: `${API_PREFIX}/openapi.json`,
    cors: PUBLIC_CORS,
    handler: () => ({ status: 200, headers: ['Content-Type', 'application/json', 'Cache-Control', 'public, max-age=3600'], body: openApi }),
  });

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
