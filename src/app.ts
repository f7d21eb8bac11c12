// Assembles the service from its parts: catalog (data), reads, limits, HTTP routes. main.ts runs it;
// tests build one on a loopback port with their own config and clock.
import { HttpServer } from './http/server.js';
import { Problems, PROBLEM_KINDS } from './http/problem.js';
import { ToiletCatalog } from './toilets/catalog.js';
import { NO_OVERLAYS, type OverlaySource } from './toilets/overlay.js';
import { Reads } from './api/reads.js';
import { createLimits, type Limits } from './api/limits.js';
import { AreaCache } from './api/area-cache.js';
import { registerReadRoutes } from './api/rest.js';
import { registerPages } from './web/pages.js';
import type { PlaceLookup } from './places/lookup.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';

export interface AppOptions {
  config: Config;
  log: Logger;
  now?: () => number;
  overlays?: OverlaySource;
  places?: PlaceLookup | null;
}

export interface App {
  server: HttpServer;
  catalog: ToiletCatalog;
  reads: Reads;
  limits: Limits;
  /** Binds the port (0 = any free one) and resolves with it. */
  listen(): Promise<number>;
  /** Stops accepting, finishes in-flight requests, stops watching the data. */
  close(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  const { config, log } = options;
  const now = options.now ?? Date.now;
  const catalog = new ToiletCatalog(config.toiletsDb, options.overlays ?? NO_OVERLAYS, log, now);
  const reads = new Reads(catalog, config.baseUrl, options.places ?? null, config.nearestMaxDistanceM);
  const limits = createLimits(config.rateLimitPerMinute, config.areaRateLimitPerMinute);
  const problems = new Problems<string>(config.baseUrl, PROBLEM_KINDS);
  const areaCache = new AreaCache(config.areaCacheSeconds * 1000);
  catalog.onChange(() => areaCache.clear());

  const server = new HttpServer({
    trustedProxyHops: config.trustProxy,
    hooks: {
      notFound: (request) => problems.reply('not-found', `Nothing is served at ${request.path}. The API lives under /api/v1; its description is at /api/v1/openapi.json.`),
      methodNotAllowed: (request, allow) => problems.reply('method-not-allowed', `${request.path} does not answer ${request.method}; use ${allow.join(' or ')}.`),
      payloadTooLarge: (_request, maxBytes) => problems.reply('payload-too-large', `The body is larger than ${maxBytes} bytes; send a smaller one.`),
      serverError: (error, request) => {
        log.error('request failed', { method: request.method, path: request.path, error: (error as Error)?.stack ?? String(error) });
        return problems.reply('server-error', 'The server failed to answer this request. Send it again later; if it keeps failing, tell the operator of this service.');
      },
    },
  });
  registerReadRoutes(server, { config, reads, limits, problems, areaCache, now });
  registerPages(server, { config, catalog, reads, now });

  return {
    server,
    catalog,
    reads,
    limits,
    listen: () => server.listen(config.host, config.port),
    close: async () => {
      catalog.close();
      await server.close();
    },
  };
}
