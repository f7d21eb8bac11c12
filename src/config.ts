// Every setting the service reads, from the environment, with its default. README.md lists them; keep
// the two in step. A bad value stops the start with a message naming the variable.
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { OPERATIONS } from './schemas/operations.js';
import { LOG_LEVELS, type LogLevel } from './log.js';

/** Key derivation algorithms of the ALTCHA proof of work this server can verify. */
export const ALTCHA_ALGORITHMS = ['SHA-256', 'SHA-384', 'SHA-512', 'PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512'] as const;
/** Human-check providers (src/community/human-check.ts). */
export const HUMAN_CHECK_PROVIDERS = ['altcha'] as const;

export interface HumanCheckConfig {
  provider: (typeof HUMAN_CHECK_PROVIDERS)[number];
  algorithm: (typeof ALTCHA_ALGORITHMS)[number];
  /** Work per attempt (hash rounds or PBKDF2 iterations). */
  cost: number;
  /** The secret counter lies between half this and this: the attempts a solver needs. */
  maxCounter: number;
  /** How long a challenge may be solved and used. */
  expiresSeconds: number;
}

export interface Config {
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
  /** Sign-in and registration attempts per minute per IP (src/accounts); 0 lifts the limit. */
  accountRateLimitPerMinute: number;
  /** OAuth client registrations (POST /oauth/register) per minute per IP, a budget of their own; 0 lifts it. */
  registrationRateLimitPerMinute: number;
  /** Most stored OAuth clients nobody has authorized yet; registering one more evicts the oldest. */
  oauthPendingClientsMax: number;
  /** How long a signed-in session lasts (docs/SECURITY.md says why these defaults). */
  sessions: SessionLifetimes;
  /** Community contributions and moderation; never touched by an import. */
  overlayDb: string;
  /** Personal and secret data (src/accounts/): opened by the main thread only, never by the dump. */
  accountsDb: string;
  /** false: the five contribution operations answer 503. */
  contributionsEnabled: boolean;
  /**
   * OUTBOUND_ALLOW_PRIVATE: account-event webhooks may go to non-public addresses (and plain http there).
   * Off in production (it would let an OAuth client make this server call into its own network); for a
   * closed network or tests only.
   */
  outboundAllowPrivate: boolean;
  humanCheck: HumanCheckConfig;
  /** The basemap's vector tiles (MBTiles) written by `npm run import -- --tiles`, served at /tiles/. */
  tilesDb: string;
  /** Where `npm run dump` writes the open data dumps and the server serves them from. */
  dumpDir: string;
  /** OpenStreetMap API base (…/api/0.6) for anonymous notes about approved reports; null: notes are off. */
  osmNotesApi: string | null;
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
  /** Prometheus metrics at /metrics (METRICS); off, nothing is counted and /metrics is not served. */
  metrics: boolean;
  /**
   * Client addresses (after TRUST_PROXY, as the rate limit sees them) that may read /metrics, as CIDR
   * blocks (METRICS_ALLOW). Default: loopback, or none at all while TRUST_PROXY > 0.
   */
  metricsAllow: string[];
  /** One JSON line per request (ACCESS_LOG). */
  accessLog: boolean;
  /** Share of access lines kept, 0..1; refusals are always kept (ACCESS_LOG_SAMPLE). */
  accessLogSample: number;
  /** Adds the client address as a daily keyed hash (ACCESS_LOG_CLIENT). */
  accessLogClient: boolean;
  /** Partner payments through Stripe (src/billing); null while STRIPE_SECRET_KEY is unset: the billing operations answer 503. */
  billing: BillingConfig | null;
}

/** STRIPE_* and the billing rules (README.md, "Partner payments"). Secrets: never logged, never answered. */
export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  /** Stripe price id per partner tier: net monthly prices (tax_behavior exclusive). */
  prices: { basic: string; plus: string };
  /** Stripe Tax adds VAT from the customer's address (STRIPE_AUTOMATIC_TAX, default on). */
  automaticTax: boolean;
  /** STRIPE_API_BASE: another API server (the stand-in, dev/stripe-stand-in) with a test key on loopback only. */
  apiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
  /** How long a call to Stripe may take before it counts as not answering (502). */
  timeoutMs: number;
  /** A checkout session expires this long after it is made (Stripe allows 30 minutes to 24 hours). */
  checkoutExpiryMinutes: number;
  /** A past-due subscription keeps its plan running this many days from the start of the unpaid period. */
  pastDueGraceDays: number;
}

