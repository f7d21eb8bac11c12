// The HTTP side of /mcp, with raw requests where the SDK clients would hide it: discovery and cache
// hints, no events and no authentication, the per-IP budget shared with REST (429 with a JSON-RPC body),
// RateLimit headers on every answer, the Origin allowlist, and the server card at both addresses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BASE_URL, CASINO, FIXED_NOW, MODERN, importMonaco, modernRequest, post, rateHeaders, serve, type Extract, type Served } from './support.js';

let extract: Extract;
before(async () => {
  extract = await importMonaco();
});
after(() => extract?.remove());

describe('the /mcp endpoint', () => {
  let served: Served;

  before(async () => {
    served = await serve({ db: extract.db });
  });
  after(() => served?.close());

  test('server/discover: the modern revision, tools only, no events, public cache hints, server info', async () => {
    const { status, body, headers } = await modernRequest(served.url, 'server/discover');
    assert.equal(status, 200);
    assert.equal(headers.get('content-type'), 'application/json');
    const result = body.result;
    assert.deepEqual(result.supportedVersions, [MODERN]);
    assert.deepEqual(result.capabilities, { tools: { listChanged: false } }, 'no events, no extensions, nothing but tools');
    assert.equal(result.resultType, 'complete');
    assert.deepEqual([result.ttlMs, result.cacheScope], [3_600_000, 'public']);
    assert.deepEqual(result._meta['io.modelcontextprotocol/serverInfo'], { name: 'toilet-finder', title: 'Public Toilet Finder', version: '1.0.0' });
    assert.match(result.instructions, /ask_user/);
  });

  test('tools/list carries public cache hints; tools/call results are not cached', async () => {
    const list = await modernRequest(served.url, 'tools/list');
    assert.deepEqual([list.body.result.ttlMs, list.body.result.cacheScope], [3_600_000, 'public']);
    const call = await modernRequest(served.url, 'tools/call', { name: 'find_toilets_near', arguments: { ...CASINO, limit: 1 } });
    assert.equal(call.status, 200);
    assert.equal(call.body.result.ttlMs, undefined);
    assert.equal(call.body.result.structuredContent.status, 'ok');
  });

  test('the 2025-11-25 handshake is answered statelessly: no session id is minted', async () => {
    const init = await post(served.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    assert.equal(init.status, 200);
    assert.equal(init.body.result.protocolVersion, '2025-11-25');
    assert.deepEqual(init.body.result.capabilities, { tools: { listChanged: false } });
    assert.equal(init.headers.get('mcp-session-id'), null);
  });

  test('no authentication: none is asked for, and an Authorization header is simply ignored', async () => {
    const plain = await modernRequest(served.url, 'tools/list');
    const withToken = await modernRequest(served.url, 'tools/list', {}, { Authorization: 'Bearer whatever' });
    for (const answer of [plain, withToken]) {
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('www-authenticate'), null);
    }
    assert.deepEqual(withToken.body.result.tools, plain.body.result.tools);
  });

  test('protocol faults are JSON-RPC errors with their HTTP statuses, each with the rate-limit headers', async () => {
    const mismatch = await modernRequest(served.url, 'tools/list', {}, { 'Mcp-Method': 'tools/call' }, 'm1');
    assert.equal(mismatch.status, 400);
    assert.deepEqual([mismatch.body.id, mismatch.body.error.code], ['m1', -32020]);

    const unknown = await modernRequest(served.url, 'prompts/list', {}, {}, 'm2');
    assert.equal(unknown.status, 404);
    assert.deepEqual([unknown.body.id, unknown.body.error.code], ['m2', -32601]);

    const get = await fetch(served.url);
    assert.equal(get.status, 405);
    assert.equal(((await get.json()) as { jsonrpc: string }).jsonrpc, '2.0');

    const notification = await post(served.url, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(notification.status, 202);

    const notJson = await fetch(served.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: '{"jsonrpc": "2.0", "id": 1,' });
    assert.equal(notJson.status, 400);
    assert.equal(((await notJson.json()) as any).error.code, -32700);

    for (const headers of [mismatch.headers, unknown.headers, get.headers, notification.headers, notJson.headers]) {
      const rate = rateHeaders(headers);
      assert.equal(rate.limit, '1000000');
      assert.equal(rate.policy, '"per-ip";q=1000000;w=60');
      assert.match(rate.rateLimit!, /^"per-ip";r=\d+;t=\d+$/);
    }
  });

  test('a browser preflight may send the MCP headers', async () => {
    const response = await fetch(served.url, { method: 'OPTIONS', headers: { Origin: 'https://chat.example', 'Access-Control-Request-Method': 'POST' } });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-headers')!, /Mcp-Method/);
    assert.match(response.headers.get('access-control-allow-methods')!, /POST/);
  });

  test('any Origin is admitted by default', async () => {
    const answer = await modernRequest(served.url, 'tools/list', {}, { Origin: 'https://anything.example' });
    assert.equal(answer.status, 200);
  });
});

