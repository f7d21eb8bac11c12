// Several server threads (HTTP_THREADS=2) on one port: the kernel spreads connections over the threads'
// listening sockets, so each request here goes over a connection of its own, and every kind of request
// must get the same answer whichever thread takes it. The read thread answers the public reads itself
// and passes every other route to the main thread (forward.ts); rate limits count one budget; overlay
// changes and reloads reach both threads. Real importer, real server, real HTTP, real clock.
import test from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { createApp, type App } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { operationIn } from '../../src/schemas/operations.js';
import { OPERATIONS } from '../../src/operations.js';
import { deviceId, importedData, SITE_ORIGIN, TEST_ENV, type Data } from '../community/support.js';
import { importedCopy } from '../support/extracts.js';
import { fresh, serve, SERVER_ENV, SILENT, type Plain } from '../support/server.js';
import { chooseTransport, nodeSharesPort, type TransportSetting } from '../../src/http/transport-choice.js';

/**
 * Several threads need a transport that shares the port: uWS, or node:http from Node 22.12 on. With
 * HTTP_TRANSPORT=node on Node 20 the app serves one thread (README, "Node.js versions"), so these tests
 * cannot run there; CI's Node 20 run (uWS) and Node 24 run (node:http) both run them.
 */
const ONE_THREAD =
  chooseTransport(SERVER_ENV.HTTP_TRANSPORT as TransportSetting).name === 'node' && !nodeSharesPort(process.versions.node)
    ? `node:http on Node ${process.versions.node} cannot share a port: one thread serves`
    : false;


/**
 * Runs `use` against the service on two threads (unless `env` says) over a fresh import of Liechtenstein,
 * then closes it. `prepared`: the read threads are spawned before the load, as `npm start` does.
 */
async function serving(env: Record<string, string>, use: (s: { app: App; port: number; data: Data }) => Promise<void>, prepared = false): Promise<void> {
  const data = await importedData('liechtenstein');
  try {
    const { app, port, close } = await serve({ db: data.toiletsDb, overlayDb: data.overlayDb, env: { ...TEST_ENV, HTTP_THREADS: '2', ...env }, now: null, places: 'embedded', prepareThreads: prepared });
    try {
      await use({ app, port, data });
    } finally {
      await close();
    }
  } finally {
    data.remove();
  }
}

