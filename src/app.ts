// Assembles the service from its parts: catalog (data), community overlay, accounts database, reads, limits
// (shared with the other replicas through REDIS_URL), basemap tiles, the site's overview, HTTP routes, and
// the background jobs, those over shared state on the cluster's worker only (src/cluster/worker.ts).
// main.ts runs it; tests build one on a loopback port with their own config and clock.
import type { HttpServer } from './http/server.js';
import type { Problems } from './http/problem.js';
import { ToiletCatalog } from './toilets/catalog.js';
import type { Reads } from './api/reads.js';
import type { Limits } from './api/limits.js';
import { createReadSide } from './api/read-side.js';
import { registerPages } from './web/pages.js';
import { registerMcpRoutes, type McpEndpoint } from './mcp/endpoint.js';
import { Community } from './community/community.js';
import { Moderation } from './moderation/moderation.js';
import { moderationStoreOf } from './moderation/store-choice.js';
import { ClaimModeration } from './moderation/claim-moderation.js';
import { registerModerationRoutes } from './moderation/routes.js';
import { registerDumpRoutes } from './dumps/routes.js';
import { writeFirstDump } from './dumps/first-dump.js';
import { Accounts } from './accounts/accounts.js';
import { Partners } from './partners/partners.js';
import { ListingCounters } from './toilets/listing-counters.js';
import { OAuth, type DocumentFetchForTests } from './oauth/oauth.js';
import { registerAccountMcp } from './account-mcp/endpoint.js';
import { listingsTool } from './account-mcp/listings-tool.js';
import { eventsFeature } from './account-mcp/events-feature.js';
import { AccountEvents } from './account-events/account-events.js';
import { listMyPartnerListings } from './partners/listings.js';
import { Billing } from './billing/billing.js';
import { billingStoreOf } from './billing/store-choice.js';
import { partnerListings } from './billing/partner-listings.js';
import type { PlaceLookup } from './places/lookup.js';
import { CurrentPlaceIndex } from './places/current.js';
import { createPlaceLookup } from './places/service.js';
import { ReadThreads } from './threads/read-threads.js';
import { TileSource } from './tiles/tile-source.js';
import { registerTileRoutes, TILE_PATH } from './tiles/routes.js';
import { Overview } from './overview/overview.js';
import { registerOverviewRoutes } from './overview/routes.js';
import { claimPort } from './http/port.js';
import { chooseTransport, oneThreadNote, type TransportChoice } from './http/transport-choice.js';
import type { UwsProbe } from './http/uws-native.js';
import { createObserver, ObservingBlocks } from './observe/observer.js';
import { ServiceMetrics } from './observe/metrics.js';
import { McpCallCounts } from './observe/mcp-calls.js';
import { registerMetricsRoute } from './observe/metrics-route.js';
import { allLimiters, policyNames } from './api/limits.js';
import { RateLimitSync } from './cluster/limit-sync.js';
import { WorkerLease } from './cluster/worker-lease.js';
import { ClusterWorker } from './cluster/worker.js';
import { Heartbeats } from './api/health.js';
import { registerStatusRoutes } from './status/status.js';
import { PROBLEM_TYPES, problemTypesOf } from './problems.js';
import { OPERATIONS, operationsOf, RATE_LIMITS, rateLimitsOf } from './operations.js';
import { ACCOUNTS_DATABASE, accountsMigrationsOf } from './databases.js';
import { accountsDatabase } from './accounts/store.js';
import { fileStorage, storeProbes, type Storage } from './stores.js';
import { inStartOrder, type Feature, type FeatureSlice } from './feature.js';
import type { ProblemSlug, ProblemType } from './http/problem-types.js';
import { SourceFetch } from './source-fetch/source-fetch.js';
import type { Timers } from './source-fetch/remote-file.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';

