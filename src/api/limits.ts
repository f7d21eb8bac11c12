// The service's rate limits (spec: Limits): one shared per-IP budget for REST and MCP, the area
// endpoint's own, and the basemap tiles' own (not in the spec: tiles are no API operation). Quotas come from the config; policy names and windows from the operations registry.
import { FixedWindowRateLimiter } from '../http/rate-limit.js';
import { RATE_LIMIT_POLICIES, type RateLimitPolicy } from '../schemas/operations.js';

export interface Limits {
  perIp: FixedWindowRateLimiter;
  areaPerIp: FixedWindowRateLimiter;
  tilesPerIp: FixedWindowRateLimiter;
}

/** The limiters' shared counters: limits made over them on another thread count the same budgets. */
export interface LimitTables {
  perIp: SharedArrayBuffer;
  areaPerIp: SharedArrayBuffer;
  tilesPerIp: SharedArrayBuffer;
}

export function createLimits(perMinute: number, areaPerMinute: number, tilesPerMinute: number, tables?: LimitTables): Limits {
  const { perIp, areaPerIp, tilesPerIp } = RATE_LIMIT_POLICIES;
  return {
    perIp: new FixedWindowRateLimiter({ name: perIp.name, limit: perMinute, windowSeconds: perIp.windowSeconds }, { table: tables?.perIp }),
    areaPerIp: new FixedWindowRateLimiter({ name: areaPerIp.name, limit: areaPerMinute, windowSeconds: areaPerIp.windowSeconds }, { table: tables?.areaPerIp }),
    tilesPerIp: new FixedWindowRateLimiter({ name: tilesPerIp.name, limit: tilesPerMinute, windowSeconds: tilesPerIp.windowSeconds }, { table: tables?.tilesPerIp }),
  };
}

export function limitTables(limits: Limits): LimitTables {
  return { perIp: limits.perIp.table, areaPerIp: limits.areaPerIp.table, tilesPerIp: limits.tilesPerIp.table };
}

/** The limiter that counts `policy` (a policy of the operations registry). */
export function limiterOf(limits: Limits, policy: RateLimitPolicy): FixedWindowRateLimiter {
  const limiter = Object.values(limits).find((candidate) => candidate.policy.name === policy.name);
  if (limiter === undefined) throw new Error(`no limiter counts the rate-limit policy ${policy.name}`);
  return limiter;
}
