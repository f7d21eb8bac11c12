// Fixed-window request counting per key (client IP), with the draft-ietf-httpapi-ratelimit-headers
// fields the API sends (protocol-notes §6).
//
// Windows are aligned to the clock (window n covers [n·w, (n+1)·w)), so one window change drops every
// counter at once: a single Map per window, O(1) per call, no timers, and nothing to evict key by key.

export interface RateLimitPolicy {
  /** Policy name in RateLimit-Policy / RateLimit, e.g. "per-ip". */
  readonly name: string;
  /** Requests allowed per window; 0 or Infinity disables the policy (benchmarks lift limits this way). */
  readonly limit: number;
  readonly windowSeconds: number;
}

export interface RateLimitResult {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests still allowed in this window after this one. */
  readonly remaining: number;
  /** Whole seconds (≥ 1) until the window ends and the quota refills. */
  readonly resetSeconds: number;
}

export interface RateLimiterOptions {
  /**
   * Most keys counted in one window (default 100 000, about 15 MB of heap). When the table is full, keys
   * first seen later in that window share one overflow counter with the same limit until the window
   * ends: memory stays bounded, and a flood of new addresses gets one shared quota rather than none.
   */
  readonly maxKeys?: number;
}

const UNLIMITED: RateLimitResult = Object.freeze({ allowed: true, limit: Infinity, remaining: Infinity, resetSeconds: 0 });

export class FixedWindowRateLimiter {
  readonly policy: RateLimitPolicy;
  /** False when the limit is 0 or Infinity: take() then always allows and headers() renders nothing. */
  readonly enabled: boolean;
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly policyHeader: string;
  private counts = new Map<string, number>();
  private overflowCount = 0;
  private window = -Infinity;

  constructor(policy: RateLimitPolicy, options: RateLimiterOptions = {}) {
    if (!(policy.windowSeconds > 0) || !Number.isInteger(policy.windowSeconds)) {
      throw new RangeError(`rate limit window must be a positive whole number of seconds, got ${policy.windowSeconds}`);
    }
    if (!(policy.limit >= 0)) throw new RangeError(`rate limit must be ≥ 0, got ${policy.limit}`);
    if (!/^[A-Za-z0-9_.-]+$/.test(policy.name)) throw new RangeError(`rate limit policy name must be a plain token, got ${policy.name}`);
    this.policy = policy;
    this.enabled = policy.limit > 0 && Number.isFinite(policy.limit);
    this.limit = Math.floor(policy.limit);
    this.windowMs = policy.windowSeconds * 1000;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.policyHeader = `"${policy.name}";q=${this.limit};w=${policy.windowSeconds}`;
  }

  /** Counts one request for `key` at `nowMs` (epoch milliseconds) and says whether it may proceed. */
  take(key: string, nowMs: number): RateLimitResult {
    if (!this.enabled) return UNLIMITED;
    const window = Math.floor(nowMs / this.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
      this.overflowCount = 0;
    }
    const resetSeconds = Math.ceil(((window + 1) * this.windowMs - nowMs) / 1000);
    const limit = this.limit;
    const counted = this.counts.get(key);
    let used: number;
    if (counted !== undefined) {
      used = counted;
      if (used < limit) this.counts.set(key, used + 1);
    } else if (this.counts.size < this.maxKeys) {
      used = 0;
      this.counts.set(key, 1);
    } else {
      used = this.overflowCount;
      if (used < limit) this.overflowCount = used + 1;
    }
    if (used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    return { allowed: true, limit, remaining: limit - used - 1, resetSeconds };
  }

  /** Keys counted in the current window (at most maxKeys). */
  get trackedKeys(): number {
    return this.counts.size;
  }

  /**
   * Appends RateLimit-Limit, -Remaining, -Reset, RateLimit-Policy and RateLimit for `result` to `out`
   * (nothing when the policy is disabled) and returns `out`. The five are joined into one pair, as
   * compileHeaders does, so they cost one uWS call (all values are numbers or the validated policy
   * name). Retry-After on a 429 comes with the problem answer (problem.ts), which also puts the same
   * seconds in its body.
   */
  headers(result: RateLimitResult, out: string[] = []): string[] {
    if (!this.enabled) return out;
    const { remaining, resetSeconds } = result;
    out.push(
      'RateLimit-Limit',
      `${result.limit}\r\nRateLimit-Remaining: ${remaining}\r\nRateLimit-Reset: ${resetSeconds}\r\nRateLimit-Policy: ${this.policyHeader}\r\nRateLimit: "${this.policy.name}";r=${remaining};t=${resetSeconds}`,
    );
    return out;
  }
}
