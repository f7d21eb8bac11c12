// Two replicas (two servers in this process, each with its own limiter tables) sharing one real
// redis-server on loopback through REDIS_URL, as docs/SCALING.md lays them out: one address's requests
// spread over both are refused on both once they have reconciled; with Redis hanging or stopped each counts alone,
// logs it once and /status says so; with Redis back the counts (also those made meanwhile) are shared
// again. The clock is injected and fixed inside one window; waits are for the replicas' events (a
// reconciliation, another replica's totals, a change of state), never for a time.
import assert from 'node:assert/strict';
import { once, type EventEmitter } from 'node:events';
import { after, before, test } from 'node:test';
import { FIXED_NOW, importedData, serve, type Answer, type Data, type Served } from '../support/server.js';
import { noRedis, startRedis, type TestRedis } from '../support/redis.js';
import type { Logger } from '../../src/log.js';
import type { RateLimitSync } from '../../src/cluster/limit-sync.js';
import { limiterOf } from '../../src/api/limits.js';
import { RATE_LIMIT_POLICIES } from '../../src/schemas/operations.js';

const NEAREST = '/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=3';
/** One second into a window: every answer says 59 seconds to its end. */
const NOW = FIXED_NOW + 1000;
const PASSWORD = 'correct-horse-battery-staple';
/** Against a hang only (replicas that never reconcile), not a measure of how fast they do. */
const HANG_GUARD_MS = 120_000;
const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'ratelimit', 'retry-after'];

/** One replica: its server, what it logged. */
interface Replica {
  served: Served;
  sync: RateLimitSync;
  lines: string[];
  data: Data;
}

let redis: TestRedis;
let a: Replica;
let b: Replica;

async function replica(url: string): Promise<Replica> {
  const data = await importedData();
  const lines: string[] = [];
  const log: Logger = {
    info: (message, fields) => lines.push(`info ${message} ${JSON.stringify(fields ?? {})}`),
    error: (message, fields) => lines.push(`error ${message} ${JSON.stringify(fields ?? {})}`),
  };
  const env = { REDIS_URL: url, RATE_LIMIT_PER_MINUTE: '60', TRUST_PROXY: '1' };
  const served = await serve({ db: data.toiletsDb, overlayDb: data.overlayDb, env, now: () => NOW, log });
  return { served, sync: served.app.limitSync!, lines, data };
}

before(async () => {
  if (noRedis) return;
  redis = await startRedis({ password: PASSWORD });
  [a, b] = await Promise.all([replica(redis.url), replica(redis.url)]);
  await Promise.all([a, b].map((r) => stateIs(r, 'connected')));
});

after(async () => {
  for (const r of [a, b]) {
    if (r === undefined) continue;
    await r.served.close();
    r.data.remove();
  }
  await redis?.stop();
});

const get = (r: Replica, ip: string): Promise<Answer> => r.served.call(NEAREST, { headers: { 'X-Forwarded-For': ip } });

/** Resolves once the replica's rate-limit state is `state` (now, or at its next change). */
async function stateIs(r: Replica, state: string): Promise<void> {
  while (r.sync.status().redis!.state !== state) await once(r.sync, 'state');
}

/** Resolves after `count` more of the emitter's `event`. */
async function events(emitter: EventEmitter, event: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await once(emitter, event);
}

/**
 * Resolves once `ip` has `remaining` left on both replicas (what their next answer would say), checked
 * after every reconciliation and every total received from the other: events, not time.
 */
async function reconciled(ip: string, remaining: number): Promise<void> {
  const left = (r: Replica) => limiterOf(r.served.app.limits, RATE_LIMIT_POLICIES.perIp).peek(ip, NOW).remaining;
  while (left(a) !== remaining || left(b) !== remaining) {
    const done = new AbortController();
    await Promise.race([a, b].flatMap((r) => [once(r.sync, 'synced', done), once(r.sync, 'received', done)]));
    done.abort();
  }
}

function limitHeaders(answer: Answer): Record<string, string | null> {
  return Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, answer.headers.get(name)]));
}

const REFUSED = {
  'ratelimit-limit': '60',
  'ratelimit-remaining': '0',
  'ratelimit-reset': '59',
  'ratelimit-policy': '"per-ip";q=60;w=60',
  ratelimit: '"per-ip";r=0;t=59',
  'retry-after': '59',
};

/** 30 requests from `ip` on each replica, in turn: all allowed (each replica knows at most 60 of them). */
async function spread(ip: string): Promise<void> {
  for (let i = 0; i < 60; i++) assert.equal((await get(i % 2 === 0 ? a : b, ip)).status, 200, `request ${i + 1}`);
}

