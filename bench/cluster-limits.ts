// The cluster-wide rate limits' cost per request (REDIS_URL, src/cluster) as a ratio to the local
// limiter's: two replicas' limiters in this process, each with its own reconciliation against one real
// redis-server on loopback (test/support/redis.ts), counting requests from 100,000 addresses in turn, all
// under the limit, so every address has something to reconcile in every interval (the worst case for
// the reconciliation). Measured in CPU time of this process (process.cpuUsage), not wall time, so a
// loaded machine does not skew it: the requests, the drains, the pipelines' encoding, the replies and the
// other replica's totals folded in. Redis's own CPU (INFO cpu) is given beside it, and a clustered
// table's read path alone (what the read threads pay). Rounds alternate the three; figures are medians.
import { once } from 'node:events';
import { setImmediate as yieldToTimers } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { FixedWindowRateLimiter } from '../src/http/rate-limit.js';
import { RateLimitSync } from '../src/cluster/limit-sync.js';
import { startRedis } from '../test/support/redis.js';

const ADDRESSES = 100_000;
/** Requests between two yields to the event loop (where the reconciliation's timer runs). */
const BATCH = 1024;
const T0 = 29_000_000 * 60_000;
/** High enough that no request is refused: each is counted, and reconciled. */
const POLICY = { name: 'per-ip', limit: 1e9, windowSeconds: 60 };
const QUIET = { info() {}, error() {} };

export interface ClusterLimitsBench {
  requestsPerRound: number;
  rounds: number;
  localNs: number;
  /** A clustered table's read path alone (the pending word and list; nothing drains): the read threads' cost. */
  readPathNs: number;
  clusteredNs: number;
  /** This process's CPU per address sent to Redis and folded back (both replicas' totals): the main thread's cost. */
  reconcileNsPerKey: number;
  /** Redis's CPU per request (user + sys, INFO cpu), beside this process's. */
  redisNs: number;
  /** Reconciliations per replica per clustered round, and keys each sent. */
  syncsPerRound: number;
  keysPerSync: number;
}

export async function benchClusterLimits(requestsPerRound: number, rounds: number): Promise<ClusterLimitsBench> {
  const addresses = Array.from({ length: ADDRESSES }, (_, i) => `10.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`);
  const redis = await startRedis();
  const info = new Redis(redis.url);
  const local: number[] = [];
  const readPath: number[] = [];
  const clustered: number[] = [];
  const redisCpu: number[] = [];
  let syncs = 0;
  let keys = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      local.push(await cpuNsPerRequest([limiter(false), limiter(false)], addresses, requestsPerRound, async () => {}));
      readPath.push(await cpuNsPerRequest([limiter(true), limiter(true)], addresses, requestsPerRound, async () => {}));
      const pair = [limiter(true), limiter(true)];
      const replicas = pair.map((one) => new RateLimitSync({ redisUrl: redis.url, limiters: [one], log: QUIET, now: () => T0 }));
      for (const replica of replicas) replica.on('synced', (sent: { keys: number }) => ((syncs += 1), (keys += sent.keys)));
      await Promise.all(replicas.map((replica) => (replica.start(), once(replica, 'state'))));
      const redisBefore = await redisCpuMs(info);
      // every request reconciled: two more reconciliations each after the last (the first may have drained before it)
      const flushed = async () => void (await Promise.all(replicas.map(async (replica) => (await once(replica, 'synced'), await once(replica, 'synced')))));
      clustered.push(await cpuNsPerRequest(pair, addresses, requestsPerRound, flushed));
      redisCpu.push((((await redisCpuMs(info)) - redisBefore) * 1e6) / requestsPerRound);
      await Promise.all(replicas.map((replica) => replica.close()));
      await info.flushall();
    }
  } finally {
    info.disconnect();
    await redis.stop();
  }
  const [clusteredNs, readPathNs] = [median(clustered), median(readPath)];
  const reconcileNsPerKey = ((clusteredNs - readPathNs) * requestsPerRound * rounds) / Math.max(1, keys);
  return { requestsPerRound, rounds, localNs: median(local), readPathNs, clusteredNs, reconcileNsPerKey, redisNs: median(redisCpu), syncsPerRound: syncs / rounds / 2, keysPerSync: keys / Math.max(1, syncs) };
}

const limiter = (clustered: boolean) => new FixedWindowRateLimiter(POLICY, { clustered });

/** This process's CPU time per request while `requests` are counted over `limiters` in turn, `after` included. */
async function cpuNsPerRequest(limiters: FixedWindowRateLimiter[], addresses: string[], requests: number, after: () => Promise<void>): Promise<number> {
  const started = process.cpuUsage();
  for (let at = 0; at < requests; ) {
    for (const end = Math.min(requests, at + BATCH); at < end; at++) limiters[at & 1].take(addresses[at % addresses.length], T0);
    await yieldToTimers();
  }
  await after();
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / requests;
}

async function redisCpuMs(client: Redis): Promise<number> {
  const text = await client.info('cpu');
  const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(text)?.[1] ?? 0);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
