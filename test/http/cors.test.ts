import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CorsPolicy, PUBLIC_READ_EXPOSED_HEADERS } from '../../src/http/cors.js';
import { rawRequest, startServer, type TestServer } from './harness.js';

const publicReads = new CorsPolicy({ allowHeaders: ['Content-Type', 'If-None-Match'], exposeHeaders: PUBLIC_READ_EXPOSED_HEADERS, maxAgeSeconds: 86400 });

describe('CORS', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer((server) => {
      server.route({ method: 'GET', pattern: '/api/toilets', cors: publicReads, handler: () => ({ status: 200, headers: ['Content-Type', 'application/json'], body: '[]' }) });
      server.route({ method: 'GET', pattern: '/api/toilets/:id', cors: publicReads, handler: () => ({ status: 200, body: '{}' }) });
      // A site-page write route on the same path as a public read: not CORS-enabled.
      server.route({ method: 'POST', pattern: '/api/toilets', maxBodyBytes: 100, handler: () => ({ status: 201, body: '{}' }) });
      server.route({ method: 'POST', pattern: '/api/ratings', maxBodyBytes: 100, handler: () => ({ status: 201, body: '{}' }) });
      server.route({ method: 'GET', pattern: '/web', cors: publicReads, handler: () =>
        new Response('{}', { headers: { 'Access-Control-Allow-Origin': 'https://other.example', 'Content-Type': 'application/json' } }),
      });
    });
  });
  after(() => t.server.close());

  test('public reads allow every origin, expose the rate-limit headers, and set no cookie', async () => {
    for (const headers of [{ Origin: 'https://maps.example' }, {}] as Record<string, string>[]) {
      const answer = await rawRequest(`${t.origin}/api/toilets?lat=1&lon=2`, { headers });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers['access-control-allow-origin'], '*');
      assert.equal(answer.headers['access-control-expose-headers'], PUBLIC_READ_EXPOSED_HEADERS.join(', '));
      assert.equal(answer.headers['content-type'], 'application/json');
      assert.equal(answer.headers['set-cookie'], undefined);
      assert.equal(answer.headers.vary, undefined);
    }
  });

  test('a preflight gets 204 with the CORS methods, headers and max-age', async () => {
    const answer = await rawRequest(`${t.origin}/api/toilets`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://maps.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
    });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    // The POST on this path is a site-page write: not offered cross-origin.
    assert.equal(answer.headers['access-control-allow-methods'], 'GET, HEAD');
    assert.equal(answer.headers['access-control-allow-headers'], 'Content-Type, If-None-Match');
    assert.equal(answer.headers['access-control-max-age'], '86400');
    assert.equal(answer.body.length, 0);
  });

  test('write routes answer without CORS headers and refuse preflights', async () => {
    const post = await rawRequest(`${t.origin}/api/toilets`, { method: 'POST', headers: { Origin: 'https://evil.example' }, body: '{}' });
    assert.equal(post.status, 201);
    assert.equal(post.headers['access-control-allow-origin'], undefined);
    const preflight = await rawRequest(`${t.origin}/api/ratings`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    assert.equal(preflight.status, 405);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    assert.equal(preflight.headers.allow, 'POST');
  });

  test('a 405 on a CORS path lists OPTIONS among the allowed methods', async () => {
    const answer = await rawRequest(`${t.origin}/api/toilets/7`, { method: 'PUT' });
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.allow, 'GET, HEAD, OPTIONS');
  });

  test('the route’s CORS headers replace those of a web Response, never doubling them', async () => {
    const answer = await rawRequest(`${t.origin}/web`, { headers: { Origin: 'https://maps.example' } });
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.equal(answer.headers['content-type'], 'application/json');
  });
});