test('the 61st request of a minute from one address, spread over two replicas, is refused by both alike', { skip: noRedis, timeout: HANG_GUARD_MS }, async () => {
  for (const r of [a, b]) {
    const status = (await r.served.call('/status')).json.rate_limits;
    assert.deepEqual({ ...status, redis: { ...status.redis, since: 'x' } }, {
      scope: 'cluster',
      redis: { host: `127.0.0.1:${redis.port}`, state: 'connected', since: 'x', last_error: null, last_sync_at: status.redis.last_sync_at },
    });
  }
  await spread('203.0.113.7');
  await reconciled('203.0.113.7', 0);
  const refused = [await get(a, '203.0.113.7'), await get(b, '203.0.113.7')];
  for (const answer of refused) {
    assert.equal(answer.status, 429);
    assert.deepEqual(limitHeaders(answer), REFUSED);
    assert.equal(answer.json.retry_after_seconds, 59);
  }

  // an address only A has seen: B answers with A's count from its first request on
  for (let i = 0; i < 10; i++) await get(a, '203.0.113.8');
  await reconciled('203.0.113.8', 50);
  assert.equal((await get(b, '203.0.113.8')).headers.get('ratelimit-remaining'), '49');
  // IPv6 clients are counted by their /64, cluster-wide too
  for (let i = 0; i < 60; i++) await get(a, `2001:db8:1:2::${i.toString(16)}`);
  await reconciled('2001:db8:1:2::ffff', 0);
  assert.deepEqual(limitHeaders(await get(b, '2001:db8:1:2::abcd')), REFUSED);
});

test('Redis hanging with its connections open: the replicas count alone once a reconciliation times out, then go on', { skip: noRedis, timeout: HANG_GUARD_MS }, async () => {
  const linesBefore = a.lines.length;
  redis.pause();
  try {
    await stateIs(a, 'unreachable'); // the idle reconciliation's PING times out
    const status = (await a.served.call('/status')).json.rate_limits;
    assert.deepEqual([status.scope, status.redis.state, status.redis.last_error], ['replica', 'unreachable', 'Command timed out']);
    assert.equal((await get(a, '198.51.100.30')).headers.get('ratelimit-remaining'), '59', 'answered meanwhile');
  } finally {
    redis.resume();
  }
  await Promise.all([a, b].map((r) => stateIs(r, 'connected')));
  const redisLines = a.lines.slice(linesBefore).filter((line) => line.includes('Redis'));
  assert.deepEqual(redisLines.map((line) => line.split(':')[0]), ['error Redis cannot be reached', 'info Redis answers again'], redisLines.join('\n'));
});

test('Redis stopped: each replica counts alone, logs it once and says so in /status; Redis back: shared again', { skip: noRedis, timeout: HANG_GUARD_MS }, async () => {
  const port = redis.port;
  const linesBefore = [a, b].map((r) => r.lines.length);
  await redis.stop();
  await Promise.all([a, b].map((r) => stateIs(r, 'unreachable')));
  // reconnection attempts go on failing, and are not logged again
  await Promise.all([a, b].map((r) => events(r.sync, 'failed', 3)));
  for (const [n, r] of [a, b].entries()) {
    const outage = r.lines.slice(linesBefore[n]).filter((line) => line.includes('Redis'));
    assert.equal(outage.length, 1, outage.join('\n'));
    assert.match(outage[0], /^error Redis cannot be reached: each replica counts its rate limits alone until it answers again/);
    assert.ok(outage[0].includes(`"redis":"127.0.0.1:${port}"`));
    const status = (await r.served.call('/status')).json.rate_limits;
    assert.equal(status.scope, 'replica');
    assert.equal(status.redis.state, 'unreachable');
    assert.equal(typeof status.redis.last_error, 'string');
  }

  // local limits: 60 on A spend A's budget only
  for (let i = 0; i < 60; i++) assert.equal((await get(a, '198.51.100.20')).status, 200);
  assert.equal((await get(a, '198.51.100.20')).status, 429);
  const alone = await get(b, '198.51.100.20');
  assert.equal(alone.status, 200);
  assert.equal(alone.headers.get('ratelimit-remaining'), '59');

  redis = await startRedis({ port, password: PASSWORD });
  await Promise.all([a, b].map((r) => stateIs(r, 'connected')));
  for (const r of [a, b]) {
    assert.equal(r.lines.slice(linesBefore[[a, b].indexOf(r)]).filter((line) => line.startsWith('info Redis answers again')).length, 1, r.lines.join('\n'));
    assert.equal((await r.served.call('/status')).json.rate_limits.scope, 'cluster');
  }
  // what was counted during the outage reaches Redis now: B learns of A's 60
  await reconciled('198.51.100.20', 0);
  assert.equal((await get(b, '198.51.100.20')).status, 429);
  await spread('203.0.113.9');
  await reconciled('203.0.113.9', 0);
  for (const r of [a, b]) assert.deepEqual(limitHeaders(await get(r, '203.0.113.9')), REFUSED);

  for (const r of [a, b]) {
    const everything = r.lines.join('\n') + JSON.stringify((await r.served.call('/status')).json);
    assert.ok(!everything.includes(PASSWORD), 'the password in REDIS_URL is never logged or shown');
  }
});