/** Where a replica fetches its source files from, and how (README.md, "Configuration"; docs/SCALING.md). */
export interface SourceFetchConfig {
  /** The published source database (http or https, credentials and query allowed); null: none, import locally. */
  toiletsUrl: string | null;
  /** The published tiles file; null: none. */
  tilesUrl: string | null;
  /** Seconds between two checks of each published file's checksum (SOURCE_POLL_SECONDS). */
  pollSeconds: number;
  /** A transfer that sends nothing for this long is given up (SOURCE_FETCH_TIMEOUT_MS). */
  timeoutMs: number;
  /** A file larger than this is refused (SOURCE_FETCH_MAX_MB, in bytes here). */
  maxBytes: number;
}

/** Idle (since the last request) and absolute (since sign-in) ends of a session, in milliseconds. */
export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
  /** Moderators' sessions, shorter: a stolen one can change what everyone sees. */
  moderatorIdleMs: number;
  moderatorAbsoluteMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const toiletsDb = env.TOILETS_DB || 'data/toilets.db';
  const overlayDb = env.OVERLAY_DB || join(dirname(toiletsDb), 'overlay.db');
  const trustProxy = integer(env, 'TRUST_PROXY', 0, 0, 10);
  const accountRateLimitPerMinute = integer(env, 'ACCOUNT_RATE_LIMIT_PER_MINUTE', 10, 0, 1e9);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: baseUrl(env.BASE_URL || `http://localhost:${port}`),
    baseUrlIsDefault: !env.BASE_URL,
    toiletsDb,
    toiletsExtract: env.TOILETS_EXTRACT || null,
    sourceFetch: sourceFetchConfig(env),
    httpThreads: integer(env, 'HTTP_THREADS', availableParallelism(), 1, 64),
    trustProxy,
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 60, 0, 1e9),
    areaRateLimitPerMinute: integer(env, 'AREA_RATE_LIMIT_PER_MINUTE', 300, 0, 1e9),
    tilesRateLimitPerMinute: integer(env, 'TILES_RATE_LIMIT_PER_MINUTE', 1200, 0, 1e9),
    overviewRateLimitPerMinute: integer(env, 'OVERVIEW_RATE_LIMIT_PER_MINUTE', 1200, 0, 1e9),
    geocoder: readGeocoderConfig(env),
    nearestMaxDistanceM: integer(env, 'NEAREST_MAX_DISTANCE_M', 50_000, 1, 20_000_000),
    areaCacheSeconds: integer(env, 'AREA_CACHE_SECONDS', 300, 0, 300),
    deprecated: deprecations(env.DEPRECATED_OPERATIONS),
    accountRateLimitPerMinute,
    registrationRateLimitPerMinute: integer(env, 'OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE', accountRateLimitPerMinute, 0, 1e9),
    oauthPendingClientsMax: integer(env, 'OAUTH_PENDING_CLIENTS_MAX', 10_000, 1, 10_000_000),
    sessions: sessionLifetimes(env),
    overlayDb,
    accountsDb: accountsDb(env, overlayDb, toiletsDb),
    contributionsEnabled: boolean(env, 'CONTRIBUTIONS_ENABLED', true),
    outboundAllowPrivate: boolean(env, 'OUTBOUND_ALLOW_PRIVATE', false),
    humanCheck: {
      provider: oneOf(env, 'HUMAN_CHECK', HUMAN_CHECK_PROVIDERS, 'altcha'),
      algorithm: oneOf(env, 'ALTCHA_ALGORITHM', ALTCHA_ALGORITHMS, 'PBKDF2/SHA-256'),
      cost: integer(env, 'ALTCHA_COST', 5000, 1, 1_000_000),
      maxCounter: integer(env, 'ALTCHA_MAX_COUNTER', 10_000, 2, 10_000_000),
      expiresSeconds: integer(env, 'ALTCHA_EXPIRES_SECONDS', 1200, 10, 86_400),
    },
    // importer/cli.ts writes here by default too
    tilesDb: env.TILES_DB || join(dirname(toiletsDb), 'tiles.mbtiles'),
    dumpDir: env.DUMP_DIR || join(dirname(toiletsDb), 'dumps'),
    osmNotesApi: env.OSM_NOTES_API ? baseUrl(env.OSM_NOTES_API, 'OSM_NOTES_API') : null,
    mcpAllowedOrigins: originHostnames(env.MCP_ALLOWED_ORIGINS),
    mcpFastPath: boolean(env, 'MCP_FAST_PATH', true),
    mapStyleUrl: styleUrl(env.MAP_STYLE_URL),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    metrics: boolean(env, 'METRICS', true),
    metricsAllow: metricsAllow(env.METRICS_ALLOW, trustProxy),
    accessLog: boolean(env, 'ACCESS_LOG', true),
    accessLogSample: fraction(env, 'ACCESS_LOG_SAMPLE', 1),
    accessLogClient: boolean(env, 'ACCESS_LOG_CLIENT', false),
    billing: billingConfig(env),
  };
}

