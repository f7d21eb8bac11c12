import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { FixedWindowRateLimiter } from '../../src/http/rate-limit.js';
import { collectGarbage } from '../../src/memory.js';
import { startServer } from './harness.js';

const MINUTE = 60_000;
// A window start well after the epoch, as real clocks give.
const T0 = 29_000_000 * MINUTE;

describe('FixedWindowRateLimiter', () => {
  test('allows `limit` requests per window per key, then refuses until the window ends', () => {
    const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 3, windowSeconds: 60 });
    assert.deepEqual(limiter.take('a', T0), { allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    assert.deepEqual(limiter.take('a', T0 + 1), { allowed: true, limit: 3, remaining: 1, resetSeconds: 60 });
    assert.deepEqual(limiter.take('a', T0 + 43_000), { allowed: true, limit: 3, remaining: 0, resetSeconds: 17 });
    assert.deepEqual(limiter.take('a', T0 + 59_999), { allowed: false, limit: 3, remaining: 0, resetSeconds: 1 });
    // Another key has its own count.
    assert.equal(limiter.take('b', T0 + 59_999).remaining, 2);
    // The next window starts fresh.
    assert.deepEqual(limiter.take('a', T0 + MINUTE), { allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
  });

  test('peek reads what take would answer and counts nothing, in the table and in the sketch', () => {
    const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 2, windowSeconds: 60 }, { maxKeys: 1, sketchWidth: 1024 });
    const T = 60_000 * 28_333_334; // the start of a window
    assert.deepEqual(limiter.peek('192.0.2.1', T), { allowed: true, limit: 2, remaining: 2, resetSeconds: 60 });
    limiter.take('192.0.2.1', T);
    for (let i = 0; i < 5; i++) assert.equal(limiter.peek('192.0.2.1', T).remaining, 1, 'peeking spends nothing');
    limiter.take('192.0.2.1', T);
    assert.deepEqual(limiter.peek('192.0.2.1', T), { allowed: false, limit: 2, remaining: 0, resetSeconds: 60 });
    limiter.take('192.0.2.2', T); // past maxKeys: counted in the sketch
    assert.equal(limiter.peek('192.0.2.2', T).remaining, 1);
    assert.equal(limiter.peek('192.0.2.1', T + 60_000).remaining, 2, 'a new window');
  });

  test('reset counts whole seconds up to the window end', () => {
    const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 60, windowSeconds: 60 });
    assert.equal(limiter.take('k', T0 + 42_001).resetSeconds, 18);
    assert.equal(limiter.take('k', T0 + 43_000).resetSeconds, 17);
    assert.equal(limiter.take('k', T0 + 59_000).resetSeconds, 1);
  });

  test('a limit of 0 or Infinity disables the policy', () => {
    for (const limit of [0, Infinity]) {
      const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit, windowSeconds: 60 });
      assert.equal(limiter.enabled, false);
      for (let i = 0; i < 1000; i++) assert.equal(limiter.take('a', T0).allowed, true);
      assert.equal(limiter.trackedKeys, 0);
      assert.deepEqual(limiter.headers(limiter.take('a', T0)), []);
    }
  });

  test('a flood of new addresses locks out nobody: past the exact table each address keeps its own limit', () => {
    const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 5, windowSeconds: 60 }, { maxKeys: 1000, sketchWidth: 1 << 12 });
    for (let i = 0; i < 5000; i++) assert.equal(limiter.take(`flood-${i}`, T0).allowed, true, `flood-${i}`);
    assert.equal(limiter.trackedKeys, 1000);
    // An address first seen past the cap gets its five requests and is refused on the sixth.
    for (let n = 0; n < 5; n++) assert.equal(limiter.take('late', T0 + 1).allowed, true);
    assert.deepEqual(limiter.take('late', T0 + 2), { allowed: false, limit: 5, remaining: 0, resetSeconds: 60 });
    // Addresses counted before the cap keep theirs, and a new window forgets the flood.
    assert.equal(limiter.take('flood-1', T0 + 3).remaining, 3);
    assert.equal(limiter.take('late', T0 + MINUTE).remaining, 4);
    assert.equal(limiter.trackedKeys, 1);
  });

  test('after a million addresses in one window, new ones are served, limits hold, memory grows at most 64 MB', () => {
    const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 60, windowSeconds: 60 });
    assert.ok(limiter.table.byteLength <= 64 * 2 ** 20, `the table reserves ${limiter.table.byteLength} bytes`);
    const address = (n: number) => `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
    collectGarbage();
    const rssBefore = process.memoryUsage().rss;
    let refusedInFlood = 0;
    for (let i = 0; i < 2_000_000; i++) if (!limiter.take(i < 1_000_000 ? address(i) : `2001:db8:${(i >>> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`, T0 + (i % 50_000)).allowed) refusedInFlood++;
    assert.equal(refusedInFlood, 0, 'no address of the flood sent more than its limit');
    assert.equal(limiter.trackedKeys, 1_000_000);
    // 1,000 fresh addresses past the million, 60 requests each: every one allowed (the spec's limit), the 61st refused.
    let falseRefusals = 0;
    let refusedAt61 = 0;
    for (let k = 0; k < 1000; k++) {
      const ip = `192.0.${k >>> 8}.${k & 255}`;
      for (let n = 0; n < 60; n++) if (!limiter.take(ip, T0 + 50_000).allowed) falseRefusals++;
      if (!limiter.take(ip, T0 + 50_001).allowed) refusedAt61++;
    }
    assert.ok(falseRefusals <= 60, `${falseRefusals} of 60,000 requests within the limit refused (at most 0.1%)`);
    assert.equal(refusedAt61, 1000, 'every 61st request is refused');
    // An address counted exactly before the flood ended still holds its own budget.
    assert.equal(limiter.take(address(7), T0 + 50_002).remaining, 58);
    collectGarbage();
    const grownMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    assert.ok(grownMb <= 64, `memory grew by ${grownMb.toFixed(1)} MB`);
  });

  test('IPv6 addresses are counted by their /64', () => {
    const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 60, windowSeconds: 60 });
    for (let i = 1; i <= 60; i++) assert.equal(limiter.take(`2001:db8:1:2::${i.toString(16)}`, T0).allowed, true);
    assert.equal(limiter.take('2001:db8:1:2:ffff:ffff:ffff:ffff', T0).allowed, false, 'the 61st address of one /64 is refused');
    assert.equal(limiter.take('2001:db8:1:3::1', T0).allowed, true, 'the next /64 has its own budget');
    assert.equal(limiter.take('192.0.2.1', T0).allowed, true, 'IPv4 addresses are counted one by one');
  });

  test('limiters over one table count together, also from two threads at once, without losing a count', async () => {
    const policy = { name: 'per-ip', limit: 1_000_000, windowSeconds: 60 };
    const first = new FixedWindowRateLimiter(policy, { maxKeys: 1000 });
    const second = new FixedWindowRateLimiter(policy, { maxKeys: 1000, table: first.table });
    assert.equal(first.take('a', T0).remaining, 999_999);
    assert.equal(second.take('a', T0).remaining, 999_998);
    assert.equal(second.take('b', T0).remaining, 999_999);
    assert.throws(() => new FixedWindowRateLimiter(policy, { maxKeys: 2000, table: first.table }), /must have \d+ bytes for 2000 keys/);

    // Another thread takes for keys a0…a3 while this one does too: every take is counted once.
    const rounds = 100_000;
    const module = new URL('../../src/http/rate-limit.js', import.meta.url).href;
    const worker = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       import(workerData.module).then(({ FixedWindowRateLimiter }) => {
         const limiter = new FixedWindowRateLimiter(workerData.policy, { maxKeys: 1000, table: workerData.table });
         parentPort.postMessage('ready');
         for (let i = 0; i < workerData.rounds; i++) for (let k = 0; k < 4; k++) limiter.take('a' + k, workerData.now);
         parentPort.postMessage('done');
       });`,
      { eval: true, workerData: { module, policy, table: first.table, rounds, now: T0 } },
    );
    await once(worker, 'message');
    for (let i = 0; i < rounds; i++) for (let k = 0; k < 4; k++) first.take(`a${k}`, T0);
    await once(worker, 'message');
    await worker.terminate();
    for (let k = 0; k < 4; k++) assert.equal(first.take(`a${k}`, T0).remaining, policy.limit - 2 * rounds - 1);
    assert.equal(first.trackedKeys, 6);
  });

  test('rejects unusable policies', () => {
    assert.throws(() => new FixedWindowRateLimiter({ name: 'per-ip', limit: 60, windowSeconds: 0 }), RangeError);
    assert.throws(() => new FixedWindowRateLimiter({ name: 'per-ip', limit: -1, windowSeconds: 60 }), RangeError);
    assert.throws(() => new FixedWindowRateLimiter({ name: 'per "ip"', limit: 60, windowSeconds: 60 }), RangeError);
  });
});

