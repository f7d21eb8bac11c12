// Fixed-window request counting per client address, with the draft-ietf-httpapi-ratelimit-headers
// fields the API sends (protocol-notes §6). IPv6 clients are counted by their /64 (ipv6Prefix64).
//
// Windows are aligned to the clock (window n covers [n·w, (n+1)·w)), so one window change drops every
// counter at once: each slot of the table records the window it was counted in, and a slot of an older
// window counts as empty. O(1) per call, no timers, nothing to evict key by key.
//
// Up to `maxKeys` addresses per window are counted exactly. Addresses first seen after that (a flood
// from a botnet or an IPv6 range) are counted in a count-min sketch: each address has one counter in
// each of four rows, and its count is the smallest of them, so it may be counted high (when every one
// of its counters is shared with busy addresses) but never low. No cliff, no shared overflow budget:
// a new address is refused only if all four of its counters are full, which at the service's own
// throughput (a few million requests a minute over 2 million counters a row) practically never happens
// (docs/SECURITY.md has the figures and the test that measures them).
//
// The counters live in shared memory (SharedArrayBuffer), so every server thread counts into the same
// table (limiters made over one `table`): an address's budget is one budget whichever thread its
// connections land on. A lock word guards each call; its critical section is a few dozen instructions.
//
// A `clustered` table also keeps, per slot, the requests counted here since the last reconciliation
// (pending), and a list of the slots that have some: the main thread drains them (drain()) and folds the
// cluster's totals back in (merge(); src/cluster). The read path does no more than add to a word and,
// the first time per interval, to the list. Addresses counted in the sketch stay this replica's own.
import { ipv6Prefix64 } from './client-ip.js';

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
   * Most addresses counted exactly in one window (default 1 000 000: a 32 MiB table, its pages touched
   * only as addresses arrive). Later ones are counted in the sketch (16 MiB, touched only then).
   */
  readonly maxKeys?: number;
  /** Counters in each of the sketch's four rows (a power of two; default 2^21). */
  readonly sketchWidth?: number;
  /** The table of another limiter of the same policy and maxKeys (its `table`), to count together with it. */
  readonly table?: SharedArrayBuffer;
  /** Keep what drain() and merge() need to share the counts with other replicas (a larger table). */
  readonly clustered?: boolean;
}

/** A window's counts by key, flat: hashA, hashB, count, hashA, hashB, count, … */
export type KeyCounts = number[];

