// The service's rate limits (spec: Limits): one shared per-IP budget for REST and MCP, and the area
// endpoint's own. Quotas come from the config; policy names and windows from the operations registry.
import { FixedWindowRateLimiter, type RateLimitResult } from '../http/rate-limit.js';
import { RATE_LIMIT_POLICIES } from '../schemas/operations.js';
import type { Problems } from '../http/problem.js';
import type { HttpReply } from '../http/reply.js';

export interface Limits {
  perIp: FixedWindowRateLimiter;
  areaPerIp: FixedWindowRateLimiter;
}

/** The limiters' shared counters: limits made over them on another thread count the same budgets. */
export interface LimitTables {
  perIp: SharedArrayBuffer;
  areaPerIp: SharedArrayBuffer;
}

export function createLimits(perMinute: number, areaPerMinute: number, tables?: LimitTables): Limits {
  const { perIp, areaPerIp } = RATE_LIMIT_POLICIES;
  return {
    perIp: new FixedWindowRateLimiter({ name: perIp.name, limit: perMinute, windowSeconds: perIp.windowSeconds }, { table: tables?.perIp }),
    areaPerIp: new FixedWindowRateLimiter({ name: areaPerIp.name, limit: areaPerMinute, windowSeconds: areaPerIp.windowSeconds }, { table: tables?.areaPerIp }),
  };
}

export function limitTables(limits: Limits): LimitTables {
  return { perIp: limits.perIp.table, areaPerIp: limits.areaPerIp.table };
}

const UNLIMITED = { headers: [] as string[], refused: null };

/** Counts a request; returns its rate-limit headers, or the 429 answer when the budget is spent. */
export function takeBudget(
  limiter: FixedWindowRateLimiter,
  /** The request; its `ip` is read only when the limit is on (asking uWS for the peer costs about a microsecond). */
  client: { readonly ip: string },
  nowMs: number,
  problems: Problems<string>,
): { headers: string[]; refused: HttpReply | null } {
  if (!limiter.enabled) return UNLIMITED;
  const result: RateLimitResult = limiter.take(client.ip, nowMs);
  const headers = limiter.headers(result);
  if (result.allowed) return { headers, refused: null };
  const refused = problems.reply('rate-limited', `This address sent more than ${result.limit} requests in ${limiter.policy.windowSeconds} seconds. Wait ${result.resetSeconds} seconds, then send the request again.`, {
    retryAfterSeconds: result.resetSeconds,
    headers,
  });
  return { headers, refused };
}
