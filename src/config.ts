// Every setting the service reads, from the environment, with its default: the service's own here, each
// feature's in its folder's config.ts (read with the parsers of config-values.ts), named by its slice
// (src/features.ts), so a feature's new setting touches its folder only. README.md lists them; keep the
// two in step. A bad value stops the start with a message naming the variable.
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { OPERATIONS } from './operations.js';
import { LOG_LEVELS, type LogLevel } from './log.js';
import { baseUrl, boolean, ConfigError, httpUrl, integer, oneOf, postgresUrl, type PostgresUrl } from './config-values.js';
import { readSourceFetchConfig, type SourceFetchConfig } from './source-fetch/config.js';
import { FEATURES } from './features.js';
import type { FeatureSlice, ServiceSettings, SettingsReader } from './feature.js';

export { ConfigError, postgresUrl, type PostgresUrl };

/**
 * Every setting: the service's own (CoreConfig) and each feature's, the part its slice's reader returns
 * (FeatureSlice.settings), typed as that reader types it.
 */
export type Config = CoreConfig & SettingsOf<(typeof FEATURES)[number]>;

/** The settings the readers of `slices` return, as one type (an intersection of each reader's part). */
export type SettingsOf<S extends FeatureSlice> = PartsTogether<ReturnType<Extract<S, { readonly settings: SettingsReader }>['settings']>>;
type PartsTogether<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer All) => void ? All : never;

/** The settings of the service as a whole: where it listens, its data, its limits, its reads. */
export interface CoreConfig {
  port: number;
  host: string;
  /** Origin (and optional path) every absolute URL the service emits starts with; no trailing slash. */
  baseUrl: string;
  /** BASE_URL was not set: baseUrl is http://localhost:$PORT (main.ts warns when the server listens beyond loopback). */
  baseUrlIsDefault: boolean;
  /** The source database written by `npm run import`. */
  toiletsDb: string;
  /** Extract (path or URL) imported at start when the source database is missing or empty. */
  toiletsExtract: string | null;
  /** TOILETS_DB_URL, TILES_DB_URL: files an import job publishes, fetched into TOILETS_DB and TILES_DB (src/source-fetch). */
  sourceFetch: SourceFetchConfig;
  /**
   * Threads listening on the port (default: one per core). Each answers the public reads itself; the
   * others pass every other request to the main thread (src/threads/).
   */
  httpThreads: number;
  /**
   * HTTP_TRANSPORT: what serves the socket (src/http/transport-choice.ts): uWebSockets.js, node:http, or
   * `auto` (uWS where a native binary loads for this Node and platform). createApp puts the one chosen here.
   */
  httpTransport: HttpTransportSetting;
  /** How many proxy hops to trust for X-Forwarded-For; 0 uses the socket address. */
  trustProxy: number;
  /** Requests per minute per IP for REST and MCP together; 0 lifts the limit (benchmarks only). */
  rateLimitPerMinute: number;
  /** Requests per minute per IP for listToiletsInArea; 0 lifts the limit. */
  areaRateLimitPerMinute: number;
  /** Requests per minute per IP for the basemap tiles (/tiles/); 0 lifts the limit. */
  tilesRateLimitPerMinute: number;
  /** Requests per minute per IP for the site's overview (/overview/); 0 lifts the limit. */
  overviewRateLimitPerMinute: number;
  /** Optional remote geocoder for place names the embedded lookup does not know (GEOCODER_URL, _MODE, _TIMEOUT_MS). */
  geocoder: GeocoderConfig;
  /** Nearest search looks no farther than this. */
  nearestMaxDistanceM: number;
  /** Server-side cache lifetime of area answers; 0 turns the cache off. */
  areaCacheSeconds: number;
  /** operationIds announced as deprecated: they get Deprecation/Sunset headers and `deprecated` in OpenAPI. */
  deprecated: { operationId: string; deprecation: Date; sunset: Date }[];
  /** Community contributions and moderation; never touched by an import. */
  overlayDb: string;
  /** DATABASE_URL: the PostgreSQL database the stores src/stores.ts lists keep their data in; null: SQLite files only. */
  database: PostgresUrl | null;
  /** DUMP_DATABASE_URL: the role `npm run dump` reads the overlay schema as (one that cannot read accounts); null: DATABASE_URL's. */
  dumpDatabase: PostgresUrl | null;
  /**
   * OUTBOUND_ALLOW_PRIVATE: account-event webhooks may go to non-public addresses (and plain http there).
   * Off in production (it would let an OAuth client make this server call into its own network); for a
   * closed network or tests only.
   */
  outboundAllowPrivate: boolean;
  /** The basemap's vector tiles (MBTiles) written by `npm run import -- --tiles`, served at /tiles/. */
  tilesDb: string;
  /** Hostnames whose browser pages may call /mcp (checked against the Origin header); null admits any. */
  mcpAllowedOrigins: string[] | null;
  /**
   * MCP_FAST_PATH: fully valid tool calls and pings answered without the SDK, byte for byte as it would
   * (src/mcp/fast-path.ts); off, the SDK answers every /mcp request (a switch for operators and the bench).
   */
  mcpFastPath: boolean;
  /** MAP_STYLE_URL: an external MapLibre style the site's map uses when this server has no tiles; null: list only then. */
  mapStyleUrl: string | null;
  /** The least level logged (LOG_LEVEL). */
  logLevel: LogLevel;
}

