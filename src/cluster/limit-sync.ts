// Cluster-wide rate limits (REDIS_URL; docs/SCALING.md). Every thread keeps counting in its process's
// shared tables, with no network on the read path; this, on the main thread only, reconciles them with
// the other replicas' at most every SYNC_MS: it drains the requests counted here since the last time
// (per address hash and window), adds them to the window's hash in Redis with one small script per
// policy (HINCRBY each, PEXPIRE, PUBLISH the new totals), all pipelined in one round trip, and folds
// the totals back into the tables. Every replica subscribes to the totals the others publish and folds
// them in too, so an address spent on replica B is refused on replica A within one interval.
//
// Overshoot: a replica learns of the others' requests at their next reconciliation, so an address may get
// up to one interval's worth of requests more per replica than the limit. While Redis cannot be reached
// each replica goes on counting alone (its own limit, as without REDIS_URL); the requests counted
// meanwhile wait in the tables and reach Redis when it answers again. Redis holds 64-bit hashes of the
// addresses, never the addresses, and forgets each window after two window lengths.
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { Result } from 'ioredis';
import type { FixedWindowRateLimiter, KeyCounts } from '../http/rate-limit.js';
import type { Logger } from '../log.js';
import { RedisLink, type RedisLinkStatus } from './redis-link.js';

/** The longest time between two reconciliations (the next starts this long after the last ended). */
export const SYNC_MS = 250;
const PREFIX = 'toilet-finder:rate-limit';
const CHANNEL = `${PREFIX}:totals`;
/** Keys per script call: a call holds Redis for as long as it runs. */
const KEYS_PER_CALL = 2000;