/** Answers of reads without the members that follow the clock (a test may cross an hour of someone's hours). */
function timeless(text: string): string {
  return text.replace(/"open_now":("\w+"|true|false),"closes_at":("[^"]*"|null)/g, '');
}

const SAMPLES = 16;

test('HTTP_THREADS: one per core by default; a bad value stops the start with what to use', () => {
  assert.equal(loadConfig({}).httpThreads, availableParallelism());
  assert.equal(loadConfig({ HTTP_THREADS: '3' }).httpThreads, 3);
  for (const bad of ['0', '1.5', 'two', '65']) assert.throws(() => loadConfig({ HTTP_THREADS: bad }), new ConfigError(`HTTP_THREADS=${bad} is not valid: use a whole number from 1 to 64 (default ${availableParallelism()})`));
  // a test clock cannot reach the read threads: refused rather than answering with two clocks
  assert.throws(() => createApp({ config: loadConfig({ HTTP_THREADS: '2', PORT: '0' }), log: SILENT, now: () => 0 }), /HTTP_THREADS above 1 needs the real clock/);
});

test('every kind of request gets the same answer from either thread; the read thread passes the rest on', { skip: ONE_THREAD }, async () => {
  await serving({}, async ({ app, port }) => {
    const near = JSON.parse((await fresh(port, '/api/v1/toilets/nearest?lat=47.14&lon=9.52&limit=3')).text);
    const id: string = near.results[0].id;
    const mcpInit = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'thread-test', version: '1' } } });
    const kinds: { name: string; path: string; init?: Parameters<typeof fresh>[2]; same(a: Plain): string }[] = [
      { name: 'nearest', path: '/api/v1/toilets/nearest?lat=47.14&lon=9.52&limit=5&wheelchair=true', same: (a) => `${a.status} ${timeless(a.text)}` },
      { name: 'area', path: '/api/v1/toilets?bbox=9.47,47.04,9.64,47.27&limit=50', same: (a) => `${a.status} ${timeless(a.text)}` },
      // place names are looked up by the main thread, for the read thread too
      { name: 'nearest by place', path: '/api/v1/toilets/nearest?place=Vaduz&limit=3', same: (a) => `${a.status} ${timeless(a.text)}` },
      { name: 'unknown place', path: '/api/v1/toilets/nearest?place=Xqzzyville', same: (a) => `${a.status} ${a.text}` },
      { name: 'getToilet', path: `/api/v1/toilets/${id}`, same: (a) => `${a.status} ${timeless(a.text)}` },
      { name: 'bad parameter', path: '/api/v1/toilets/nearest?lat=91&lon=9.52', same: (a) => `${a.status} ${a.text}` },
      { name: 'no route', path: '/nothing/here', same: (a) => `${a.status} ${a.text}` },
      { name: 'wrong method', path: '/api/v1/toilets/nearest', init: { method: 'DELETE' }, same: (a) => `${a.status} ${a.headers.allow} ${a.text}` },
      { name: 'preflight', path: '/api/v1/toilets/nearest', init: { method: 'OPTIONS', headers: { Origin: 'https://other.example', 'Access-Control-Request-Method': 'GET' } }, same: (a) => `${a.status} ${a.headers['access-control-allow-methods']}` },
      { name: 'site page', path: `/t/${id}`, same: (a) => `${a.status} ${a.headers['content-type']} ${timeless(a.text).replace(/(open|closed) now|opening hours unknown/gi, '')}` },
      { name: 'challenge', path: '/api/v1/challenge', same: (a) => `${a.status} ${Object.keys(JSON.parse(a.text)).sort()}` },
      {
        name: 'MCP initialize',
        path: '/mcp',
        init: { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: mcpInit },
        same: (a) => `${a.status} ${/"serverInfo":\{"name":"[^"]+"/.exec(a.text)?.[0]}`,
      },
      {
        name: 'body too large',
        path: '/api/v1/submissions',
        init: { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: SITE_ORIGIN }, body: JSON.stringify({ note: 'x'.repeat(operationIn(OPERATIONS, 'submitToilet').requestBody!.maxBytes!) }) },
        same: (a) => `${a.status} ${a.headers['content-type']} ${a.text}`,
      },
    ];
    for (const kind of kinds) {
      const answers = await Promise.all(Array.from({ length: SAMPLES }, () => fresh(port, kind.path, kind.init)));
      const expected = kind.same(answers[0]);
      assert.ok(answers[0].status < 500, `${kind.name}: ${answers[0].status} ${answers[0].text.slice(0, 200)}`);
      for (const answer of answers) assert.equal(kind.same(answer), expected, `${kind.name} answers alike`);
      // the security headers (security-headers.ts), whichever thread wrote the answer
      for (const answer of answers) assert.match(`${answer.headers['x-content-type-options']} ${answer.headers['content-security-policy']}`, /^nosniff .*frame-ancestors 'none'/, kind.name);
    }
    const byPlace = JSON.parse((await fresh(port, '/api/v1/toilets/nearest?place=Vaduz&limit=3')).text);
    assert.equal(byPlace.status, 'ok');
    assert.equal(byPlace.origin.source, 'place');
    assert.equal(JSON.parse((await fresh(port, '/api/v1/toilets/nearest?place=Xqzzyville')).text).status, 'place_not_found');
    assert.match(kinds.find((k) => k.name === 'MCP initialize')!.same(await fresh(port, '/mcp', kinds.find((k) => k.name === 'MCP initialize')!.init)), /^200 "serverInfo"/);

    const [reader] = await app.threads!.counts();
    const mainReceived = app.server.requestsReceived;
    assert.equal(reader.thread, 1);
    // With over 200 connections, each thread got some: the read thread answered reads and passed writes on.
    assert.ok(reader.received > 0 && mainReceived > 0, `connections on both threads (read thread ${reader.received}, main ${mainReceived})`);
    assert.ok(reader.forwarded > 0 && reader.forwarded < reader.received, `the read thread passed some requests on (${reader.forwarded} of ${reader.received})`);
  });
});

test('the read thread answers /mcp itself, fast path and SDK alike; tool calls count at /metrics across threads', { skip: ONE_THREAD }, async () => {
  await serving({ METRICS_ALLOW: '127.0.0.1/32' }, async ({ app, port }) => {
    const [before] = await app.threads!.counts();
    const call = (id: number) =>
      fresh(port, '/mcp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'find_toilets_near' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'find_toilets_near', arguments: { lat: 47.14, lon: 9.52, limit: 2 }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      });
    const list = () =>
      fresh(port, '/mcp', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'l', method: 'tools/list' }),
      });
    for (let i = 0; i < SAMPLES; i++) {
      const [found, listed] = [await call(i), await list()];
      assert.equal(JSON.parse(found.text).result.structuredContent.status, 'ok');
      assert.match(listed.text, /"name":"find_toilets_near"/);
    }
    const [after] = await app.threads!.counts();
    assert.ok(after.received - before.received > 0, 'some MCP requests reached the read thread');
    assert.equal(after.forwarded, before.forwarded, 'none was passed to the main thread');
    const metrics = await fresh(port, '/metrics');
    assert.match(metrics.text, new RegExp(`toilet_finder_mcp_calls_total\\{tool="find_toilets_near",outcome="ok"\\} ${SAMPLES}\\n`));
  });
});