describe('the per-IP budget /mcp shares with REST', () => {
  /** 15 s into a clock minute: 45 s until the window resets. */
  let nowMs = FIXED_NOW;
  let served: Served;

  before(async () => {
    served = await serve({ db: extract.db, now: () => nowMs, env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  after(() => served?.close());

  test('REST and MCP requests of any method count; over the budget: 429, Retry-After and a JSON-RPC error', async () => {
    const restAnswer = await fetch(`${served.origin}/api/v1/toilets/nearest?lat=${CASINO.lat}&lon=${CASINO.lon}`);
    assert.equal(restAnswer.status, 200);
    assert.equal(restAnswer.headers.get('ratelimit-remaining'), '2');

    const discover = await modernRequest(served.url, 'server/discover');
    assert.equal(discover.status, 200);
    assert.deepEqual(rateHeaders(discover.headers), { limit: '3', remaining: '1', reset: '45', policy: '"per-ip";q=3;w=60', rateLimit: '"per-ip";r=1;t=45' });

    nowMs += 5000;
    const get = await fetch(served.url);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('ratelimit-remaining'), '0');

    const refused = await modernRequest(served.url, 'tools/call', { name: 'get_toilet', arguments: { id: 'n1' } }, {}, 'call-9');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('content-type'), 'application/json');
    assert.equal(refused.headers.get('retry-after'), '40');
    assert.deepEqual(rateHeaders(refused.headers), { limit: '3', remaining: '0', reset: '40', policy: '"per-ip";q=3;w=60', rateLimit: '"per-ip";r=0;t=40' });
    assert.equal(refused.body.jsonrpc, '2.0');
    assert.equal(refused.body.id, 'call-9', 'the refusal answers the request it refuses');
    assert.equal(refused.body.error.code, -32000);
    assert.match(refused.body.error.message, /Wait 40 seconds, then send the request again/);
    assert.deepEqual(refused.body.error.data, { retry_after_seconds: 40 });

    const notification = await post(served.url, { jsonrpc: '2.0', method: 'notifications/initialized' });
    assert.equal(notification.status, 429);
    assert.equal(notification.body.id, null);

    const restRefused = await fetch(`${served.origin}/api/v1/toilets/nearest?lat=${CASINO.lat}&lon=${CASINO.lon}`);
    assert.equal(restRefused.status, 429, 'MCP spent the budget REST shares');

    nowMs += 40_000;
    const nextWindow = await modernRequest(served.url, 'tools/list');
    assert.equal(nextWindow.status, 200);
    assert.equal(nextWindow.headers.get('ratelimit-remaining'), '2');
  });
});

describe('the Origin allowlist', () => {
  let served: Served;

  before(async () => {
    served = await serve({ db: extract.db, env: { MCP_ALLOWED_ORIGINS: 'chat.example.com, https://agent.example' } });
  });
  after(() => served?.close());

  test('a page from another origin gets 403 with a JSON-RPC error; listed origins and non-browser clients pass', async () => {
    const refused = await modernRequest(served.url, 'tools/list', {}, { Origin: 'https://evil.example' }, 4);
    assert.equal(refused.status, 403);
    assert.deepEqual([refused.body.jsonrpc, refused.body.id, refused.body.error.code], ['2.0', 4, -32000]);
    assert.match(refused.body.error.message, /evil\.example/);
    assert.match(refused.body.error.message, /chat\.example\.com, agent\.example/);
    assert.equal(refused.headers.get('ratelimit-limit'), '1000000');

    for (const origin of ['https://chat.example.com', 'http://agent.example:8443']) {
      assert.equal((await modernRequest(served.url, 'tools/list', {}, { Origin: origin })).status, 200, origin);
    }
    assert.equal((await modernRequest(served.url, 'tools/list')).status, 200, 'no Origin header: not a browser page');
  });
});

describe('the body limit', () => {
  let served: Served;

  before(async () => {
    served = await serve({ db: extract.db, env: { RATE_LIMIT_PER_MINUTE: '50' } });
  });
  after(() => served?.close());

  test('a body over 64 KiB gets 413 as a JSON-RPC error, counted, with the RateLimit headers', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { pad: 'x'.repeat(70_000) } });
    const response = await fetch(served.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: big });
    assert.equal(response.status, 413);
    const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string } };
    assert.deepEqual([body.jsonrpc, body.error.code], ['2.0', -32000]);
    assert.match(body.error.message, /65536 bytes/);
    assert.equal(response.headers.get('ratelimit-remaining'), '49', 'the refused request counted toward the budget');
  });
});

describe('the server card', () => {
  let served: Served;

  before(async () => {
    served = await serve({ db: extract.db });
  });
  after(() => served?.close());

  test('is served at both addresses with the v1 shape and authentication none', async () => {
    const wellKnown = await fetch(`${served.origin}/.well-known/mcp/server-card.json`);
    const beside = await fetch(`${served.origin}/mcp/server-card`);
    assert.equal(wellKnown.headers.get('content-type'), 'application/json');
    assert.equal(beside.headers.get('content-type'), 'application/mcp-server-card+json');
    const card = (await wellKnown.json()) as any;
    assert.deepEqual(await beside.json(), card);
    assert.deepEqual(card, {
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'test.example.toilets/toilet-finder',
      version: '1.0.0',
      title: 'Public Toilet Finder',
      description: card.description,
      websiteUrl: BASE_URL,
      remotes: [{ type: 'streamable-http', url: `${BASE_URL}/mcp`, supportedProtocolVersions: card.remotes[0].supportedProtocolVersions }],
      authentication: { type: 'none', required: false },
    });
    assert.ok(card.description.length >= 1 && card.description.length <= 100);
    assert.match(card.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    assert.deepEqual(card.remotes[0].supportedProtocolVersions.slice(0, 2), [MODERN, '2025-11-25']);
    for (const response of [wellKnown, beside]) {
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.equal(response.headers.get('cache-control'), 'public, max-age=3600');
      assert.equal(response.headers.get('ratelimit-limit'), null, 'a document, like the OpenAPI description, not a counted request');
    }
  });

  test('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${served.origin}/mcp/server-card`);
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    const again = await fetch(`${served.origin}/mcp/server-card`, { headers: { 'If-None-Match': `"other", W/${etag}` } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), etag);
    const changed = await fetch(`${served.origin}/.well-known/mcp/server-card.json`, { headers: { 'If-None-Match': '"other"' } });
    assert.equal(changed.status, 200);
  });
});
