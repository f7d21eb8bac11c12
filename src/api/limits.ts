// The service's rate limits (spec: Limits): one shared per-IP budget for REST and MCP, the area
// endpoint's own, the basemap tiles' own (not in the spec: tiles are no API operation), the site's overview's own, the sign-in
// and registration attempts' own (src/accounts), and OAuth client registrations' own (src/oauth: clients
// call it from anywhere, so it must not spend the sign-in budget of the addresses they share). Quotas come from the config; policy names and windows
// from the operations registry. With REDIS_URL the tables are clustered: src/cluster shares their counts with the other replicas.
import { FixedWindowRateLimiter } from '../http/rate-limit.js';
import { RATE_LIMIT_POLICIES, type RateLimitPolicy } from '../schemas/operations.js';
import type { Config } from '../config.js';

export interface Limits {
  perIp: FixedWindowRateLimiter;
  areaPerIp: FixedWindowRateLimiter;
  tilesPerIp: FixedWindowRateLimiter;
  overviewPerIp: FixedWindowRateLimiter;
  accountsPerIp: FixedWindowRateLimiter;
  registrationPerIp: FixedWindowRateLimiter;
  /** Requests refused per policy (RATE_LIMIT_POLICY_NAMES order), by every thread: shared memory, for /metrics. */
  refusals: BigInt64Array;
}

/** The limiters among the limits. */
const LIMITERS = ['perIp', 'areaPerIp', 'tilesPerIp', 'overviewPerIp', 'accountsPerIp', 'registrationPerIp'] as const;

/** The policies' names, in the order of Limits.refusals. */
export const RATE_LIMIT_POLICY_NAMES: readonly string[] = Object.values(RATE_LIMIT_POLICIES).map((policy) => policy.name);

/** The limiters' shared counters: limits made over them on another thread count the same budgets. */
export type LimitTables = Record<keyof Limits, SharedArrayBuffer>;

/** Addresses counted exactly for sign-in attempts: far fewer than readers, so a smaller table (3 MiB). */
const ACCOUNT_ATTEMPT_KEYS = 100_000;

type Quotas = Pick<Config, 'redisUrl' | 'rateLimitPerMinute' | 'areaRateLimitPerMinute' | 'tilesRateLimitPerMinute' | 'overviewRateLimitPerMinute' | 'accountRateLimitPerMinute' | 'registrationRateLimitPerMinute'>;

export function createLimits(quotas: Quotas, tables?: LimitTables): Limits {
  const limiter = (policy: RateLimitPolicy, limit: number, table: SharedArrayBuffer | undefined, maxKeys?: number) =>
    new FixedWindowRateLimiter({ name: policy.name, limit, windowSeconds: policy.windowSeconds }, { table, maxKeys, clustered: quotas.redisUrl !== null });
  const { perIp, areaPerIp, tilesPerIp, overviewPerIp, accountsPerIp, registrationPerIp } = RATE_LIMIT_POLICIES;
  return {
    perIp: limiter(perIp, quotas.rateLimitPerMinute, tables?.perIp),
    areaPerIp: limiter(areaPerIp, quotas.areaRateLimitPerMinute, tables?.areaPerIp),
    tilesPerIp: limiter(tilesPerIp, quotas.tilesRateLimitPerMinute, tables?.tilesPerIp),
    overviewPerIp: limiter(overviewPerIp, quotas.overviewRateLimitPerMinute, tables?.overviewPerIp),
    accountsPerIp: limiter(accountsPerIp, quotas.accountRateLimitPerMinute, tables?.accountsPerIp, ACCOUNT_ATTEMPT_KEYS),
    registrationPerIp: limiter(registrationPerIp, quotas.registrationRateLimitPerMinute, tables?.registrationPerIp, ACCOUNT_ATTEMPT_KEYS),
    refusals: new BigInt64Array(tables?.refusals ?? new SharedArrayBuffer(8 * RATE_LIMIT_POLICY_NAMES.length)),
  };
}

export function limitTables(limits: Limits): LimitTables {
  return {
    perIp: limits.perIp.table,
    areaPerIp: limits.areaPerIp.table,
    tilesPerIp: limits.tilesPerIp.table,
    overviewPerIp: limits.overviewPerIp.table,
    accountsPerIp: limits.accountsPerIp.table,
    registrationPerIp: limits.registrationPerIp.table,
    refusals: limits.refusals.buffer as SharedArrayBuffer,
  };
}

/** Counts one refusal under `policy` (any thread: atomic). */
export function countRefusal(limits: Limits, policy: { readonly name: string }): void {
  Atomics.add(limits.refusals, RATE_LIMIT_POLICY_NAMES.indexOf(policy.name), 1n);
}

/** Every limiter among the limits (REDIS_URL: the tables src/cluster reconciles). */
export function allLimiters(limits: Limits): FixedWindowRateLimiter[] {
  return LIMITERS.map((name) => limits[name]);
}

/** The limiter that counts `policy` (a policy of the operations registry). */
export function limiterOf(limits: Limits, policy: RateLimitPolicy): FixedWindowRateLimiter {
  const limiter = LIMITERS.map((name) => limits[name]).find((candidate) => candidate.policy.name === policy.name);
  if (limiter === undefined) throw new Error(`no limiter counts the rate-limit policy ${policy.name}`);
  return limiter;
}