export interface AppOptions {
  config: Config;
  log: Logger;
  now?: () => number;
  /** Replaces the place lookup (tests); null: no lookup at all. Default: the embedded index, plus GEOCODER_URL. */
  places?: PlaceLookup | null;
  /** Writes batches of access-log lines from every thread (main.ts: the log's stdout); default: dropped. */
  accessLines?(lines: string): void;
  /** Schedules the checks of TOILETS_DB_URL and TILES_DB_URL (tests: a scheduler of their own); default: real timers. */
  sourceFetchTimers?: Timers;
  /** Tests only: OAuth client documents fetched from a stand-in on loopback, with the test's own certificate authority. */
  clientDocumentFetchForTests?: DocumentFetchForTests;
  /** Where the write side is kept (src/stores.ts: serve.ts opens it, DATABASE_URL or not); closed with the app. Default: the SQLite files. */
  storage?: Storage;
  /**
   * Tests only: the features' slices instead of src/features.ts (a test adds an example feature). The
   * registry, the problem catalogue and the accounts database's steps are made from them.
   */
  slices?: readonly FeatureSlice[];
  /** Finds the native uWS module for HTTP_TRANSPORT's choice (tests: a package without its binary); default: the installed ones. */
  uwsProbe?: () => UwsProbe;
}

