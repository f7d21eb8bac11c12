// The operational endpoints of the main thread (read threads pass them on): GET /status, what this
// instance serves (version, the data's date and region, counts, demo or not, uptime: the web app's notice
// reads it), and GET /readyz, whether it can do its work now (data loaded, every store of the write side
// able to take a write: the overlay and accounts files, PostgreSQL with DATABASE_URL). While a store cannot,
// /readyz answers 503 naming it and /status lists it under `degraded` (absent while all is well).
// GET /healthz, answered by every thread itself, is in src/api/health.ts. None of them is part of the
// versioned API under /api/v1 (docs/ARCHITECTURE.md, "Operational endpoints").
import { readFileSync } from 'node:fs';
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import { PUBLIC_CORS } from '../api/rest.js';
import { NO_STORE } from '../api/health.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import { missingPartsNote } from '../toilets/source-parts.js';
import { SOURCE_OF_ID_TYPE, Trait } from '../toilets/table.js';
import type { SourceFetch, SourceFetchStatus } from '../source-fetch/source-fetch.js';
import { REPLICA_SCOPE, type RateLimitScope } from '../cluster/limit-sync.js';
import type { StoreProbe } from '../storage/probe.js';
import type { WorkerStatus } from '../cluster/worker.js';

/** The service's version, from package.json (dist/src/status/ → the repository root). */
const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
/** /readyz and /status probe the stores at most this often; answers in between repeat the last finding. */
export const READY_PROBE_MS = 5000;
const READY_RETRY_SECONDS = 30;

export interface StatusDeps {
  catalog: ToiletCatalog;
  /** The stores of the write side, in the order /readyz names the first that cannot take a write. */
  probes: readonly StoreProbe[];
  problems: Problems;
  now: () => number;
  /** The published files this replica fetches (TOILETS_DB_URL, TILES_DB_URL). */
  sourceFetch: SourceFetch;
  /** REDIS_URL: how the rate limits are shared with the other replicas; null: they are not. */
  limitSync: { status(): RateLimitScope } | null;
  /** Whether this replica runs the background work over shared state (the cluster's worker lease). */
  worker: { status(): WorkerStatus };
  /** What serves the socket: 'uws' or 'node' (HTTP_TRANSPORT, src/http/transport-choice.ts). */
  transport: string;
}

/** GET /status: the fields the web app's notice and operators read (README, "Status and health"). */
export interface ServiceStatus {
  version: string;
  demo: boolean;
  region: string | null;
  data_as_of: string | null;
  imported_at: string | null;
  /** The extract's file name (a URL's last segment): never a folder. */
  extract: string | null;
  coverage: { name: string; bounds: [number, number, number, number] } | null;
  counts: { toilets: number; community_toilets: number; places: number };
  /**
   * Whether the source database has every part this release serves: `missing` lists what a file an earlier
   * release wrote lacks (e.g. details), `note` says that a re-import adds it (null when nothing is missing).
   */
  source_layout: { missing: readonly string[]; note: string | null };
  /** Where a replica fetches its files from, and how that goes (null each when not set). */
  source_fetch: SourceFetchStatus;
  /** Whether the rate limits are counted with the other replicas (REDIS_URL) or by this one alone, and why. */
  rate_limits: RateLimitScope;
  /** Whether this replica is the cluster's worker (always, without DATABASE_URL), the jobs it runs, and the lease. */
  worker: WorkerStatus;
  uptime_seconds: number;
  /** What serves HTTP: `uws` (uWebSockets.js) or `node` (node:http). */
  transport: string;
  /** The stores that cannot take a write now, and what is refused meanwhile; absent while every one can. */
  degraded?: DegradedStore[];
}

export interface DegradedStore {
  store: string;
  trouble: string;
  refused: string;
}

export function registerStatusRoutes(server: HttpServer, deps: StatusDeps): void {
  const { catalog, probes, problems, now, sourceFetch, limitSync, worker, transport } = deps;
  // Counting walks every toilet: done once per change of the data or of an overlay, not per request.
  let counts: { toilets: number; community_toilets: number } | null = null;
  const forget = () => (counts = null);
  catalog.onChange(forget);
  catalog.onOverlayChange(forget);
  // Probing writes: done at most every READY_PROBE_MS, whichever of the two endpoints asks.
  let probed: { atMs: number; degraded: Promise<DegradedStore[]> } | null = null;
  const degradedNow = (): Promise<DegradedStore[]> => {
    const nowMs = now();
    if (probed === null || nowMs - probed.atMs >= READY_PROBE_MS || nowMs < probed.atMs) probed = { atMs: nowMs, degraded: probeAll(probes) };
    return probed.degraded;
  };
  const status = async (): Promise<ServiceStatus> => {
    const degraded = await degradedNow();
    const { info } = catalog.snapshot;
    counts ??= countToilets(catalog);
    return {
      version: VERSION,
      demo: info.demo,
      region: info.coverage?.name ?? null,
      data_as_of: info.dataAsOf,
      imported_at: info.importedAt,
      extract: info.sourceFile,
      coverage: info.coverage && { name: info.coverage.name, bounds: info.coverage.bounds },
      counts: { ...counts, places: info.places },
      source_layout: { missing: info.missing, note: missingPartsNote(info.missing) },
      source_fetch: sourceFetch.status(),
      rate_limits: limitSync?.status() ?? REPLICA_SCOPE,
      worker: worker.status(),
      uptime_seconds: Math.floor(process.uptime()),
      transport,
      ...(degraded.length > 0 ? { degraded } : {}),
    };
  };
  server.route({ method: 'GET', pattern: '/status', cors: PUBLIC_CORS, handler: async () => ({ status: 200, headers: NO_STORE, body: JSON.stringify(await status()) }) });

  server.route({
    method: 'GET',
    pattern: '/readyz',
    handler: async () => {
      const { info } = catalog.snapshot;
      if (info.importedAt === null) {
        const why = sourceFetch.waitingReason() ?? 'No toilet data is loaded: run `npm run import -- <extract.osm.pbf or URL>` (or start with TOILETS_EXTRACT set).';
        return problems.reply('unavailable', why, { retryAfterSeconds: READY_RETRY_SECONDS, headers: ['Cache-Control', 'no-store'] });
      }
      const [first] = await degradedNow();
      if (first !== undefined) {
        return problems.reply('unavailable', `The ${first.store} cannot take a write: ${first.trouble}. ${first.refused} are refused until it can; reads go on.`, { retryAfterSeconds: READY_RETRY_SECONDS, headers: ['Cache-Control', 'no-store'] });
      }
      return { status: 200, headers: NO_STORE, body: JSON.stringify({ status: 'ready' }) };
    },
  });
}

/** Every store that cannot take a write now, in the probes' order. */
async function probeAll(probes: readonly StoreProbe[]): Promise<DegradedStore[]> {
  const troubles = await Promise.all(probes.map((probe) => probe.trouble()));
  return probes.flatMap((probe, i) => (troubles[i] === null ? [] : [{ store: probe.store, trouble: troubles[i], refused: probe.refused }]));
}

/** Visible toilets (a moderator's "gone" hides one) from the source and from the community. */
function countToilets(catalog: ToiletCatalog): { toilets: number; community_toilets: number } {
  const table = catalog.snapshot.table;
  let toilets = 0;
  let community = 0;
  for (let row = 0; row < table.count; row++) {
    if (table.traits[row] & Trait.Hidden) continue;
    if (SOURCE_OF_ID_TYPE[table.idType[row]] === 'community') community++;
    else toilets++;
  }
  return { toilets, community_toilets: community };
}