export const HTTP_TRANSPORTS = ['auto', 'uws', 'node'] as const;
export type HttpTransportSetting = (typeof HTTP_TRANSPORTS)[number];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const toiletsDb = env.TOILETS_DB || 'data/toilets.db';
  const overlayDb = env.OVERLAY_DB || join(dirname(toiletsDb), 'overlay.db');
  const trustProxy = integer(env, 'TRUST_PROXY', 0, 0, 10);
  const core: CoreConfig = {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: baseUrl(env.BASE_URL || `http://localhost:${port}`),
    baseUrlIsDefault: !env.BASE_URL,
    toiletsDb,
    toiletsExtract: env.TOILETS_EXTRACT || null,
    sourceFetch: readSourceFetchConfig(env),
    httpThreads: integer(env, 'HTTP_THREADS', availableParallelism(), 1, 64),
    httpTransport: oneOf(env, 'HTTP_TRANSPORT', HTTP_TRANSPORTS, 'auto'),
    trustProxy,
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 60, 0, 1e9),
    areaRateLimitPerMinute: integer(env, 'AREA_RATE_LIMIT_PER_MINUTE', 300, 0, 1e9),
    tilesRateLimitPerMinute: integer(env, 'TILES_RATE_LIMIT_PER_MINUTE', 1200, 0, 1e9),
    overviewRateLimitPerMinute: integer(env, 'OVERVIEW_RATE_LIMIT_PER_MINUTE', 1200, 0, 1e9),
    geocoder: readGeocoderConfig(env),
    nearestMaxDistanceM: integer(env, 'NEAREST_MAX_DISTANCE_M', 50_000, 1, 20_000_000),
    areaCacheSeconds: integer(env, 'AREA_CACHE_SECONDS', 300, 0, 300),
    deprecated: deprecations(env.DEPRECATED_OPERATIONS),
    overlayDb,
    database: postgresUrl(env.DATABASE_URL),
    dumpDatabase: postgresUrl(env.DUMP_DATABASE_URL, 'DUMP_DATABASE_URL'),
    outboundAllowPrivate: boolean(env, 'OUTBOUND_ALLOW_PRIVATE', false),
    // importer/cli.ts writes here by default too
    tilesDb: env.TILES_DB || join(dirname(toiletsDb), 'tiles.mbtiles'),
    mcpAllowedOrigins: originHostnames(env.MCP_ALLOWED_ORIGINS),
    mcpFastPath: boolean(env, 'MCP_FAST_PATH', true),
    mapStyleUrl: styleUrl(env.MAP_STYLE_URL),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
  };
  return { ...core, ...featureSettings(FEATURES, env, core) };
}

/**
 * The settings of every slice with a reader, in the list's order, as one object. Two features naming the
 * same property is a mistake of the assembly (one would silently win), said at once.
 */
export function featureSettings<S extends FeatureSlice>(slices: readonly S[], env: NodeJS.ProcessEnv, service: ServiceSettings & object): SettingsOf<S> {
  const settings: Record<string, unknown> = {};
  const owners = new Map<string, string>(Object.keys(service).map((name) => [name, 'the service']));
  for (const slice of slices) {
    for (const [name, value] of Object.entries(slice.settings?.(env, service) ?? {})) {
      const owner = owners.get(name);
      if (owner !== undefined) throw new Error(`${owner} and the feature ${slice.name} both have a setting named ${name}`);
      owners.set(name, `the feature ${slice.name}`);
      settings[name] = value;
    }
  }
  return settings as SettingsOf<S>;
}

/** A setting an earlier release read and this one does not: what the operator does instead. */
export interface RetiredSetting {
  name: string;
  /** The release that retired it (CHANGELOG.md, its "Upgrading" section). */
  since: string;
  /** What to do instead, as the log line ends: a setting that replaces it, or why none is needed. */
  instead: string;
  /** A value earlier releases accepted (test/upgrade starts the previous release with it set). */
  example: string;
}

