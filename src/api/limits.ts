// The service's rate limits (spec: Limits): one limiter per budget the slices declare (src/operations.ts,
// RATE_LIMITS): the shared per-IP budget of REST and MCP, the area endpoint's own, and each feature's own
// (its folder's rate-limit policies). Quotas come from the settings each budget names; policy names and
// windows from the budgets. The tables are shared memory, so the read threads count the same budgets; with
// REDIS_URL they are clustered: src/cluster shares their counts with the other replicas.
import { FixedWindowRateLimiter } from '../http/rate-limit.js';
import type { RateLimitBudget, RateLimitPolicy } from '../schemas/operations.js';
import type { Config } from '../config.js';

export interface Limits {
  /** One limiter per budget, in the budgets' order. */
  readonly limiters: readonly FixedWindowRateLimiter[];
  /** Requests refused per policy (the limiters' order), by every thread: shared memory, for /metrics. */
  readonly refusals: BigInt64Array;
}

/** The limiters' shared counters, in their order: limits made over them on another thread count the same budgets. */
export interface LimitTables {
  limiters: SharedArrayBuffer[];
  refusals: SharedArrayBuffer;
}

/** Makes the limiters of `budgets`, over `tables` when given (a read thread: the main thread's, in the same order). */
export function createLimits(config: Config, budgets: readonly RateLimitBudget[], tables?: LimitTables): Limits {
  if (tables !== undefined && tables.limiters.length !== budgets.length) throw new Error(`the limit tables have ${tables.limiters.length} limiters, the budgets ${budgets.length}: both threads make them from one list`);
  const limiters = budgets.map(({ policy, setting, maxKeys }, i) => {
    const quota = (config as unknown as Record<string, unknown>)[setting];
    if (typeof quota !== 'number') throw new Error(`the rate-limit policy ${policy.name} takes its quota from the setting ${setting}, which the configuration does not have`);
    return new FixedWindowRateLimiter({ name: policy.name, limit: quota, windowSeconds: policy.windowSeconds }, { table: tables?.limiters[i], maxKeys, clustered: config.redisUrl !== null });
  });
  return { limiters, refusals: new BigInt64Array(tables?.refusals ?? new SharedArrayBuffer(8 * limiters.length)) };
}

export function limitTables(limits: Limits): LimitTables {
  return { limiters: limits.limiters.map((limiter) => limiter.table), refusals: limits.refusals.buffer as SharedArrayBuffer };
}

/** The policies' names, in the order of Limits.refusals. */
export function policyNames(limits: Limits): string[] {
  return limits.limiters.map((limiter) => limiter.policy.name);
}

/** Counts one refusal under `policy` (any thread: atomic). */
export function countRefusal(limits: Limits, policy: { readonly name: string }): void {
  Atomics.add(limits.refusals, limits.limiters.indexOf(limiterOf(limits, policy)), 1n);
}

/** Every limiter among the limits (REDIS_URL: the tables src/cluster reconciles). */
export function allLimiters(limits: Limits): FixedWindowRateLimiter[] {
  return [...limits.limiters];
}

/** The limiter that counts `policy` (a policy of a budget some slice declares). */
export function limiterOf(limits: Limits, policy: Pick<RateLimitPolicy, 'name'>): FixedWindowRateLimiter {
  const limiter = limits.limiters.find((candidate) => candidate.policy.name === policy.name);
  if (limiter === undefined) throw new Error(`no limiter counts the rate-limit policy ${policy.name}: its feature's slice lists its budget (rateLimits)`);
  return limiter;
}
