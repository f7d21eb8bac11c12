// /metrics through the real server: the exposition parses, requests are counted by operation and status
// from the main thread and a read thread alike, refusals, MCP calls and the data in use show, and only
// the addresses METRICS_ALLOW names (after TRUST_PROXY, as the rate limit sees them) may read it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readSourceToilets } from '../api/support.js';
import { modernRequest } from '../mcp/support.js';
import { HERE, liechtenstein, observing, parseMetrics, scrape, valueOf } from './support.js';
import { fresh } from '../support/server.js';

const NEAREST = `/api/v1/toilets/nearest?lat=${HERE.lat}&lon=${HERE.lon}&limit=2`;
const NOW = Date.parse('2024-06-05T08:00:00Z');

after(async () => (await liechtenstein()).remove());

test('requests are counted by operation and status, with a latency histogram, and the data in use shows', async () => {
  await observing({}, async ({ origin }) => {
    for (let i = 0; i < 3; i++) assert.equal((await fetch(origin + NEAREST)).status, 200);
    assert.equal((await fetch(`${origin}/api/v1/toilets/nearest?lat=91&lon=0`)).status, 400);
    assert.equal((await fetch(`${origin}/api/v1/toilets/n1`)).status, 404);
    assert.equal((await fetch(`${origin}/nowhere`)).status, 404);
    const { samples, types } = await scrape(origin);

    assert.equal(types.get('toilet_finder_http_requests_total'), 'counter');
    assert.equal(types.get('toilet_finder_http_request_duration_seconds'), 'histogram');
    assert.equal(valueOf(samples, 'toilet_finder_http_requests_total', { operation: 'findToiletsNear', status: '200' }), 3);
    assert.equal(valueOf(samples, 'toilet_finder_http_requests_total', { operation: 'findToiletsNear', status: '400' }), 1);
    assert.equal(valueOf(samples, 'toilet_finder_http_requests_total', { operation: 'getToilet', status: '404' }), 1);
    assert.equal(valueOf(samples, 'toilet_finder_http_requests_total', { operation: 'unrouted', status: '404' }), 1);
    assert.equal(valueOf(samples, 'toilet_finder_answers_total', { interface: 'rest' }), 5);

    const labels = { operation: 'findToiletsNear', status: '200' };
    const buckets = samples.filter((s) => s.name === 'toilet_finder_http_request_duration_seconds_bucket' && s.labels.operation === 'findToiletsNear' && s.labels.status === '200');
    const counts = buckets.map((s) => s.value);
    assert.deepEqual(counts, [...counts].sort((a, b) => a - b), 'buckets are cumulative');
    assert.equal(buckets.at(-1)!.labels.le, '+Inf');
    assert.equal(buckets.at(-1)!.value, 3);
    assert.equal(valueOf(samples, 'toilet_finder_http_request_duration_seconds_count', labels), 3);
    assert.ok(valueOf(samples, 'toilet_finder_http_request_duration_seconds_sum', labels) > 0);

    assert.equal(valueOf(samples, 'toilet_finder_toilets'), readSourceToilets((await liechtenstein()).db).length);
    // the extract's replication time is 2015-07-27T21:14:01Z
    assert.equal(valueOf(samples, 'toilet_finder_snapshot_age_seconds'), (NOW - Date.parse('2015-07-27T21:14:01Z')) / 1000);
    assert.ok(valueOf(samples, 'toilet_finder_process_resident_memory_bytes') > 0, 'process metrics are there');
    // the scrape itself is counted once answered: the next scrape shows it
    assert.equal(valueOf((await scrape(origin)).samples, 'toilet_finder_http_requests_total', { operation: 'getMetrics', status: '200' }), 1);
  }, () => NOW);
});

test('rate-limit refusals and MCP tool calls are counted', async () => {
  await observing({ RATE_LIMIT_PER_MINUTE: '3' }, async ({ origin }) => {
    const mcp = new URL('/mcp', origin);
    const call = await modernRequest(mcp, 'tools/call', { name: 'find_toilets_near', arguments: { lat: Number(HERE.lat), lon: Number(HERE.lon) } });
    assert.equal(call.status, 200);
    const unknown = await modernRequest(mcp, 'tools/call', { name: 'get_toilet', arguments: { id: 'n1' } }, {}, 2);
    assert.equal(unknown.body.result.isError, true);
    assert.equal((await fetch(origin + NEAREST)).status, 200);
    assert.equal((await fetch(origin + NEAREST)).status, 429);
    assert.equal((await modernRequest(mcp, 'tools/list', {}, {}, 3)).status, 429);
    const { samples } = await scrape(origin);
    assert.equal(valueOf(samples, 'toilet_finder_rate_limit_refusals_total', { policy: 'per-ip' }), 2);
    assert.equal(valueOf(samples, 'toilet_finder_rate_limit_refusals_total', { policy: 'area-per-ip' }), 0);
    assert.equal(valueOf(samples, 'toilet_finder_mcp_calls_total', { tool: 'find_toilets_near', outcome: 'ok' }), 1);
    assert.equal(valueOf(samples, 'toilet_finder_mcp_calls_total', { tool: 'get_toilet', outcome: 'error' }), 1);
    assert.equal(valueOf(samples, 'toilet_finder_http_requests_total', { operation: 'POST /mcp', status: '429' }), 1);
    assert.equal(valueOf(samples, 'toilet_finder_answers_total', { interface: 'mcp' }), 3);
    assert.equal(valueOf(samples, 'toilet_finder_overlay_write_failures_total'), 0);
  }, () => NOW);
});