export interface App {
  /** The settings as served: HTTP_TRANSPORT the transport chosen, HTTP_THREADS the threads it can serve. */
  config: Config;
  /** What serves the socket, and why (src/http/transport-choice.ts). */
  transport: TransportChoice;
  server: HttpServer;
  catalog: ToiletCatalog;
  reads: Reads;
  limits: Limits;
  /** The problem catalogue's answers (every feature's types). */
  problems: Problems;
  /** The embedded place index of the data in use. */
  placeIndex: CurrentPlaceIndex;
  /** Contributions, moderation support and open data dumps (OVERLAY_DB). */
  community: Community;
  /** Accounts, passkeys and sessions (ACCOUNTS_DB), on this thread only. */
  accounts: Accounts;
  /** Business claims and partner listings (in ACCOUNTS_DB), on this thread only. */
  partners: Partners;
  /** The authorization server of agents acting for an account (in ACCOUNTS_DB), on this thread only. */
  oauth: OAuth;
  /** Account events: webhook subscriptions of OAuth grants and their delivery relay, on this thread only. */
  accountEvents: AccountEvents;
  /** Partner payments with Stripe (src/billing); answers 503 while STRIPE_SECRET_KEY is unset. */
  billing: Billing;
  /** The basemap's vector tiles (TILES_DB), on this thread only. */
  tiles: TileSource;
  /** TOILETS_DB_URL and TILES_DB_URL: the published files this replica fetches (src/source-fetch). */
  sourceFetch: SourceFetch;
  /** The public MCP endpoint of this thread. */
  mcp: McpEndpoint;
  /** REDIS_URL: the reconciliation of the rate limits with the other replicas; null without it. */
  limitSync: RateLimitSync | null;
  /** Runs the features' background jobs: those over shared state only while this replica holds the worker lease (DATABASE_URL). */
  worker: ClusterWorker;
  /** The features with a start and a close, in their start order (src/feature.ts); they close in its reverse. */
  features: readonly Feature[];
  /** The read threads beside the main thread (HTTP_THREADS - 1 of them), or null with one thread. */
  threads: ReadThreads | null;
  /** Writes the open data dump in the background when DUMP_DIR has none yet (src/dumps/first-dump.ts). */
  writeFirstDump(): void;
  /** Starts the background work (retention, relays, heartbeats): listen() does, an app only injected into (tests) calls it. */
  start(): void;
  /** Binds the port (0 = any free one), starts the read threads on it, and resolves with it. */
  listen(): Promise<number>;
  /** Stops accepting, finishes in-flight requests, stops watching the data. */
  close(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  const { log } = options;
  const { config, transport } = chooseTransportFor(options.config, options.uwsProbe);
  if (config.httpThreads > 1 && options.now) throw new Error('HTTP_THREADS above 1 needs the real clock: a test clock cannot reach the read threads; set HTTP_THREADS=1');
  const now = options.now ?? Date.now;
  const contract = contractOf(options.slices);
  const storage = options.storage ?? fileStorage(config);
  const community = new Community(config, log, now, storage.overlay ?? undefined);
  const accounts = new Accounts(config, log, now, contract.accountsDatabase, storage.accounts);
  const listingCounters = new ListingCounters();
  const partners = new Partners(config, accounts, community.overlay, log, now, listingCounters);
  const catalog = new ToiletCatalog(config.toiletsDb, partners.overlay, log, now);
  partners.attach(catalog);
  const oauth = new OAuth(config, accounts, log, now, options.clientDocumentFetchForTests);
  const placeIndex = new CurrentPlaceIndex(config.toiletsDb);
  catalog.onChange(() => placeIndex.rebuild());
  const places = options.places !== undefined ? options.places : createPlaceLookup(placeIndex, config.geocoder, `toilet-finder (${config.baseUrl})`);
  const { observing, observer, accessLogWriter, mcpCalls } = observation(config, options.accessLines ?? (() => {}), now);
  // the metrics reach the limits (made with the read side) and the storage hook through this holder
  let metrics: ServiceMetrics | null = null;
  const heartbeats = Heartbeats.create(config.httpThreads);
  // tiles is made further down; the fetch reloads it only once listen() started both
  const sourceFetch = new SourceFetch(config.sourceFetch, { toiletsDb: config.toiletsDb, tilesDb: config.tilesDb, reloadToilets: (reason) => catalog.reload(reason), reloadTiles: (reason) => tiles.reload(reason), log, now, timers: options.sourceFetchTimers });
  const { server, reads, limits, problems, hooks } = createReadSide({
    config,
    holder: catalog,
    counters: listingCounters,
    onAnswersChange: (listener) => {
      catalog.onChange(listener);
      catalog.onOverlayChange(listener);
    },
    places,
    log,
    now,
    health: { heartbeats, thread: 0 },
    observer,
    onStorageTrouble: () => metrics?.overlayWriteFailed(),
    problemTypes: contract.problemTypes,
    operations: contract.operations,
    rateLimits: contract.rateLimits,
    transport: transport.factory,
  });
  const shared: Shared = { config, log, now, server, catalog, limits, problems };
  metrics = serveMetrics(shared, { observing, accessLogDropped: () => accessLogWriter?.dropped() ?? 0, mcpCalls, sourceFetch });
  const limitSync = config.redisUrl === null ? null : new RateLimitSync({ redisUrl: config.redisUrl, limiters: allLimiters(limits), log, now });
  const worker = new ClusterWorker(storage.postgres && new WorkerLease({ db: storage.postgres.schema('cluster'), ttlMs: config.workerLeaseMs, now, log }), log);
  registerStatusRoutes(server, { catalog, probes: storeProbes(storage, community, accounts.file.db), problems, now, sourceFetch, limitSync, worker, transport: transport.name });
  const overview = new Overview(catalog, config.toiletsDb);
  registerOverviewRoutes(server, { config, limits, problems, now, overview });
  registerPages(server, { config, catalog, reads, problems, now, siteTitle: (id) => overview.title(id) });
  serveCommunity(shared, community, accounts, partners, storage.serverKey);
  accounts.serve(server, { limits, problems, humanCheck: community.humanCheck!, ledger: community });
  partners.serve(server, { limits, problems, sessions: accounts.sessions });
  oauth.serve(server, { limits, problems });
  const { accountEvents, accountMcp } = serveAccountEvents(shared, accounts, oauth, partners);
  const billing = new Billing(config, billingStoreOf(partners.store), partnerListings(partners), log, now);
  billing.serve(server, { limits, problems, sessions: accounts.sessions });
  const mcp = registerMcpRoutes(server, { config, reads, limits, problems, places, log, now, onToolCall: (tool, outcome) => mcpCalls.count(tool, outcome) });
  const tiles = new TileSource(config.tilesDb, `${config.baseUrl}${TILE_PATH}`, log, () => catalog.snapshot.info.demo);
  registerTileRoutes(server, { config, limits, problems, now, tiles });
  // the features with a start and a close; their order follows what each declares it needs (src/feature.ts)
  const features = inStartOrder<Feature>([accounts, community, partners, oauth, accountEvents, billing, tiles, ...(limitSync ? [limitSync] : [])]);
  for (const feature of features) if (feature.accountDeletion !== undefined) accounts.deletion.register(feature.accountDeletion);
  const threads =
    config.httpThreads > 1
      ? new ReadThreads({ config, server, catalog, limits, places, heartbeats, counters: listingCounters, mcpCalls, log, observing: (thread) => observing.forThread(thread), failure: hooks.serverError })
      : null;

  return {
    config, transport,
    ...lifecycle({ config, now, announce: () => log.info(transport.reason), server, catalog, heartbeats, threads, features, worker, storage, sourceFetch, closeFirst: () => { accessLogWriter?.close(); }, endpoints: [mcp, accountMcp] }),
    server, catalog, reads, limits, problems, placeIndex, community, accounts, partners, oauth, accountEvents, billing, tiles, sourceFetch, mcp, limitSync, worker, features, threads,
    writeFirstDump: () => writeFirstDump(catalog, config, log, now),
  };
}

/** The registry, its rate-limit budgets, the problem catalogue and the accounts database of the slices given; by default src/features.ts's. */
function contractOf(slices: readonly FeatureSlice[] | undefined) {
  if (slices === undefined) return { operations: OPERATIONS, rateLimits: RATE_LIMITS, problemTypes: PROBLEM_TYPES, accountsDatabase: ACCOUNTS_DATABASE };
  return {
    operations: operationsOf(slices),
    rateLimits: rateLimitsOf(slices),
    // a test's slices: src/problems.ts checks at compile time that the service's own list has every slug
    problemTypes: problemTypesOf(slices) as Readonly<Record<ProblemSlug, ProblemType>>,
    accountsDatabase: accountsDatabase(accountsMigrationsOf(slices)),
  };
}

/** What observes the main thread's requests (metrics, access log) and the blocks the read threads count into. */
function observation(config: Config, accessLines: (lines: string) => void, now: () => number) {
  const observing = new ObservingBlocks(config);
  return { observing, observer: createObserver({ config, shared: observing.forThread(0), now }), accessLogWriter: observing.accessLogWriter(accessLines, now), mcpCalls: new McpCallCounts() };
}

/** GET /metrics when METRICS is on (null when off): every thread's counts, the refusals, the data's age. */
function serveMetrics({ config, now, server, catalog, limits, problems }: Shared, parts: { observing: ObservingBlocks; accessLogDropped(): number; mcpCalls: McpCallCounts; sourceFetch: SourceFetch }): ServiceMetrics | null {
  if (!config.metrics) return null;
  const metrics = new ServiceMetrics({
    blocks: () => parts.observing.metricsBlocks(),
    accessLogDropped: parts.accessLogDropped,
    refusals: { policies: policyNames(limits), counts: limits.refusals },
    mcpCalls: parts.mcpCalls,
    data: () => ({ toilets: catalog.snapshot.table.count, dataAsOf: catalog.snapshot.info.dataAsOf, importedAt: catalog.snapshot.info.importedAt }),
    sourceFetch: () => parts.sourceFetch.figures(),
    now,
  });
  registerMetricsRoute(server, { metrics, allow: config.metricsAllow, problems });
  return metrics;
}

/** What every part's routes are served with. */
interface Shared {
  config: Config;
  log: Logger;
  now: () => number;
  server: HttpServer;
  catalog: ToiletCatalog;
  limits: Limits;
  problems: Problems;
}

/** Contributions, moderation and the dumps over the one overlay database. */
function serveCommunity({ config, log, now, server, catalog, limits, problems }: Shared, community: Community, accounts: Accounts, partners: Partners, serverKey: Buffer): void {
  community.serve(server, { catalog, limits, problems, sessions: accounts.sessions, serverKey });
  const moderation = new Moderation(moderationStoreOf(community.store), catalog, now, { baseUrl: config.baseUrl, osmNotesApi: config.osmNotesApi });
  const claims = new ClaimModeration(moderation, partners.context);
  registerModerationRoutes(server, { config, limits, problems, sessions: accounts.sessions, moderation, claims, log, applied: () => community.poll(true), now });
  registerDumpRoutes(server, { config, limits, problems, now });
}

/** The account events of OAuth grants and the protected MCP endpoint that serves them and the partner listings. */
function serveAccountEvents({ config, log, now, server, limits, problems }: Shared, accounts: Accounts, oauth: OAuth, partners: Partners) {
  const accountEvents = new AccountEvents({ accounts: accounts.file, log: accounts.events, grants: oauth.grants, allowPrivate: config.outboundAllowPrivate, logger: log, now });
  const readListings = (account: string) => listMyPartnerListings(partners.context, account);
  const accountMcp = registerAccountMcp(server, {
    config, limits, problems, grants: oauth.grants, log, now,
    features: [listingsTool(readListings, log), eventsFeature(accountEvents.relay, accountEvents.subscriptions, readListings)],
  });
  return { accountEvents, accountMcp };
}

/**
 * HTTP_TRANSPORT's transport, and the settings it serves: the chosen name (the read threads make the same),
 * and one thread when it cannot share the port (the reason says so).
 */
function chooseTransportFor(config: Config, probe?: () => UwsProbe): { config: Config; transport: TransportChoice } {
  const chosen = chooseTransport(config.httpTransport, probe);
  const oneThread = config.httpThreads > 1 && !chosen.sharesPort;
  const transport = oneThread ? { ...chosen, reason: `${chosen.reason}. ${oneThreadNote(config.httpThreads)}` } : chosen;
  return { config: { ...config, httpTransport: transport.name, ...(oneThread ? { httpThreads: 1 } : {}) }, transport };
}

interface LifecycleParts {
  config: Config;
  now: () => number;
  /** Logs which transport serves, when the port is bound. */
  announce(): void;
  server: HttpServer;
  catalog: ToiletCatalog;
  heartbeats: Heartbeats;
  threads: ReadThreads | null;
  features: readonly Feature[];
  /** Started after the features with their jobs; closed first, so another replica takes the shared jobs over at once. */
  worker: ClusterWorker;
  /** Closed last, once every feature closed its stores. */
  storage: Storage;
  /** Started after the features (it reloads the tiles), stopped first: no swap during the shutdown. */
  sourceFetch: SourceFetch;
  /** After every thread stopped answering, before the endpoints and features close (the access log's writer). */
  closeFirst(): void;
  /** The MCP endpoints, closed once no thread answers any more. */
  endpoints: readonly { close(): Promise<void> }[];
}

/** Start: the features in their order (once), then the port and the read threads. Close: the reverse. */
function lifecycle({ config, now, announce, server, catalog, heartbeats, threads, features, worker, storage, sourceFetch, closeFirst, endpoints }: LifecycleParts): Pick<App, 'start' | 'listen' | 'close'> {
  let started = false;
  const start = (): void => {
    if (started) return;
    started = true;
    heartbeats.start(0, now);
    for (const feature of features) feature.start();
    sourceFetch.start(); // after the features: it reloads the tiles
    worker.start(features.flatMap((feature) => feature.jobs ?? []));
  };
  return {
    start,
    listen: async () => {
      start();
      const port = await server.listen(config.host, await claimPort(config.host, config.port));
      announce();
      await threads?.start(config.httpThreads - 1, config.host, port);
      return port;
    },
    close: async () => {
      heartbeats.stop(0);
      await worker.close(); // the lease given up before the stores close: another replica takes over now
      await sourceFetch.close(); // no swap during the shutdown; a transfer under way leaves no file
      catalog.close();
      // Every thread stops accepting and finishes its requests in flight, MCP calls included (a read
      // thread's are answered here meanwhile); only then may the MCP handler close.
      await Promise.all([threads?.close(), server.close()]);
      closeFirst(); // the access log's writer: after the read threads wrote their last records
      await Promise.all(endpoints.map((endpoint) => endpoint.close()));
      for (const feature of [...features].reverse()) await feature.close();
      await storage.close();
    },
  };
}
