// The read side of one server thread, built the same way on the main thread (app.ts) and on every read
// thread (threads/read-thread.ts): the reads over a snapshot holder, the per-IP limits (in shared memory,
// so one budget whichever thread counts it), the problem catalogue, the area cache dropped whenever the
// answers change, and an HTTP server that answers the public REST reads behind the guard chain.
import { HttpServer, type RequestObserver, type ServerHooks, type TransportFactory } from '../http/server.js';
import { Problems } from '../http/problem.js';
import type { ProblemSlug, ProblemType } from '../http/problem-types.js';
import type { OperationSpec, RateLimitBudget } from '../schemas/operations.js';
import { securityOptionsFor } from '../http/security-headers.js';
import type { PlaceLookup } from '../places/lookup.js';
import type { SnapshotHolder } from '../toilets/snapshot.js';
import type { ListingCounters } from '../toilets/listing-counters.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { Reads } from './reads.js';
import { createLimits, type LimitTables, type Limits } from './limits.js';
import { AreaCache } from './area-cache.js';
import { registerReadRoutes } from './rest.js';
import { serviceHooks } from './server-hooks.js';
import { registerHealthRoute, type Heartbeats } from './health.js';

export interface ReadSideOptions {
  config: Config;
  /** The snapshot in use: the catalog on the main thread, a replica on a read thread. */
  holder: SnapshotHolder;
  /** Every thread's counters of Plus listings' figures (shared memory, made by the main thread). */
  counters: ListingCounters;
  /** Registers a listener called after every change of answers (new data or an overlay change). */
  onAnswersChange(listener: () => void): void;
  places: PlaceLookup | null;
  log: Logger;
  now: () => number;
  /** The main thread's limit tables (shared memory), for a read thread; a new set on the main thread. */
  limitTables?: LimitTables;
  /** The threads' heartbeats and this thread's number, for GET /healthz (health.ts). */
  health: { heartbeats: Heartbeats; thread: number };
  /** Told of every answered request (metrics, access log: src/observe); null: nothing is observed. */
  observer?: RequestObserver | null;
  /** Called for each write the storage refused (metrics). */
  onStorageTrouble?(): void;
  /** The service's problem types, every feature's (src/problems.ts). */
  problemTypes: Readonly<Record<ProblemSlug, ProblemType>>;
  /** Every operation of the service, for the OpenAPI document (src/operations.ts). */
  operations: readonly OperationSpec[];
  /** The rate-limit budgets the operations count against, every feature's (src/operations.ts). */
  rateLimits: readonly RateLimitBudget[];
  /** What serves the socket: the main thread's choice (src/http/transport-choice.ts). */
  transport: TransportFactory;
}

export interface ReadSide {
  server: HttpServer;
  reads: Reads;
  limits: Limits;
  problems: Problems;
  /** The server's own answers (no route, failures), also used for requests passed on by read threads. */
  hooks: ServerHooks;
}

export function createReadSide(options: ReadSideOptions): ReadSide {
  const { config, holder, places, log, now } = options;
  const reads = new Reads(holder, config.baseUrl, places, config.nearestMaxDistanceM, options.counters);
  const limits = createLimits(config, options.rateLimits, options.limitTables);
  const problems = new Problems(config.baseUrl, options.problemTypes);
  const areaCache = new AreaCache(config.areaCacheSeconds * 1000);
  options.onAnswersChange(() => areaCache.clear());
  const hooks = serviceHooks(problems, log, options.onStorageTrouble);
  const onUnreadableForwardedFor = () =>
    log.info(`a request behind TRUST_PROXY=${config.trustProxy} had no readable address in that X-Forwarded-For entry (missing or not an address); such requests are counted by the proxy's address. Check that the proxies append their peer (nginx: $proxy_add_x_forwarded_for) and that TRUST_PROXY counts them`);
  const server = new HttpServer({ trustedProxyHops: config.trustProxy, onUnreadableForwardedFor, hooks, security: securityOptionsFor(config.baseUrl), observer: options.observer ?? null, transport: options.transport });
  registerReadRoutes(server, { config, reads, limits, problems, areaCache, now, operations: options.operations });
  registerHealthRoute(server, { ...options.health, problems, now });
  return { server, reads, limits, problems, hooks };
}