/**
 * Settings earlier releases read and this one ignores. A start with one of them set does not fail: it logs
 * one warning per setting saying what to do. Retiring a setting is adding its row here and its line under
 * the release's "Upgrading" in CHANGELOG.md (test/upgrade checks both).
 */
export const RETIRED_SETTINGS: readonly RetiredSetting[] = [
  {
    name: 'UWS_ALLOW_FALLBACK',
    since: '0.2.0',
    instead: "HTTP_TRANSPORT chooses the transport now (default auto: uWebSockets.js where its native binary loads, node:http otherwise; uWS's slow JavaScript fallback never serves)",
    example: '1',
  },
];

/** The warning for each retired setting `env` sets (empty counts as unset, as for every setting). */
export function retiredSettingWarnings(env: NodeJS.ProcessEnv, retired: readonly RetiredSetting[] = RETIRED_SETTINGS): string[] {
  return retired
    .filter(({ name }) => env[name] !== undefined && env[name] !== '')
    .map(({ name, since, instead }) => `${name} is set but was retired in ${since} and is ignored: ${instead}; remove it from the environment (CHANGELOG.md, "Upgrading")`);
}

export const GEOCODER_MODES = ['fallback', 'first'] as const;
export type GeocoderMode = (typeof GEOCODER_MODES)[number];

export interface GeocoderConfig {
  /** GEOCODER_URL: a Nominatim root or /search endpoint, or a Photon /api endpoint; null for none. */
  url: string | null;
  /** GEOCODER_MODE, default fallback. */
  mode: GeocoderMode;
  /** GEOCODER_TIMEOUT_MS, default 2000. */
  timeoutMs: number;
}

export function readGeocoderConfig(env: NodeJS.ProcessEnv = process.env): GeocoderConfig {
  const url = env.GEOCODER_URL || null;
  if (url !== null && !/^https?:\/\//.test(url)) throw new ConfigError(`GEOCODER_URL=${url} must start with http:// or https://`);
  return { url, mode: oneOf(env, 'GEOCODER_MODE', GEOCODER_MODES, 'fallback'), timeoutMs: integer(env, 'GEOCODER_TIMEOUT_MS', 2000, 1, 60_000) };
}

/** MAP_STYLE_URL: an http(s) URL of a style JSON; its origin joins the pages' CSP (src/web/csp.ts). */
function styleUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  const url = httpUrl(raw);
  if (url === null) {
    throw new ConfigError(`MAP_STYLE_URL=${raw} is not an http(s) URL: use the address of a MapLibre style JSON, e.g. https://tiles.example.org/styles/basic/style.json`);
  }
  return url.href;
}

/** DEPRECATED_OPERATIONS="getToilet@2027-01-01/2027-06-30,..." (operationId@deprecation-date/sunset-date). */
function deprecations(raw: string | undefined): Config['deprecated'] {
  if (!raw) return [];
  return raw.split(',').map((item) => {
    const match = /^\s*([A-Za-z]+)@(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})\s*$/.exec(item);
    const deprecation = match && new Date(`${match[2]}T00:00:00Z`);
    const sunset = match && new Date(`${match[3]}T23:59:59Z`);
    if (!match || !deprecation || !sunset || Number.isNaN(deprecation.getTime()) || Number.isNaN(sunset.getTime()) || sunset < deprecation) {
      throw new ConfigError(`DEPRECATED_OPERATIONS item "${item}" is not valid: use operationId@YYYY-MM-DD/YYYY-MM-DD (deprecation date, then a sunset date not before it)`);
    }
    if (!OPERATIONS.some((operation) => operation.operationId === match[1])) {
      throw new ConfigError(`DEPRECATED_OPERATIONS names ${match[1]}, which this service does not serve; use one of ${OPERATIONS.map((o) => o.operationId).join(', ')}`);
    }
    return { operationId: match[1], deprecation, sunset };
  });
}

/**
 * MCP_ALLOWED_ORIGINS="chatgpt.com,https://claude.ai": hostnames, or origins whose hostname counts.
 * Empty or "*" admits any origin (the public endpoint is read-only).
 */
function originHostnames(raw: string | undefined): string[] | null {
  if (!raw || raw.trim() === '*') return null;
  return raw.split(',').map((item) => {
    const entry = item.trim();
    let hostname: string | null = null;
    try {
      hostname = new URL(entry.includes('://') ? entry : `https://${entry}`).hostname;
    } catch {
      hostname = null;
    }
    if (!hostname || (!entry.includes('://') && hostname !== entry.toLowerCase())) {
      throw new ConfigError(`MCP_ALLOWED_ORIGINS item "${entry}" is not valid: use hostnames or origins such as chatgpt.com or https://claude.ai, comma-separated, or * for any`);
    }
    return hostname;
  });
}