describe('a clustered table (REDIS_URL: src/cluster reconciles it)', () => {
  const policy = { name: 'per-ip', limit: 5, windowSeconds: 60 };
  const W = T0 / MINUTE;

  test('drain gives each key\'s requests since the last drain once, and only the current window\'s', () => {
    const limiter = new FixedWindowRateLimiter(policy, { maxKeys: 16, clustered: true });
    assert.equal(limiter.windowAt(T0 + 59_999), W);
    limiter.take('192.0.2.1', T0);
    limiter.take('192.0.2.1', T0);
    limiter.take('192.0.2.2', T0);
    const first = limiter.drain(W);
    assert.equal(first.length, 6, 'two keys, each once');
    assert.deepEqual(first.filter((_, i) => i % 3 === 2).sort((x, y) => x - y), [1, 2]);
    assert.deepEqual(limiter.drain(W), [], 'nothing new');
    limiter.take('192.0.2.1', T0);
    const second = limiter.drain(W);
    assert.deepEqual([second.length, second[2]], [3, 1]);
    assert.deepEqual([second[0], second[1]], first[2] === 2 ? [first[0], first[1]] : [first[3], first[4]], 'the same key');
    limiter.take('192.0.2.3', T0);
    assert.deepEqual(limiter.drain(W + 1), [], 'an earlier window\'s requests are dropped');
  });

  test('merge makes a key count the cluster\'s total plus what was counted here since the drain', () => {
    const limiter = new FixedWindowRateLimiter(policy, { maxKeys: 16, clustered: true });
    limiter.take('192.0.2.1', T0);
    const [hashA, hashB] = limiter.drain(W);
    limiter.take('192.0.2.1', T0); // counted while the drained one was on its way to Redis
    limiter.merge(W, [hashA, hashB, 3]); // Redis: 1 from here and 2 from elsewhere
    assert.equal(limiter.peek('192.0.2.1', T0).remaining, 1, '3 + 1 of 5');
    limiter.merge(W, [hashA, hashB, 2]);
    assert.equal(limiter.peek('192.0.2.1', T0).remaining, 1, 'a late, smaller total changes nothing');
    assert.deepEqual(limiter.drain(W).slice(2), [1], 'the request counted meanwhile is still pending');
    assert.equal(limiter.take('192.0.2.1', T0).remaining, 0);
    assert.equal(limiter.take('192.0.2.1', T0).allowed, false);
    limiter.merge(W - 1, [hashA, hashB, 0]);
    limiter.merge(W - 1, [1, 2, 5]);
    assert.equal(limiter.peek('192.0.2.1', T0).remaining, 0, 'an earlier window is ignored');
  });

  test('merge adds a key only other replicas counted, refused here from its first request', () => {
    const elsewhere = new FixedWindowRateLimiter(policy, { maxKeys: 16, clustered: true });
    for (let i = 0; i < 5; i++) elsewhere.take('2001:db8::1', T0);
    const spent = elsewhere.drain(W);
    const limiter = new FixedWindowRateLimiter(policy, { maxKeys: 16, clustered: true });
    limiter.merge(W, spent);
    assert.equal(limiter.trackedKeys, 1);
    assert.deepEqual(limiter.take('2001:db8::2', T0), { allowed: false, limit: 5, remaining: 0, resetSeconds: 60 }, 'the same /64');
    assert.deepEqual(limiter.drain(W), [], 'a refused request is not counted');
    assert.equal(limiter.take('192.0.2.9', T0).remaining, 4);
  });

  test('threads over one clustered table drain into one list, and the table has room for every key', async () => {
    const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 1_000_000, windowSeconds: 60 }, { maxKeys: 1000, clustered: true });
    const source = `
      const { workerData, parentPort } = require('node:worker_threads');
      import(workerData.module).then(({ FixedWindowRateLimiter }) => {
        const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 1_000_000, windowSeconds: 60 }, { maxKeys: 1000, table: workerData.table, clustered: true });
        for (let i = 0; i < 2000; i++) limiter.take('10.0.' + ((i % 1000) >> 8) + '.' + ((i % 1000) & 255), workerData.now);
        parentPort.postMessage('done');
      });`;
    const module = new URL('../../src/http/rate-limit.js', import.meta.url).href;
    const workers = [0, 1].map(() => new Worker(source, { eval: true, workerData: { module, table: limiter.table, now: T0 } }));
    await Promise.all(workers.map((worker) => once(worker, 'message')));
    await Promise.all(workers.map((worker) => worker.terminate()));
    const drained = limiter.drain(W);
    assert.equal(drained.length / 3, 1000, 'every key once');
    assert.equal(drained.filter((_, i) => i % 3 === 2).reduce((a, b) => a + b, 0), 4000, 'every request');
  });
});

