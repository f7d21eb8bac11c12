// Fixed-window request counting per key (client IP), with the draft-ietf-httpapi-ratelimit-headers
// fields the API sends (protocol-notes §6).
//
// Windows are aligned to the clock (window n covers [n·w, (n+1)·w)), so one window change drops every
// counter at once: each slot of the table records the window it was counted in, and a slot of an older
// window counts as empty. O(1) per call, no timers, nothing to evict key by key.
//
// The counters live in shared memory (SharedArrayBuffer), so every server thread counts into the same
// table (limiters made over one `table`): an address's budget is one budget whichever thread its
// connections land on. A lock word guards each call; its critical section is a few dozen instructions.

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
   * Most keys counted in one window (default 100 000: a 4 MiB table, touched only as keys arrive). When
   * the table is full, keys first seen later in that window share one overflow counter with the same
   * limit until the window ends: memory stays bounded, and a flood of new addresses gets one shared
   * quota rather than none.
   */
  readonly maxKeys?: number;
  /** The table of another limiter of the same policy and maxKeys (its `table`), to count together with it. */
  readonly table?: SharedArrayBuffer;
}

// Table layout, in 32-bit words: a header, then per slot the window it was counted in, the key's two
// hashes and the count.
const LOCK = 0;
const WINDOW = 1;
const USED = 2;
const OVERFLOW = 3;
const HEADER_WORDS = 4;
const SLOT_WORDS = 4;

const UNLIMITED: RateLimitResult = Object.freeze({ allowed: true, limit: Infinity, remaining: Infinity, resetSeconds: 0 });

export class FixedWindowRateLimiter {
  readonly policy: RateLimitPolicy;
  /** False when the limit is 0 or Infinity: take() then always allows and headers() renders nothing. */
  readonly enabled: boolean;
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly policyHeader: string;
  /** The shared counters (see the layout above); empty when the policy is disabled. */
  readonly table: SharedArrayBuffer;
  private readonly words: Int32Array;
  private readonly slotMask: number;

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
    // at most half full, so probes stay short
    let slots = 1;
    while (slots < 2 * this.maxKeys) slots *= 2;
    const bytes = this.enabled ? (HEADER_WORDS + slots * SLOT_WORDS) * 4 : 0;
    this.table = options.table ?? new SharedArrayBuffer(bytes);
    if (this.table.byteLength !== bytes) throw new RangeError(`a shared rate limit table must have ${bytes} bytes for ${this.maxKeys} keys, got ${this.table.byteLength}`);
    this.words = new Int32Array(this.table);
    this.slotMask = slots - 1;
  }

  /** Counts one request for `key` at `nowMs` (epoch milliseconds) and says whether it may proceed. */
  take(key: string, nowMs: number): RateLimitResult {
    if (!this.enabled) return UNLIMITED;
    const window = Math.floor(nowMs / this.windowMs);
    const resetSeconds = Math.ceil(((window + 1) * this.windowMs - nowMs) / 1000);
    const limit = this.limit;
    const [hashA, hashB] = hashes(key);
    const stamp = window | 0;
    const words = this.words;
    while (Atomics.compareExchange(words, LOCK, 0, 1) !== 0); // another thread is counting: a few dozen instructions
    let used: number;
    try {
      if (words[WINDOW] !== stamp) {
        words[WINDOW] = stamp;
        words[USED] = 0;
        words[OVERFLOW] = 0;
      }
      used = this.count(stamp, hashA, hashB);
    } finally {
      Atomics.store(words, LOCK, 0);
    }
    if (used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    return { allowed: true, limit, remaining: limit - used - 1, resetSeconds };
  }

  /** Counts one request of a key in window `stamp` (the lock held); returns the count before it. */
  private count(stamp: number, hashA: number, hashB: number): number {
    const words = this.words;
    const limit = this.limit;
    // Linear probing: within a window slots are only ever added, so a key lies before the first empty slot.
    for (let slot = hashA & this.slotMask; ; slot = (slot + 1) & this.slotMask) {
      const at = HEADER_WORDS + slot * SLOT_WORDS;
      if (words[at] !== stamp) {
        if (words[USED] >= this.maxKeys) {
          const used = words[OVERFLOW];
          if (used < limit) words[OVERFLOW] = used + 1;
          return used;
        }
        words[USED]++;
        words[at] = stamp;
        words[at + 1] = hashA;
        words[at + 2] = hashB;
        words[at + 3] = 1;
        return 0;
      }
      if (words[at + 1] === hashA && words[at + 2] === hashB) {
        const used = words[at + 3];
        if (used < limit) words[at + 3] = used + 1;
        return used;
      }
    }
  }

  /** Keys counted in the current window (at most maxKeys). */
  get trackedKeys(): number {
    return this.enabled ? Atomics.load(this.words, USED) : 0;
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

/**
 * Two independent 32-bit hashes of a key (FNV-1a and a multiply-xorshift): together 64 bits, so two of a
 * window's addresses share a counter with a chance of about 1 in 10^14.
 */
function hashes(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [a, b];
}
