// Every setting the service reads, from the environment, with its default. README.md lists them; keep
// the two in step. A bad value stops the start with a message naming the variable.

export interface Config {
  port: number;
  host: string;
  /** Origin (and optional path) every absolute URL the service emits starts with; no trailing slash. */
  baseUrl: string;
  /** The source database written by `npm run import`. */
  toiletsDb: string;
  /** Extract (path or URL) imported at start when the source database is missing or empty. */
  toiletsExtract: string | null;
  /** How many proxy hops to trust for X-Forwarded-For; 0 uses the socket address. */
  trustProxy: number;
  /** Requests per minute per IP for REST and MCP together; 0 lifts the limit (benchmarks only). */
  rateLimitPerMinute: number;
  /** Requests per minute per IP for listToiletsInArea; 0 lifts the limit. */
  areaRateLimitPerMinute: number;
  /** Nearest search looks no farther than this. */
  nearestMaxDistanceM: number;
  /** Server-side cache lifetime of area answers; 0 turns the cache off. */
  areaCacheSeconds: number;
  /** operationIds announced as deprecated: they get Deprecation/Sunset headers and `deprecated` in OpenAPI. */
  deprecated: { operationId: string; deprecation: Date; sunset: Date }[];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: baseUrl(env.BASE_URL || `http://localhost:${port}`),
    toiletsDb: env.TOILETS_DB || 'data/toilets.db',
    toiletsExtract: env.TOILETS_EXTRACT || null,
    trustProxy: integer(env, 'TRUST_PROXY', 0, 0, 10),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 60, 0, 1e9),
    areaRateLimitPerMinute: integer(env, 'AREA_RATE_LIMIT_PER_MINUTE', 300, 0, 1e9),
    nearestMaxDistanceM: integer(env, 'NEAREST_MAX_DISTANCE_M', 50_000, 1, 20_000_000),
    areaCacheSeconds: integer(env, 'AREA_CACHE_SECONDS', 300, 0, 300),
    deprecated: deprecations(env.DEPRECATED_OPERATIONS),
  };
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${raw} is not valid: use a whole number from ${min} to ${max} (default ${fallback})`);
  }
  return value;
}

function baseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`BASE_URL=${raw} is not a URL: use e.g. https://toilets.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`BASE_URL=${raw} must start with http:// or https://`);
  if (url.search || url.hash) throw new ConfigError(`BASE_URL=${raw} must not carry a query or fragment`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
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
    return { operationId: match[1], deprecation, sunset };
  });
}
