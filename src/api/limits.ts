// The service's rate limits (spec: Limits): one shared per-IP budget for REST and MCP, the area
// endpoint's own, and the basemap tiles' own (not in the spec: tiles are no API operation). Quotas come from the config; policy names and windows from the operations registry.
import { FixedWindowRateLimiter } from '../http/rate-limit.js';
import { RATE_LIMIT_POLICIES, type RateLimitPolicy } from '../schemas/operations.js';

export interface Limits {
  perIp: FixedWindowRateLimiter;
  areaPerIp: FixedWindowRateLimiter;
  tilesPerIp: FixedWindowRateLimiter;
  /** Requests refused per policy (RATE_LIMIT_POLICY_NAMES order), by every thread: shared memory, for /metrics. */
  refusals: BigInt64Array;
}

/** The limiters' shared counters: limits made over them on another thread count the same budgets. */
export interface LimitTables {
  perIp: SharedArrayBuffer;
  areaPerIp: SharedArrayBuffer;
  tilesPerIp: SharedArrayBuffer;
  refusals: SharedArrayBuffer;
}

/** The policies' names, in the order of Limits.refusals. */
export const RATE_LIMIT_POLICY_NAMES: readonly string[] = Object.values(RATE_LIMIT_POLICIES).map((policy) => policy.name);

export function createLimits(perMinute: number, areaPerMinute: number, tilesPerMinute: number, tables?: LimitTables): Limits {
  const { perIp, areaPerIp, tilesPerIp } = RATE_LIMIT_POLICIES;
  return {
    perIp: new FixedWindowRateLimiter({ name: perIp.name, limit: perMinute, windowSeconds: perIp.windowSeconds }, { table: tables?.perIp }),
    areaPerIp: new FixedWindowRateLimiter({ name: areaPerIp.name, limit: areaPerMinute, windowSeconds: areaPerIp.windowSeconds }, { table: tables?.areaPerIp }),
    tilesPerIp: new FixedWindowRateLimiter({ name: tilesPerIp.name, limit: tilesPerMinute, windowSeconds: tilesPerIp.windowSeconds }, { table: tables?.tilesPerIp }),
    refusals: new BigInt64Array(tables?.refusals ?? new SharedArrayBuffer(8 * RATE_LIMIT_POLICY_NAMES.length)),
  };
}

export function limitTables(limits: Limits): LimitTables {
  return { perIp: limits.perIp.table, areaPerIp: limits.areaPerIp.table, tilesPerIp: limits.tilesPerIp.table, refusals: limits.refusals.buffer as SharedArrayBuffer };
}

/** Counts one refusal under `policy` (any thread: atomic). */
export function countRefusal(limits: Limits, policy: { readonly name: string }): void {
  Atomics.add(limits.refusals, RATE_LIMIT_POLICY_NAMES.indexOf(policy.name), 1n);
}

/** The limiter that counts `policy` (a policy of the operations registry). */
export function limiterOf(limits: Limits, policy: RateLimitPolicy): FixedWindowRateLimiter {
  const limiter = [limits.perIp, limits.areaPerIp, limits.tilesPerIp].find((candidate) => candidate.policy.name === policy.name);
  if (limiter === undefined) throw new Error(`no limiter counts the rate-limit policy ${policy.name}`);
  return limiter;
}