test('requests answered by a read thread and by the main thread are counted together', async () => {
  await observing({ HTTP_THREADS: '2' }, async ({ app, port, flushed }) => {
    let sent = 0;
    // the kernel spreads new connections over the threads' sockets: send until both have answered
    for (; sent < 400; sent++) {
      assert.equal((await fresh(port, NEAREST)).status, 200);
      const counts = await app.threads!.counts();
      if (sent >= 10 && counts.every((c) => c.received > 0) && app.server.requestsReceived > 0) break;
    }
    sent++;
    // the scrape may land on either thread: a read thread passes /metrics to the main thread
    const answer = await fresh(port, '/metrics');
    assert.equal(answer.status, 200);
    const { samples } = parseMetrics(answer.text);
    assert.equal(valueOf(samples, 'toilet_finder_http_requests_total', { operation: 'findToiletsNear', status: '200' }), sent);
    // a read thread's access lines come in batches: wait for the batch that holds the last of them
    const nearest = (lines: Record<string, unknown>[]) => lines.filter((line) => line.operation === 'findToiletsNear');
    let logged: Record<string, unknown>[] = [];
    await flushed((lines) => (logged = nearest(lines)).length === sent);
    const threads = new Set(logged.map((line) => Number(line.thread)));
    assert.deepEqual([...threads].sort((a, b) => a - b), [0, 1], 'both threads answered and logged');
  });
});

test('only the allowed addresses read the metrics: loopback by default, none behind a proxy until METRICS_ALLOW is set', async () => {
  const status = async (origin: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${origin}/metrics`, { headers });
    const body = await response.text();
    if (response.status === 403) {
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.match(JSON.parse(body).detail, /METRICS_ALLOW/);
    }
    return response.status;
  };
  await observing({}, async ({ origin }) => {
    assert.equal(await status(origin), 200, 'loopback by default');
    assert.equal(await status(origin, { 'X-Forwarded-For': '203.0.113.9' }), 200, 'X-Forwarded-For means nothing without TRUST_PROXY');
  });
  await observing({ METRICS_ALLOW: '203.0.113.0/24' }, async ({ origin }) => {
    assert.equal(await status(origin, { 'X-Forwarded-For': '203.0.113.9' }), 403, 'without TRUST_PROXY the socket address (loopback) counts');
  });
  await observing({ TRUST_PROXY: '1' }, async ({ origin }) => {
    assert.equal(await status(origin), 403, 'behind a proxy, nothing until the operator sets the list');
    assert.equal(await status(origin, { 'X-Forwarded-For': '127.0.0.1' }), 403);
  });
  await observing({ TRUST_PROXY: '1', METRICS_ALLOW: '203.0.113.0/24, 2001:db8::7' }, async ({ origin }) => {
    assert.equal(await status(origin, { 'X-Forwarded-For': '203.0.113.9' }), 200);
    assert.equal(await status(origin, { 'X-Forwarded-For': '2001:db8::7' }), 200);
    assert.equal(await status(origin, { 'X-Forwarded-For': '198.51.100.1' }), 403);
    assert.equal(await status(origin, { 'X-Forwarded-For': '203.0.113.9, 198.51.100.1' }), 403, 'the hop the proxy appended counts, not what the client wrote');
  });
});

test('METRICS=false serves no /metrics; a bad METRICS_ALLOW stops the start naming the variable', async () => {
  await observing({ METRICS: 'false' }, async ({ origin }) => {
    assert.equal((await fetch(origin + NEAREST)).status, 200);
    assert.equal((await fetch(`${origin}/metrics`)).status, 404);
  });
  const { loadConfig, ConfigError } = await import('../../src/config.js');
  for (const bad of ['10.0.0.0/33', 'localhost', '::1/129', '10.0.0.0/8/1']) {
    assert.throws(() => loadConfig({ METRICS_ALLOW: bad }), (error: Error) => error instanceof ConfigError && error.message.includes('METRICS_ALLOW'), bad);
  }
  assert.deepEqual(loadConfig({ METRICS_ALLOW: 'none' }).metricsAllow, []);
  assert.deepEqual(loadConfig({}).metricsAllow, ['127.0.0.0/8', '::1/128']);
});
