// Assembles the service from its parts: catalog (data), community overlay, reads, limits, HTTP routes.
// main.ts runs it; tests build one on a loopback port with their own config and clock.
import { HttpServer } from './http/server.js';
import { Problems, PROBLEM_KINDS } from './http/problem.js';
import { ToiletCatalog } from './toilets/catalog.js';
import { Reads } from './api/reads.js';
import { createLimits, type Limits } from './api/limits.js';
import { AreaCache } from './api/area-cache.js';
import { registerReadRoutes } from './api/rest.js';
import { registerPages } from './web/pages.js';
import { registerMcpRoutes } from './mcp/endpoint.js';
import { Community } from './community/community.js';
import { COMMUNITY_PROBLEM_KINDS } from './community/problems.js';
import type { PlaceLookup } from './places/lookup.js';
import { CurrentPlaceIndex } from './places/current.js';
import { createPlaceLookup } from './places/service.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';

export interface AppOptions {
  config: Config;
  log: Logger;
  now?: () => number;
  /** Replaces the place lookup (tests); null: no lookup at all. Default: the embedded index, plus GEOCODER_URL. */
  places?: PlaceLookup | null;
}

export interface App {
  server: HttpServer;
  catalog: ToiletCatalog;
  reads: Reads;
  limits: Limits;
  /** The embedded place index of the data in use. */
  placeIndex: CurrentPlaceIndex;
  /** Contributions, moderation support and open data dumps (OVERLAY_DB). */
  community: Community;
  /** Binds the port (0 = any free one) and resolves with it. */
  listen(): Promise<number>;
  /** Stops accepting, finishes in-flight requests, stops watching the data. */
  close(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const community = new Community(config, log, now);
  const catalog = new ToiletCatalog(config.toiletsDb, community.overlay, log, now);
  const placeIndex = new CurrentPlaceIndex(config.toiletsDb);
  catalog.onChange(() => placeIndex.rebuild());
  const places = options.places !== undefined ? options.places : createPlaceLookup(placeIndex, config.geocoder, `toilet-finder (${config.baseUrl})`);
  const reads = new Reads(catalog, config.baseUrl, places, config.nearestMaxDistanceM);
  const limits = createLimits(config.rateLimitPerMinute, config.areaRateLimitPerMinute);
  const problems = new Problems<string>(config.baseUrl, { ...PROBLEM_KINDS, ...COMMUNITY_PROBLEM_KINDS });
  const areaCache = new AreaCache(config.areaCacheSeconds * 1000);
  catalog.onChange(() => areaCache.clear());
  catalog.onOverlayChange(() => areaCache.clear());

  const server = new HttpServer({
    trustedProxyHops: config.trustProxy,
    hooks: {
      notFound: (request) => problems.reply('not-found', `Nothing is served at ${request.path}. The API lives under /api/v1; its description is at /api/v1/openapi.json.`),
      methodNotAllowed: (request, allow) => problems.reply('method-not-allowed', `${request.path} does not answer ${request.method}; use ${allow.join(' or ')}.`),
      payloadTooLarge: (request, maxBytes) =>
        community.tooLarge(request, maxBytes) ?? problems.reply('payload-too-large', `The body is larger than ${maxBytes} bytes; send a smaller one.`),
      serverError: (error, request) => {
        log.error('request failed', { method: request.method, path: request.path, error: (error as Error)?.stack ?? String(error) });
        return problems.reply('server-error', 'The server failed to answer this request. Send it again later; if it keeps failing, tell the operator of this service.');
      },
    },
  });
  registerReadRoutes(server, { config, reads, limits, problems, areaCache, now });
  registerPages(server, { config, catalog, reads, now });
  community.serve(server, { catalog, limits, problems });
  const mcp = registerMcpRoutes(server, { config, reads, limits, places, log, now });

  return {
    server,
    catalog,
    reads,
    limits,
    placeIndex,
    community,
    listen: () => {
      community.start();
      return server.listen(config.host, config.port);
    },
    close: async () => {
      catalog.close();
      await mcp.close();
      await server.close();
      community.close();
    },
  };
}
