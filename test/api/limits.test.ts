// Rate limits over HTTP with an injected clock: nearest and getToilet share RATE_LIMIT_PER_MINUTE,
// listToiletsInArea has AREA_RATE_LIMIT_PER_MINUTE; windows are whole clock minutes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BASE_URL, importedCopy, readSourceToilets, serve, tempDir, type Answer, type Served } from './support.js';

const NEAREST = '/api/v1/toilets/nearest?lat=41.14&lon=-8.61';
const AREA = '/api/v1/toilets?bbox=-8.62,41.13,-8.58,41.16';
/** 15 s into a clock minute: 45 s until the window resets. */
const START = Date.parse('2024-06-05T08:00:15Z');

function rateHeaders(answer: Answer) {
  const h = answer.headers;
  return {
    limit: h.get('ratelimit-limit'),
    remaining: h.get('ratelimit-remaining'),
    reset: h.get('ratelimit-reset'),
    policy: h.get('ratelimit-policy'),
    rateLimit: h.get('ratelimit'),
  };
}

describe('rate limits', () => {
  const dir = tempDir();
  const db = join(dir.path, 'toilets.db');
  let nowMs = START;
  let limited: Served;
  let unlimited: Served;
  let someId: string;

  before(async () => {
    await importedCopy('porto', db);
    someId = readSourceToilets(db)[0].id;
    // One trusted proxy hop: X-Forwarded-For names the client, and requests without it count for the socket's peer.
    limited = await serve({ db, now: () => nowMs, env: { RATE_LIMIT_PER_MINUTE: '3', AREA_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '1' } });
    unlimited = await serve({ db, now: () => nowMs, env: { RATE_LIMIT_PER_MINUTE: '0', AREA_RATE_LIMIT_PER_MINUTE: '0' } });
  });
  after(async () => {
    await limited?.close(); // undefined when before() failed; the folder still goes
    await unlimited?.close();
    dir.remove();
  });

  test('nearest and getToilet share one budget; 400 and 404 count and carry the headers; then 429 with Retry-After', async () => {
    const ok = await limited.call(NEAREST);
    assert.equal(ok.status, 200);
    assert.deepEqual(rateHeaders(ok), { limit: '3', remaining: '2', reset: '45', policy: '"per-ip";q=3;w=60', rateLimit: '"per-ip";r=2;t=45' });

    nowMs = START + 5000;
    const notFound = await limited.call('/api/v1/toilets/n1');
    assert.equal(notFound.status, 404);
    assert.deepEqual([rateHeaders(notFound).limit, rateHeaders(notFound).remaining, rateHeaders(notFound).reset], ['3', '1', '40']);

    const invalid = await limited.call(`${NEAREST}&limit=0`);
    assert.equal(invalid.status, 400);
    assert.deepEqual([rateHeaders(invalid).limit, rateHeaders(invalid).remaining, rateHeaders(invalid).reset], ['3', '0', '40']);

    for (const path of [NEAREST, `/api/v1/toilets/${someId}`, '/api/v1/toilets/nearest']) {
      const refused = await limited.call(path);
      assert.equal(refused.status, 429, path);
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
      assert.equal(refused.json.type, `${BASE_URL}/problems/rate-limited`);
      assert.equal(refused.json.retry_after_seconds, 40);
      assert.equal(refused.headers.get('retry-after'), '40');
      assert.deepEqual(rateHeaders(refused), { limit: '3', remaining: '0', reset: '40', policy: '"per-ip";q=3;w=60', rateLimit: '"per-ip";r=0;t=40' });
      assert.equal(refused.headers.get('access-control-allow-origin'), '*');
    }
  });

  test('the area listing has its own budget, untouched by the other reads', async () => {
    const first = await limited.call(AREA);
    assert.equal(first.status, 200);
    assert.deepEqual(rateHeaders(first), { limit: '2', remaining: '1', reset: '40', policy: '"area-per-ip";q=2;w=60', rateLimit: '"area-per-ip";r=1;t=40' });
    const invalid = await limited.call('/api/v1/toilets?bbox=1,2,3');
    assert.equal(invalid.status, 400);
    assert.equal(rateHeaders(invalid).remaining, '0');
    const refused = await limited.call(AREA);
    assert.equal(refused.status, 429);
    assert.equal(refused.json.retry_after_seconds, 40);
    assert.equal(refused.headers.get('retry-after'), '40');
    assert.deepEqual(rateHeaders(refused), { limit: '2', remaining: '0', reset: '40', policy: '"area-per-ip";q=2;w=60', rateLimit: '"area-per-ip";r=0;t=40' });
  });

  test('each client address has its own budget', async () => {
    const other = await limited.call(NEAREST, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
    assert.equal(other.status, 200);
    assert.equal(rateHeaders(other).remaining, '2');
    const spent = await limited.call(NEAREST, { headers: { 'X-Forwarded-For': '127.0.0.1' } });
    assert.equal(spent.status, 429, 'the first address is still refused');
  });

  test('IPv6 clients are counted by their /64: new addresses of one /64 share its budget', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) statuses.push((await limited.call(NEAREST, { headers: { 'X-Forwarded-For': `2001:db8:7:8::${i}` } })).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    const next = await limited.call(NEAREST, { headers: { 'X-Forwarded-For': '2001:db8:7:9::1' } });
    assert.equal(next.status, 200, 'the next /64 has its own budget');
  });

  test('the next clock minute refills every budget', async () => {
    nowMs = Date.parse('2024-06-05T08:01:00Z');
    const nearest = await limited.call(NEAREST);
    assert.equal(nearest.status, 200);
    assert.deepEqual(rateHeaders(nearest), { limit: '3', remaining: '2', reset: '60', policy: '"per-ip";q=3;w=60', rateLimit: '"per-ip";r=2;t=60' });
    const area = await limited.call(AREA);
    assert.equal(area.status, 200);
    assert.equal(rateHeaders(area).remaining, '1');
  });

  test('a limit of 0 lifts it: no rate-limit headers and no 429', async () => {
    for (let i = 0; i < 10; i++) {
      for (const path of [NEAREST, AREA, `/api/v1/toilets/${someId}`]) {
        const answer = await unlimited.call(path);
        assert.equal(answer.status, 200);
        assert.deepEqual(rateHeaders(answer), { limit: null, remaining: null, reset: null, policy: null, rateLimit: null });
      }
    }
  });
});