// KEYS[1]: the window's hash. ARGV: its time to live (ms), the channel, then the message's head (the
// sender, policy and window) and field, delta pairs. Returns the new totals in the fields' order.
const ADD_COUNTS = `
local totals = {}
local message = { ARGV[3], ARGV[4], ARGV[5] }
for i = 6, #ARGV, 2 do
  local total = redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
  totals[#totals + 1] = total
  message[#message + 1] = ARGV[i] .. ':' .. total
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], table.concat(message, ' '))
return totals
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    addRateLimitCounts(key: string, ...args: (string | number)[]): Result<number[], Context>;
  }
}

/** What /status says of the rate limits (`rate_limits`). */
export interface RateLimitScope {
  /** cluster: counted with every replica through Redis; replica: this replica counts alone. */
  scope: 'cluster' | 'replica';
  /** null without REDIS_URL. */
  redis: (RedisLinkStatus & { last_sync_at: string | null }) | null;
}

/** Without REDIS_URL. */
export const REPLICA_SCOPE: RateLimitScope = Object.freeze({ scope: 'replica', redis: null });

export interface RateLimitSyncOptions {
  redisUrl: string;
  /** The process's limiters (clustered tables), the main thread's: the read threads count into the same. */
  limiters: readonly FixedWindowRateLimiter[];
  log: Logger;
  now: () => number;
}

/** One call's part: which limiter and window, and the keys in the call's order. */
interface Sent {
  limiter: FixedWindowRateLimiter;
  window: number;
  counts: KeyCounts;
}

/**
 * Emits 'synced' ({ keys }) after each reconciliation with Redis, 'received' ({ policy, keys }) after
 * folding in another replica's totals, 'state' (RedisState) when Redis goes away or comes back, and
 * 'failed' (why) on every failed attempt to reach it.
 */
export class RateLimitSync extends EventEmitter {
  readonly name = 'cluster';
  readonly needs: readonly string[] = [];
  private readonly link: RedisLink;
  /** Tells this replica's own messages from the others'. */
  private readonly sender = randomBytes(6).toString('hex');
  private readonly byPolicy: Map<string, FixedWindowRateLimiter>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private lastSyncMs: number | null = null;
  private closing = false;

  constructor(private readonly options: RateLimitSyncOptions) {
    super();
    this.byPolicy = new Map(options.limiters.filter((limiter) => limiter.enabled).map((limiter) => [limiter.policy.name, limiter]));
    this.link = new RedisLink({
      url: options.redisUrl,
      channel: CHANNEL,
      onMessage: (message) => this.received(message),
      purpose: { alone: 'each replica counts its rate limits alone', together: 'the rate limits are counted with every replica' },
      log: options.log,
      now: options.now,
    });
    this.link.on('state', (state) => this.emit('state', state));
    this.link.on('failed', (error) => this.emit('failed', error));
    this.link.commands.defineCommand('addRateLimitCounts', { numberOfKeys: 1, lua: ADD_COUNTS });
  }

  start(): void {
    this.link.connect();
    this.schedule();
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running;
    this.link.close();
  }

  status(): RateLimitScope {
    const redis = { ...this.link.status(), last_sync_at: this.lastSyncMs === null ? null : new Date(this.lastSyncMs).toISOString() };
    return { scope: this.link.connected ? 'cluster' : 'replica', redis };
  }

  private schedule(): void {
    if (this.closing) return;
    this.timer = setTimeout(() => {
      this.running = this.sync()
        .catch((error: Error) => this.link.failed(error))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, SYNC_MS);
    this.timer.unref();
  }

  /** One reconciliation; nothing is drained while Redis is away, so what was counted waits for it. */
  private async sync(): Promise<void> {
    if (!this.link.connected) return;
    const nowMs = this.options.now();
    const pipeline = this.link.commands.pipeline();
    const sent: Sent[] = [];
    for (const limiter of this.byPolicy.values()) {
      const window = limiter.windowAt(nowMs);
      const drained = limiter.drain(window);
      const ttlMs = 2 * limiter.policy.windowSeconds * 1000;
      for (let i = 0; i < drained.length; i += 3 * KEYS_PER_CALL) {
        const counts = drained.slice(i, i + 3 * KEYS_PER_CALL);
        const head = [ttlMs, CHANNEL, this.sender, limiter.policy.name, window];
        pipeline.addRateLimitCounts(`${PREFIX}:${limiter.policy.name}:${window}`, ...head, ...fieldsAndDeltas(counts));
        sent.push({ limiter, window, counts });
      }
    }
    let keys = 0;
    if (sent.length > 0) {
      const results = (await pipeline.exec()) ?? [];
      sent.forEach(({ limiter, window, counts }, call) => {
        const [error, totals] = results[call] ?? [new Error('Redis answered no result for a call')];
        if (error) throw error;
        for (let i = 0; i < counts.length; i += 3) counts[i + 2] = Number((totals as number[])[i / 3]);
        if (limiter.windowAt(this.options.now()) === window) limiter.merge(window, counts);
        keys += counts.length / 3;
      });
    }
    this.lastSyncMs = this.options.now();
    this.emit('synced', { keys });
  }

  /** Another replica's totals: "<sender> <policy> <window> <field>:<total> …" (a field: 16 hex digits). */
  private received(message: Buffer): void {
    const head: string[] = [];
    let at = 0;
    for (let space; head.length < 3 && (space = message.indexOf(SPACE, at)) !== -1; at = space + 1) head.push(message.toString('latin1', at, space));
    const limiter = this.byPolicy.get(head[1]);
    const window = Number(head[2]);
    if (head[0] === this.sender || limiter === undefined || limiter.windowAt(this.options.now()) !== window) return;
    const totals = parseTotals(message, at);
    limiter.merge(window, totals);
    this.emit('received', { policy: limiter.policy.name, keys: totals.length / 3 });
  }
}

const SPACE = 0x20;
const COLON = 0x3a;

/** The "<field>:<total>" entries from byte `at` on, as key counts; read byte by byte (no strings made). */
function parseTotals(message: Buffer, at: number): KeyCounts {
  const totals: KeyCounts = [];
  while (at + 16 < message.length && message[at + 16] === COLON) {
    const hashA = hexWord(message, at);
    const hashB = hexWord(message, at + 8);
    let total = 0;
    for (at += 17; at < message.length && message[at] !== SPACE; at++) total = total * 10 + message[at] - 0x30;
    totals.push(hashA, hashB, total);
    at++;
  }
  return totals;
}

/** Eight hex digits at `at` as a 32-bit integer. */
function hexWord(bytes: Buffer, at: number): number {
  let word = 0;
  for (let i = at; i < at + 8; i++) {
    const c = bytes[i];
    word = (word << 4) | (c <= 0x39 ? c - 0x30 : c - 0x57);
  }
  return word | 0;
}

/** A key's field in the window's hash: its two hashes as 16 hex digits. */
function fieldsAndDeltas(counts: KeyCounts): (string | number)[] {
  const args: (string | number)[] = [];
  for (let i = 0; i < counts.length; i += 3) args.push(hex(counts[i]) + hex(counts[i + 1]), counts[i + 2]);
  return args;
}

/** Two hex digits per byte value: a field is four lookups per hash, not a number formatted (the bench's hot spot). */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const hex = (word: number): string => HEX[word >>> 24] + HEX[(word >>> 16) & 255] + HEX[(word >>> 8) & 255] + HEX[word & 255];