function sourceFetchConfig(env: NodeJS.ProcessEnv): SourceFetchConfig {
  const toiletsUrl = publishedFileUrl(env, 'TOILETS_DB_URL');
  if (toiletsUrl !== null && env.TOILETS_EXTRACT) throw new ConfigError('TOILETS_DB_URL and TOILETS_EXTRACT are both set: a replica fetches the source database the import job publishes and imports nothing; unset TOILETS_EXTRACT (set it on the import job instead)');
  return {
    toiletsUrl,
    tilesUrl: publishedFileUrl(env, 'TILES_DB_URL'),
    pollSeconds: integer(env, 'SOURCE_POLL_SECONDS', 60, 1, 86_400),
    timeoutMs: integer(env, 'SOURCE_FETCH_TIMEOUT_MS', 30_000, 100, 600_000),
    maxBytes: integer(env, 'SOURCE_FETCH_MAX_MB', 16_384, 1, 1_048_576) * 1_048_576,
  };
}

/** An http(s) URL of a published file. The value is never repeated in a message: it may hold a password or a token. */
function publishedFileUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  if (!raw) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  const example = 'e.g. http://10.0.0.5:8081/toilets.db (credentials as https://user:password@host/…)';
  if (url === null) throw new ConfigError(`${name} is not a URL: use the address the import job publishes the file at, ${example}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} uses ${url.protocol.replace(/:$/, '')}, which the fetch does not support: use an http:// or https:// address, ${example}`);
  if (url.hash) throw new ConfigError(`${name} has a #fragment, which is never sent to a server: remove it`);
  if (url.pathname === '/' || url.pathname.endsWith('/')) throw new ConfigError(`${name} names a folder, not a file: add the file's name, ${example}`);
  return url.href;
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]', '::1'];

function billingConfig(env: NodeJS.ProcessEnv): BillingConfig | null {
  const secretKey = env.STRIPE_SECRET_KEY || null;
  if (secretKey === null) {
    const stray = ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_BASIC', 'STRIPE_PRICE_PLUS', 'STRIPE_API_BASE'].filter((name) => env[name]);
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set without STRIPE_SECRET_KEY: set the secret key too (partner payments stay off without it), or unset them`);
    return null;
  }
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(secretKey)) throw new ConfigError('STRIPE_SECRET_KEY is not a Stripe secret key: use the sk_live_… or sk_test_… key (or a restricted rk_… key) from the Stripe dashboard, API keys');
  const required = (name: string, pattern: RegExp, what: string) => {
    const value = env[name];
    if (!value) throw new ConfigError(`${name} is not set: partner payments (STRIPE_SECRET_KEY is set) need it; ${what}`);
    if (!pattern.test(value)) throw new ConfigError(`${name} is not valid: ${what}`);
    return value;
  };
  const webhookSecret = required('STRIPE_WEBHOOK_SECRET', /^whsec_[A-Za-z0-9_]+$/, "use the endpoint's signing secret (whsec_…) from the Stripe dashboard, Webhooks");
  const basic = required('STRIPE_PRICE_BASIC', /^price_[A-Za-z0-9_]+$/, 'use the id (price_…) of the monthly net price of the basic tier');
  const plus = required('STRIPE_PRICE_PLUS', /^price_[A-Za-z0-9_]+$/, 'use the id (price_…) of the monthly net price of the plus tier');
  if (basic === plus) throw new ConfigError('STRIPE_PRICE_BASIC and STRIPE_PRICE_PLUS are the same price: each tier needs its own, or a subscription could not tell its tier');
  return {
    secretKey,
    webhookSecret,
    prices: { basic, plus },
    automaticTax: boolean(env, 'STRIPE_AUTOMATIC_TAX', true),
    apiBase: stripeApiBase(env.STRIPE_API_BASE, secretKey),
    timeoutMs: integer(env, 'STRIPE_TIMEOUT_MS', 10_000, 500, 60_000),
    checkoutExpiryMinutes: integer(env, 'CHECKOUT_EXPIRY_MINUTES', 30, 30, 1440),
    pastDueGraceDays: integer(env, 'PAST_DUE_GRACE_DAYS', 7, 0, 60),
  };
}

/** STRIPE_API_BASE: for the stand-in only, so a live key can never be sent elsewhere than to Stripe. */
function stripeApiBase(raw: string | undefined, secretKey: string): BillingConfig['apiBase'] {
  if (!raw) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ConfigError(`STRIPE_API_BASE=${raw} is not valid: use the origin of a Stripe stand-in such as http://127.0.0.1:12111 (npm run stripe-stand-in)`);
  }
  if (!secretKey.startsWith('sk_test_')) throw new ConfigError('STRIPE_API_BASE is set with a key that is not a test key (sk_test_…): another API server is for trials with test keys only; unset STRIPE_API_BASE to use Stripe');
  if (!LOOPBACK_HOSTS.includes(url.hostname)) throw new ConfigError(`STRIPE_API_BASE=${raw} is not on this machine: the stand-in must listen on loopback (127.0.0.1, ::1 or localhost)`);
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return { protocol, host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port === '' ? (protocol === 'https' ? 443 : 80) : Number(url.port) };
}

