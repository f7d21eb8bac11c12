import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { FixedWindowRateLimiter } from '../../src/http/rate-limit.js';
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

  test('memory stays bounded under a million distinct keys; newcomers past the cap share one quota', () => {
    const limiter = new FixedWindowRateLimiter({ name: 'per-ip', limit: 5, windowSeconds: 60 }, { maxKeys: 10_000 });
    let allowedPastCap = 0;
    for (let i = 0; i < 1_000_000; i++) {
      const result = limiter.take(`key-${i}`, T0 + (i % 1000));
      if (i >= 10_000 && result.allowed) allowedPastCap++;
    }
    assert.equal(limiter.trackedKeys, 10_000);
    assert.equal(allowedPastCap, 5);
    // Keys counted before the cap keep their own quota.
    assert.equal(limiter.take('key-1', T0 + 1000).remaining, 3);
    // A new window drops the table.
    limiter.take('fresh', T0 + MINUTE);
    assert.equal(limiter.trackedKeys, 1);
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
