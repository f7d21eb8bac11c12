// Cluster-wide rate limits (REDIS_URL; docs/SCALING.md). Every thread keeps counting in its process's
// shared tables, with no network on the read path; this, on the main thread only, reconciles them with
// the other replicas' at most every SYNC_MS: it drains the requests counted here since the last time
// (per address hash and window), adds them to the window's hash in Redis with one small script per
// policy (HINCRBY each, PEXPIRE, PUBLISH the new totals), all pipelined in one round trip. Every replica
// subscribes to the totals and folds them into its tables, its own and the others', so an address spent
// on replica B is refused on replica A within one interval.
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

// KEYS[1]: the window's hash. ARGV: its time to live (ms), the channel, the message's head (the sender,
// policy and window), then the counts as one string "<field>:<delta> …" (one argument, not two per
// address: cheaper to send and to decode). Publishes the new totals in the same form; returns how many.
const ADD_COUNTS = `
local message = { ARGV[3], ARGV[4], ARGV[5] }
for field, delta in string.gmatch(ARGV[6], '(%x+):(%d+)') do
  message[#message + 1] = field .. ':' .. redis.call('HINCRBY', KEYS[1], field, delta)
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PUBLISH', ARGV[2], table.concat(message, ' '))
return #message - 3
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    addRateLimitCounts(key: string, ttlMs: number, channel: string, sender: string, policy: string, window: number, counts: string): Result<number, Context>;
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

/**
 * Emits 'synced' ({ keys }) after each reconciliation with Redis, 'received' ({ policy, keys, own }) after
 * folding in published totals (another replica's, or this one's), 'state' (RedisState) when Redis goes
 * away or comes back, and 'failed' (why) on every failed attempt to reach it.
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
    this.link.close(); // first: a reconciliation waiting on a hung Redis fails at once, not after the timeout
    await this.running;
  }

  status(): RateLimitScope {
    const redis = { ...this.link.status(), last_sync_at: this.lastSyncMs === null ? null : new Date(this.lastSyncMs).toISOString() };
    return { scope: this.link.connected ? 'cluster' : 'replica', redis };
  }

  private schedule(): void {
    if (this.closing) return;
    this.timer = setTimeout(() => {
      this.running = this.sync()
        .catch((error: Error) => this.link.commandFailed(error))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, SYNC_MS);
    this.timer.unref();
  }

  /**
   * One reconciliation; nothing is drained while Redis is away (or its last answer failed), so what was
   * counted waits for it; only the counts of the reconciliation that failed are lost. The
   * totals come back on the subscription, this replica's own among the others', and are folded in there.
   */
  private async sync(): Promise<void> {
    if (!this.link.open) return;
    if (!this.link.connected) {
      // the last reconciliation failed on open connections (Redis hung?): ask before sending counts again
      await this.link.commands.ping();
      this.link.commandSucceeded();
      return;
    }
    const nowMs = this.options.now();
    const pipeline = this.link.commands.pipeline();
    let calls = 0;
    for (const limiter of this.byPolicy.values()) {
      const window = limiter.windowAt(nowMs);
      const drained = limiter.drain(window);
      const ttlMs = 2 * limiter.policy.windowSeconds * 1000;
      for (let i = 0; i < drained.length; i += 3 * KEYS_PER_CALL) {
        const counts = countsText(drained, i, Math.min(drained.length, i + 3 * KEYS_PER_CALL));
        pipeline.addRateLimitCounts(`${PREFIX}:${limiter.policy.name}:${window}`, ttlMs, CHANNEL, this.sender, limiter.policy.name, window, counts);
        calls++;
      }
    }
    if (calls === 0) pipeline.ping(); // nothing to send: still find out whether Redis answers
    let keys = 0;
    for (const [error, added] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      if (calls > 0) keys += Number(added);
    }
    this.lastSyncMs = this.options.now();
    this.link.commandSucceeded();
    this.emit('synced', { keys });
  }

  /** The totals a reconciliation published, another replica's or this one's: "<sender> <policy> <window> <field>:<total> …". */
  private received(message: Buffer): void {
    const head: string[] = [];
    let at = 0;
    for (let space; head.length < 3 && (space = message.indexOf(SPACE, at)) !== -1; at = space + 1) head.push(message.toString('latin1', at, space));
    const limiter = this.byPolicy.get(head[1]);
    const window = Number(head[2]);
    if (limiter === undefined || limiter.windowAt(this.options.now()) !== window) return;
    const totals = parseTotals(message, at);
    limiter.merge(window, totals);
    this.emit('received', { policy: limiter.policy.name, keys: totals.length / 3, own: head[0] === this.sender });
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

/** Key counts `from` to `to` as the script takes them: "<field>:<delta> …", a field being the two hashes in 16 hex digits. */
function countsText(counts: KeyCounts, from: number, to: number): string {
  let text = '';
  for (let i = from; i < to; i += 3) text += `${i === from ? '' : ' '}${hex(counts[i])}${hex(counts[i + 1])}:${counts[i + 2]}`;
  return text;
}

/** Two hex digits per byte value: a field is four lookups per hash, not a number formatted (the bench's hot spot). */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const hex = (word: number): string => HEX[word >>> 24] + HEX[(word >>> 16) & 255] + HEX[(word >>> 8) & 255] + HEX[word & 255];