// Table layout, in 32-bit words: a header, then per slot the window it was counted in, the key's two
// hashes and the count; then the sketch, SKETCH_ROWS rows of 16-bit counters.
const LOCK = 0;
const WINDOW = 1;
const USED = 2;
/** The window the sketch's counters were counted in (they are cleared when it is used in a new one). */
const SKETCH_WINDOW = 3;
/** Slots in the pending list (clustered tables). */
const LISTED = 4;
const HEADER_WORDS = 5;
/** Window, hashA, hashB, count; a clustered slot adds its pending word (see below). */
const SLOT_WORDS = 4;
const CLUSTERED_SLOT_WORDS = 5;
/** In a pending word: the slot is in the pending list; the bits below count the requests not yet drained. */
const IN_LIST = 0x40000000;
const PENDING = IN_LIST - 1;
/** Slots drained or merged per hold of the lock, so the read threads never wait long. */
const BATCH = 1024;
const SKETCH_ROWS = 4;
/** Sketch counters stop here; a higher limit is enforced exactly only (a benchmark setting). */
const SKETCH_MAX = 0xffff;

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
  private readonly sketch: Uint16Array;
  private readonly sketchMask: number;
  /** Whether slots keep pending counts (options.clustered). */
  readonly clustered: boolean;
  private readonly slotWords: number;
  /** Where the pending list starts (a word index; clustered tables only). */
  private readonly listAt: number;

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
    this.maxKeys = options.maxKeys ?? 1_000_000;
    const sketchWidth = options.sketchWidth ?? 1 << 21;
    if (!(sketchWidth > 0) || (sketchWidth & (sketchWidth - 1)) !== 0) throw new RangeError(`sketchWidth must be a power of two, got ${sketchWidth}`);
    this.policyHeader = `"${policy.name}";q=${this.limit};w=${policy.windowSeconds}`;
    // at most half full, so probes stay short
    let slots = 1;
    while (slots < 2 * this.maxKeys) slots *= 2;
    this.clustered = options.clustered ?? false;
    this.slotWords = this.clustered ? CLUSTERED_SLOT_WORDS : SLOT_WORDS;
    this.listAt = HEADER_WORDS + slots * this.slotWords;
    const tableBytes = (this.listAt + (this.clustered ? slots : 0)) * 4;
    const bytes = this.enabled ? tableBytes + SKETCH_ROWS * sketchWidth * 2 : 0;
    this.table = options.table ?? new SharedArrayBuffer(bytes);
    if (this.table.byteLength !== bytes) throw new RangeError(`a shared rate limit table must have ${bytes} bytes for ${this.maxKeys} keys, got ${this.table.byteLength}`);
    this.words = new Int32Array(this.table, 0, this.enabled ? tableBytes / 4 : 0);
    this.slotMask = slots - 1;
    this.sketch = new Uint16Array(this.table, this.enabled ? tableBytes : 0, this.enabled ? SKETCH_ROWS * sketchWidth : 0);
    this.sketchMask = sketchWidth - 1;
  }

  /** The number of the window `nowMs` lies in (windows are aligned to the epoch). */
  windowAt(nowMs: number): number {
    return Math.floor(nowMs / this.windowMs);
  }

  /** Counts one request from address `ip` at `nowMs` (epoch milliseconds) and says whether it may proceed. */
  take(ip: string, nowMs: number): RateLimitResult {
    if (!this.enabled) return UNLIMITED;
    const window = Math.floor(nowMs / this.windowMs);
    const resetSeconds = Math.ceil(((window + 1) * this.windowMs - nowMs) / 1000);
    const limit = this.limit;
    const [hashA, hashB] = ip.includes(':') && ipv6Prefix64(ip, prefix) ? prefixHashes(prefix) : hashes(ip);
    const stamp = window | 0;
    const words = this.words;
    while (Atomics.compareExchange(words, LOCK, 0, 1) !== 0); // another thread is counting: a few dozen instructions
    let used: number;
    try {
      if (words[WINDOW] !== stamp) {
        words[WINDOW] = stamp;
        words[USED] = 0;
      }
      used = this.count(stamp, hashA, hashB);
    } finally {
      Atomics.store(words, LOCK, 0);
    }
    if (used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    return { allowed: true, limit, remaining: limit - used - 1, resetSeconds };
  }

  /**
   * What take() would answer for `ip` now, without counting anything: for a request refused before it may
   * spend the budget (another origin), whose answer still carries the RateLimit headers.
   */
  peek(ip: string, nowMs: number): RateLimitResult {
    if (!this.enabled) return UNLIMITED;
    const window = Math.floor(nowMs / this.windowMs);
    const resetSeconds = Math.ceil(((window + 1) * this.windowMs - nowMs) / 1000);
    const [hashA, hashB] = ip.includes(':') && ipv6Prefix64(ip, prefix) ? prefixHashes(prefix) : hashes(ip);
    const stamp = window | 0;
    const words = this.words;
    while (Atomics.compareExchange(words, LOCK, 0, 1) !== 0);
    let used: number;
    try {
      used = words[WINDOW] === stamp ? this.counted(stamp, hashA, hashB) : 0;
    } finally {
      Atomics.store(words, LOCK, 0);
    }
    const limit = this.limit;
    return { allowed: used < limit, limit, remaining: Math.max(0, limit - used), resetSeconds };
  }

  /** The count of a key in window `stamp` (the lock held), changing nothing. */
  private counted(stamp: number, hashA: number, hashB: number): number {
    const words = this.words;
    for (let slot = hashA & this.slotMask; ; slot = (slot + 1) & this.slotMask) {
      const at = HEADER_WORDS + slot * this.slotWords;
      if (words[at] !== stamp) return words[USED] >= this.maxKeys && words[SKETCH_WINDOW] === stamp ? this.sketchCount(hashA, hashB) : 0;
      if (words[at + 1] === hashA && words[at + 2] === hashB) return words[at + 3];
    }
  }

  /** A key's estimate in the sketch (its smallest counter), changing nothing. */
  private sketchCount(hashA: number, hashB: number): number {
    const width = this.sketchMask + 1;
    let smallest = SKETCH_MAX;
    for (let row = 0; row < SKETCH_ROWS; row++) smallest = Math.min(smallest, this.sketch[row * width + ((hashA + Math.imul(row, hashB | 1)) & this.sketchMask)]);
    return smallest;
  }

  /** Counts one request of a key in window `stamp` (the lock held); returns the count before it. */
  private count(stamp: number, hashA: number, hashB: number): number {
    const words = this.words;
    const limit = this.limit;
    // Linear probing: within a window slots are only ever added, so a key lies before the first empty slot.
    for (let slot = hashA & this.slotMask; ; slot = (slot + 1) & this.slotMask) {
      const at = HEADER_WORDS + slot * this.slotWords;
      if (words[at] !== stamp) {
        if (words[USED] >= this.maxKeys) return this.countInSketch(stamp, hashA, hashB);
        words[USED]++;
        words[at] = stamp;
        words[at + 1] = hashA;
        words[at + 2] = hashB;
        words[at + 3] = 1;
        if (this.clustered) this.addPending(at, 0);
        return 0;
      }
      if (words[at + 1] === hashA && words[at + 2] === hashB) {
        const used = words[at + 3];
        if (used < limit) {
          words[at + 3] = used + 1;
          if (this.clustered) this.addPending(at, words[at + 4] & PENDING);
        }
        return used;
      }
    }
  }

  /**
   * Counts one request of a key the table has no room for (the lock held); returns its estimated count
   * before it: the smallest of its counters. Conservative update: only the counters at that smallest
   * value grow, so busy keys raise the counters they share with others as little as possible.
   */
  private countInSketch(stamp: number, hashA: number, hashB: number): number {
    const sketch = this.sketch;
    const width = this.sketchMask + 1;
    if (this.words[SKETCH_WINDOW] !== stamp) {
      sketch.fill(0);
      this.words[SKETCH_WINDOW] = stamp;
    }
    let smallest = SKETCH_MAX;
    const at: number[] = [];
    for (let row = 0; row < SKETCH_ROWS; row++) {
      const index = row * width + ((hashA + Math.imul(row, hashB | 1)) & this.sketchMask);
      at.push(index);
      if (sketch[index] < smallest) smallest = sketch[index];
    }
    if (smallest < this.limit && smallest < SKETCH_MAX) for (const index of at) if (sketch[index] === smallest) sketch[index] = smallest + 1;
    return smallest;
  }

  /** Sets the pending count of the slot at word `at` to `before` + 1 and lists the slot if it is not yet (the lock held). */
  private addPending(at: number, before: number): void {
    const words = this.words;
    const listed = words[at + 4] & IN_LIST;
    words[at + 4] = IN_LIST | (before + 1);
    if (listed === 0) words[this.listAt + words[LISTED]++] = at;
  }

  /**
   * Takes the requests counted here in window `window` since the last drain: appends hashA, hashB and the
   * count of each such key to `out`, empties the pending list, and returns `out`. Counts of an earlier
   * window are dropped: that window is over for every replica.
   */
  drain(window: number, out: KeyCounts = []): KeyCounts {
    if (!this.clustered || !this.enabled) return out;
    const words = this.words;
    const stamp = window | 0;
    for (let more = true; more; ) {
      while (Atomics.compareExchange(words, LOCK, 0, 1) !== 0);
      try {
        for (let n = 0; n < BATCH && words[LISTED] > 0; n++) {
          const at = words[this.listAt + --words[LISTED]];
          const pending = words[at + 4] & PENDING;
          words[at + 4] = 0;
          if (words[at] === stamp && pending > 0) out.push(words[at + 1], words[at + 2], pending);
        }
        more = words[LISTED] > 0;
      } finally {
        Atomics.store(words, LOCK, 0);
      }
    }
    return out;
  }

  /**
   * Folds the cluster's totals of window `window` (the current one; an earlier one is ignored) into the table: each key counts at
   * least its total plus what was counted here since it was drained. Totals only grow within a window, so a
   * late or repeated one changes nothing. A key not counted here yet is added while the exact table has room.
   */
  merge(window: number, totals: KeyCounts): void {
    if (!this.clustered || !this.enabled) return;
    const words = this.words;
    const stamp = window | 0;
    for (let i = 0; i < totals.length; ) {
      while (Atomics.compareExchange(words, LOCK, 0, 1) !== 0);
      try {
        if (words[WINDOW] > stamp) return; // the threads count in a later window already: these totals are over
        if (words[WINDOW] !== stamp) {
          words[WINDOW] = stamp;
          words[USED] = 0;
        }
        for (const end = Math.min(totals.length, i + 3 * BATCH); i < end; i += 3) this.mergeOne(stamp, totals[i], totals[i + 1], totals[i + 2]);
      } finally {
        Atomics.store(words, LOCK, 0);
      }
    }
  }

  /** One key's total (the lock held). */
  private mergeOne(stamp: number, hashA: number, hashB: number, total: number): void {
    const words = this.words;
    for (let slot = hashA & this.slotMask; ; slot = (slot + 1) & this.slotMask) {
      const at = HEADER_WORDS + slot * this.slotWords;
      if (words[at] !== stamp) {
        if (words[USED] >= this.maxKeys) return;
        words[USED]++;
        words[at] = stamp;
        words[at + 1] = hashA;
        words[at + 2] = hashB;
        words[at + 3] = Math.min(total, 0x7fffffff);
        words[at + 4] &= IN_LIST; // listed for an earlier window's key: drain() finds nothing pending
        return;
      }
      if (words[at + 1] === hashA && words[at + 2] === hashB) {
        words[at + 3] = Math.max(words[at + 3], Math.min(total + (words[at + 4] & PENDING), 0x7fffffff));
        return;
      }
    }
  }

  /** Keys counted exactly in the current window (at most maxKeys). */
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

/** The /64 of the IPv6 client being counted (one call at a time: take() runs to its end). */
const prefix = new Uint16Array(4);

/**
 * Two independent 32-bit hashes of a key (FNV-1a and a multiply-xorshift, each finished with MurmurHash3's
 * avalanche so that the low bits, which pick the slot and the sketch counters, depend on every character):
 * together 64 bits, so two of a window's addresses share a counter with a chance of about 1 in 10^14.
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
  return [avalanche(a), avalanche(b)];
}

/** The same hashes over an IPv6 /64's four groups, started apart from every text key. */
function prefixHashes(groups: Uint16Array): [number, number] {
  let a = 0x6a09e667;
  let b = 0xbb67ae85;
  for (let i = 0; i < 4; i++) {
    a = Math.imul(a ^ groups[i], 0x01000193);
    b = Math.imul(b ^ groups[i], 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [avalanche(a), avalanche(b)];
}

function avalanche(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