export class ConfigError extends Error {}

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
export const RETIRED_SETTINGS: readonly RetiredSetting[] = [];

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

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${raw} is not valid: use a whole number from ${min} to ${max} (default ${fallback})`);
  }
  return value;
}

const HOUR_MS = 3_600_000;

/** SESSION_IDLE_HOURS etc.; an idle end longer than the absolute one is a mistake worth saying. */
function sessionLifetimes(env: NodeJS.ProcessEnv): SessionLifetimes {
  const pair = (idleName: string, idleHours: number, absoluteName: string, absoluteHours: number) => {
    const idle = integer(env, idleName, idleHours, 1, 24 * 366);
    const absolute = integer(env, absoluteName, absoluteHours, 1, 24 * 366);
    if (idle > absolute) throw new ConfigError(`${idleName}=${idle} is longer than ${absoluteName}=${absolute}: a session ends at the absolute end whatever its use; make the idle end shorter`);
    return [idle * HOUR_MS, absolute * HOUR_MS];
  };
  const [idleMs, absoluteMs] = pair('SESSION_IDLE_HOURS', 14 * 24, 'SESSION_ABSOLUTE_HOURS', 30 * 24);
  const [moderatorIdleMs, moderatorAbsoluteMs] = pair('MODERATOR_SESSION_IDLE_HOURS', 12, 'MODERATOR_SESSION_ABSOLUTE_HOURS', 7 * 24);
  return { idleMs, absoluteMs, moderatorIdleMs, moderatorAbsoluteMs };
}

/** ACCOUNTS_DB, beside the overlay database by default; never the same file as another database. */
function accountsDb(env: NodeJS.ProcessEnv, overlayDb: string, toiletsDb: string): string {
  const fallback = join(dirname(overlayDb), 'accounts.db');
  const path = env.ACCOUNTS_DB || fallback;
  for (const [name, other] of [['OVERLAY_DB', overlayDb], ['TOILETS_DB', toiletsDb]]) {
    if (resolve(path) === resolve(other)) throw new ConfigError(`ACCOUNTS_DB=${path} is the file ${name} names: personal data needs a database of its own (default ${fallback})`);
  }
  return path;
}

function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new ConfigError(`${name}=${raw} is not valid: use a number from 0 to 1, e.g. 0.01 for one in a hundred (default ${fallback})`);
  return value;
}

/**
 * METRICS_ALLOW="10.0.0.0/8,192.0.2.7,::1": addresses and CIDR blocks, as `address/prefix`. Unset, loopback
 * only; but behind a proxy (TRUST_PROXY > 0) loopback is the proxy itself, which may pass on anyone's
 * request, so then nothing until the operator names the scrapers' addresses. `none` allows no one.
 */
function metricsAllow(raw: string | undefined, trustProxy: number): string[] {
  if (raw === undefined || raw.trim() === '') return trustProxy > 0 ? [] : ['127.0.0.0/8', '::1/128'];
  if (raw.trim() === 'none') return [];
  return raw.split(',').map((item) => {
    const entry = item.trim();
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const length = prefix === undefined ? bits : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (family === 0 || extra !== undefined || !(length >= 0 && length <= bits)) {
      throw new ConfigError(`METRICS_ALLOW item "${entry}" is not valid: use IP addresses or CIDR blocks such as 10.0.0.0/8 or 2001:db8::/32, comma-separated, or none`);
    }
    return `${address}/${length}`;
  });
}

function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name}=${raw} is not valid: use true or false (default ${fallback})`);
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!values.includes(raw as T)) throw new ConfigError(`${name}=${raw} is not valid: use one of ${values.join(', ')} (default ${fallback})`);
  return raw as T;
}

function baseUrl(raw: string, name = 'BASE_URL'): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name}=${raw} is not a URL: use e.g. https://toilets.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name}=${raw} must start with http:// or https://`);
  if (url.search || url.hash) throw new ConfigError(`${name}=${raw} must not carry a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** MAP_STYLE_URL: an http(s) URL of a style JSON; its origin joins the pages' CSP (src/web/csp.ts). */
function styleUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
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