test('read threads spawned before the load get the loaded data and are not spawned again at listen', { skip: ONE_THREAD }, async () => {
  await serving(
    { HTTP_THREADS: '3' },
    async ({ app, port }) => {
      const answers = await Promise.all(Array.from({ length: 48 }, () => fresh(port, '/api/v1/toilets/nearest?lat=47.14&lon=9.52&limit=3')));
      for (const answer of answers) assert.equal(JSON.parse(answer.text).results.length, 3);
      const counts = await app.threads!.counts();
      assert.deepEqual(counts.map((c) => c.thread).sort((a, b) => a - b), [1, 2], 'two read threads beside the main one');
      assert.ok(counts.some((c) => c.received > 0), 'a prepared read thread answered');
    },
    true,
  );
});

test('one rate-limit budget per address, whichever thread counts it', { skip: ONE_THREAD }, async () => {
  await serving({ RATE_LIMIT_PER_MINUTE: '20' }, async ({ port }) => {
    // A fixed window ends on the minute (of the real clock, which read threads need): requests that
    // straddle two windows are sent again from an address of their own until they fit in one.
    const minute = () => Math.floor(Date.now() / 60_000);
    let answers: Plain[];
    for (let host = 9; ; host++) {
      const first = minute();
      answers = await Promise.all(
        Array.from({ length: 30 }, () => fresh(port, '/api/v1/toilets/nearest?lat=47.14&lon=9.52', { headers: { 'X-Forwarded-For': `203.0.113.${host}` } })),
      );
      if (minute() === first) break;
    }
    const allowed = answers.filter((a) => a.status === 200);
    assert.equal(allowed.length, 20);
    assert.equal(answers.filter((a) => a.status === 429).length, 10);
    assert.deepEqual(allowed.map((a) => Number(a.headers['ratelimit-remaining'])).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
    // another address has its own budget
    assert.equal((await fresh(port, '/api/v1/toilets/nearest?lat=47.14&lon=9.52', { headers: { 'X-Forwarded-For': '203.0.113.250' } })).status, 200);
  });
});

test('a rating and a reload reach the read thread', { skip: ONE_THREAD }, async () => {
  await serving({}, async ({ app, port, data }) => {
    const near = JSON.parse((await fresh(port, '/api/v1/toilets/nearest?lat=47.14&lon=9.52&limit=1')).text);
    const id: string = near.results[0].id;
    const challenge = JSON.parse((await fresh(port, '/api/v1/challenge')).text);
    const solution = await solveChallenge({ challenge, deriveKey });
    const token = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    const rated = await fresh(port, `/api/v1/toilets/${id}/ratings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: SITE_ORIGIN },
      body: JSON.stringify({ rating: 4, device_id: deviceId(7), challenge_token: token }),
    });
    assert.equal(rated.status, 201, rated.text);
    await app.threads!.counts(); // answered after every message sent before it: the rating has reached the read thread
    for (const answer of await Promise.all(Array.from({ length: SAMPLES }, () => fresh(port, `/api/v1/toilets/${id}`)))) {
      assert.deepEqual(JSON.parse(answer.text).toilet.cleanliness, { average: 4, count: 1 });
    }

    // Another extract renamed over the source database, then a reload (what SIGHUP does).
    const other = join(data.dir, 'monaco.db');
    await importedCopy('monaco', other);
    renameSync(other, data.toiletsDb);
    app.catalog.reload('SIGHUP');
    await app.threads!.counts();
    for (const answer of await Promise.all(Array.from({ length: SAMPLES }, () => fresh(port, '/api/v1/toilets/nearest?lat=43.73&lon=7.42&limit=1')))) {
      assert.ok(JSON.parse(answer.text).results[0].distance_m < 2000, 'Monaco is served');
    }
    for (const answer of await Promise.all(Array.from({ length: SAMPLES }, () => fresh(port, `/api/v1/toilets/${id}`)))) assert.equal(answer.status, 404);
  });
});

test('a read thread that fails is replaced with one serving the snapshot in use', { timeout: 120_000, skip: ONE_THREAD }, async () => {
  await serving({}, async ({ app, port }) => {
    const before = await fresh(port, '/api/v1/toilets/nearest?lat=47.14&lon=9.52&limit=5');
    // A message the thread cannot take throws in it, as a bug would.
    const threads = app.threads as unknown as { threads: { worker: Worker }[] };
    threads.threads[0].worker.postMessage({ kind: 'load', loaded: null, info: null, overlays: null });
    // a new read thread starts (however long that takes on a loaded machine; one that never does fails
    // the test at its timeout)
    let counts = await app.threads!.counts().catch(() => []);
    while (counts.length === 0 || counts[0].received > 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      counts = await app.threads!.counts().catch(() => []);
    }
    const answers = await Promise.all(Array.from({ length: SAMPLES }, () => fresh(port, '/api/v1/toilets/nearest?lat=47.14&lon=9.52&limit=5')));
    for (const answer of answers) assert.equal(timeless(answer.text), timeless(before.text));
    const [replacement] = await app.threads!.counts();
    assert.equal(replacement.thread, 1);
    assert.ok(replacement.received > 0, 'the new read thread takes connections');
  });
});
