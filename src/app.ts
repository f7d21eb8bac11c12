// Assembles the service from its parts: catalog (data), community overlay, accounts database, reads, limits,
// basemap tiles, HTTP routes.
// main.ts runs it; tests build one on a loopback port with their own config and clock.
import type { HttpServer } from './http/server.js';
import { ToiletCatalog } from './toilets/catalog.js';
import type { Reads } from './api/reads.js';
import type { Limits } from './api/limits.js';
import { createReadSide } from './api/read-side.js';
import { registerPages } from './web/pages.js';
import { registerMcpRoutes } from './mcp/endpoint.js';
import { Community } from './community/community.js';
import { Accounts } from './accounts/accounts.js';
import type { PlaceLookup } from './places/lookup.js';
import { CurrentPlaceIndex } from './places/current.js';
import { createPlaceLookup } from './places/service.js';
import { ReadThreads } from './threads/read-threads.js';
import { TileSource } from './tiles/tile-source.js';
import { registerTileRoutes, TILE_PATH } from './tiles/routes.js';
import { claimPort } from './http/port.js';
import { Heartbeats } from './api/health.js';
import { registerStatusRoutes } from './status/status.js';
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
  /** Accounts, passkeys and sessions (ACCOUNTS_DB), on this thread only. */
  accounts: Accounts;
  /** The basemap's vector tiles (TILES_DB), on this thread only. */
  tiles: TileSource;
  /** The read threads beside the main thread (HTTP_THREADS - 1 of them), or null with one thread. */
  threads: ReadThreads | null;
  /** Binds the port (0 = any free one), starts the read threads on it, and resolves with it. */
  listen(): Promise<number>;
  /** Stops accepting, finishes in-flight requests, stops watching the data. */
  close(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  const { config, log } = options;
  if (config.httpThreads > 1 && options.now) throw new Error('HTTP_THREADS above 1 needs the real clock: a test clock cannot reach the read threads; set HTTP_THREADS=1');
  const now = options.now ?? Date.now;
  const community = new Community(config, log, now);
  const accounts = new Accounts(config, log, now);
  const catalog = new ToiletCatalog(config.toiletsDb, community.overlay, log, now);
  const placeIndex = new CurrentPlaceIndex(config.toiletsDb);
  catalog.onChange(() => placeIndex.rebuild());
  const places = options.places !== undefined ? options.places : createPlaceLookup(placeIndex, config.geocoder, `toilet-finder (${config.baseUrl})`);
  const heartbeats = Heartbeats.create(config.httpThreads);
  const { server, reads, limits, problems, hooks } = createReadSide({
    config,
    holder: catalog,
    onAnswersChange: (listener) => {
      catalog.onChange(listener);
      catalog.onOverlayChange(listener);
    },
    places,
    log,
    now,
    health: { heartbeats, thread: 0 },
  });
  registerStatusRoutes(server, { catalog, community, problems, now });
  registerPages(server, { config, catalog, reads, problems, now });
  community.serve(server, { catalog, limits, problems, sessions: accounts.sessions });
  accounts.serve(server, { limits, problems, humanCheck: community.humanCheck!, ledger: community });
  accounts.deletion.register({ name: 'contributions', erase: (accountId) => community.forgetAccount(accountId) });
  const mcp = registerMcpRoutes(server, { config, reads, limits, places, log, now });
  const tiles = new TileSource(config.tilesDb, `${config.baseUrl}${TILE_PATH}`, log);
  registerTileRoutes(server, { config, limits, problems, now, tiles });
  const threads = config.httpThreads > 1 ? new ReadThreads({ config, server, catalog, limits, places, heartbeats, log, failure: hooks.serverError }) : null;

  return {
    server,
    catalog,
    reads,
    limits,
    placeIndex,
    community,
    accounts,
    tiles,
    threads,
    listen: async () => {
      community.start();
      heartbeats.start(0, now);
      accounts.start();
      tiles.start();
      const port = await server.listen(config.host, await claimPort(config.host, config.port));
      await threads?.start(config.httpThreads - 1, config.host, port);
      return port;
    },
    close: async () => {
      heartbeats.stop(0);
      catalog.close();
      // Every thread stops accepting and finishes its requests in flight, MCP calls included (a read
      // thread's are answered here meanwhile); only then may the MCP handler close.
      await Promise.all([threads?.close(), server.close()]);
      await mcp.close();
      community.close();
      accounts.close();
      tiles.close();
    },
  };
}
