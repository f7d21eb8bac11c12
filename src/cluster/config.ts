// The cluster's settings (README.md, "Configuration"; docs/SCALING.md): REDIS_URL, the Redis (or Valkey)
// the replicas count their rate limits in together, and WORKER_LEASE_SECONDS, how long the worker lease
// lasts unrenewed. Read from the environment and checked at the start.
import { ConfigError, integer } from '../config-values.js';

export interface ClusterSettings {
  /**
   * REDIS_URL: redis:// or rediss:// (TLS), with an optional user, password and database number; null:
   * each replica counts its rate limits alone. May hold a password: never logged or shown.
   */
  redisUrl: string | null;
  /** WORKER_LEASE_SECONDS in ms: with DATABASE_URL, how soon another replica takes over the background work of one that stopped renewing. */
  workerLeaseMs: number;
}

const EXAMPLE = 'e.g. redis://10.0.0.7:6379 or rediss://:password@redis.internal:6380/2';

export function readClusterSettings(env: NodeJS.ProcessEnv): ClusterSettings {
  return { redisUrl: redisUrlOf(env.REDIS_URL), workerLeaseMs: integer(env, 'WORKER_LEASE_SECONDS', 30, 1, 3600) * 1000 };
}

function redisUrlOf(raw: string | undefined): string | null {
  if (!raw) return null;
  // the value is never repeated: it may hold a password
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null) throw new ConfigError(`REDIS_URL is not a URL: use the address of the Redis or Valkey server the replicas share, ${EXAMPLE}`);
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError(`REDIS_URL uses ${url.protocol.replace(/:$/, '')}, which is not supported: use redis:// (or rediss:// for TLS), ${EXAMPLE}`);
  if (url.hostname === '') throw new ConfigError(`REDIS_URL names no host: ${EXAMPLE}`);
  if (url.search || url.hash) throw new ConfigError(`REDIS_URL has a query or a #fragment, which are not read: remove them, ${EXAMPLE}`);
  if (!/^\/?(\d{1,2})?$/.test(url.pathname)) throw new ConfigError(`REDIS_URL's path must be a database number (0 to 99) or nothing: ${EXAMPLE}`);
  return url.href;
}

/** The URL's host and port only, as logs and /status show it (never its user or password). */
export function redisHost(redisUrl: string): string {
  const url = new URL(redisUrl);
  return `${url.hostname}:${url.port || '6379'}`; // ioredis's default port, with or without TLS
}