describe('rate-limit headers on the wire', () => {
  test('match protocol-notes §6, and a 429 carries Retry-After equal to retry_after_seconds', async () => {
    const perIp = new FixedWindowRateLimiter({ name: 'per-ip', limit: 60, windowSeconds: 60 });
    const area = new FixedWindowRateLimiter({ name: 'area-per-ip', limit: 300, windowSeconds: 60 });
    let now = T0;
    const t = await startServer((server, problems) => {
      for (const [path, limiter] of [['/near', perIp], ['/area', area]] as const) {
        server.route({ method: 'GET', pattern: path, handler: (request) => {
          const result = limiter.take(request.ip, now);
          if (!result.allowed) {
            const headers = limiter.headers(result);
            return problems.reply('rate-limited', 'Wait before sending more requests.', { retryAfterSeconds: result.resetSeconds, headers });
          }
          return { status: 200, headers: limiter.headers(result, ['Content-Type', 'application/json']), body: '{}' };
        } });
      }
    });
    try {
      for (let i = 0; i < 17; i++) perIp.take('127.0.0.1', T0);
      now = T0 + 43_000;
      const ok = await fetch(`${t.origin}/near`);
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get('content-type'), 'application/json');
      assert.equal(ok.headers.get('ratelimit-limit'), '60');
      assert.equal(ok.headers.get('ratelimit-remaining'), '42');
      assert.equal(ok.headers.get('ratelimit-reset'), '17');
      assert.equal(ok.headers.get('ratelimit-policy'), '"per-ip";q=60;w=60');
      assert.equal(ok.headers.get('ratelimit'), '"per-ip";r=42;t=17');
      assert.equal(ok.headers.get('retry-after'), null);
      await ok.body?.cancel();

      const areaAnswer = await fetch(`${t.origin}/area`);
      assert.equal(areaAnswer.headers.get('ratelimit-policy'), '"area-per-ip";q=300;w=60');
      assert.equal(areaAnswer.headers.get('ratelimit'), '"area-per-ip";r=299;t=17');
      await areaAnswer.body?.cancel();

      for (let i = 0; i < 42; i++) perIp.take('127.0.0.1', now);
      const limited = await fetch(`${t.origin}/near`);
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('content-type'), 'application/problem+json');
      assert.equal(limited.headers.get('retry-after'), '17');
      assert.equal(limited.headers.get('ratelimit-remaining'), '0');
      assert.equal(limited.headers.get('ratelimit'), '"per-ip";r=0;t=17');
      const problem = (await limited.json()) as { type: string; status: number; retry_after_seconds: number };
      assert.equal(problem.status, 429);
      assert.equal(problem.retry_after_seconds, 17);
      assert.match(problem.type, /\/problems\/rate-limited$/);
    } finally {
      await t.server.close();
    }
  });
});
