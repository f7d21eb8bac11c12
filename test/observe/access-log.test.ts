// The access log through the real server: one JSON line per request with what an operator needs, and
// never what would say where a person stands or who they are (the query, bodies, MCP arguments,
// credentials, the address unless the operator asks for its daily pseudonym); LOG_LEVEL and sampling.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { jsonLogger } from '../../src/log.js';
import { AccessLog, AccessLogWriter } from '../../src/observe/access-log.js';
import { AccessRing, RING_RECORDS } from '../../src/observe/access-ring.js';
import { modernRequest } from '../mcp/support.js';
import { HERE, liechtenstein, observing } from './support.js';
import { fresh } from '../support/server.js';

/** The log without its clock and duration values: their digits can spell a coordinate by chance ("…:47.141Z"). */
function withoutMeasurements(text: string): string {
  return text.replace(/"(time|duration_ms)":("[^"]*"|[0-9.e+-]+)/g, '');
}

const NEAREST = `/api/v1/toilets/nearest?lat=${HERE.lat}&lon=${HERE.lon}&limit=2&wheelchair=true`;
const SECRETS = { Authorization: 'Bearer tok_secret_4711', Cookie: 'session=cookie_secret_0815', 'Stripe-Signature': 't=1,v1=stripe_secret_42' };

after(async () => (await liechtenstein()).remove());

test('a nearest call leaves one line with its operation, status, duration, bytes and thread, and neither its coordinates nor its address', async () => {
  await observing({ TRUST_PROXY: '1' }, async ({ origin, logText, lines, close }) => {
    const response = await fetch(origin + NEAREST, { headers: { ...SECRETS, 'X-Forwarded-For': '198.51.100.23', 'Accept-Encoding': 'identity' } });
    const body = await response.arrayBuffer();
    assert.equal(response.status, 200);
    await close(); // flushes the batch
    const [line, ...more] = lines();
    assert.deepEqual(more, []);
    assert.deepEqual(Object.keys(line).sort(), ['bytes', 'duration_ms', 'level', 'message', 'method', 'operation', 'status', 'thread', 'time']);
    assert.equal(line.operation, 'findToiletsNear');
    assert.equal(line.method, 'GET');
    assert.equal(line.status, 200);
    assert.equal(line.bytes, body.byteLength);
    assert.equal(line.thread, 0);
    assert.equal(line.level, 'info');
    assert.ok(typeof line.duration_ms === 'number' && line.duration_ms >= 0);
    assert.ok(!Number.isNaN(Date.parse(line.time as string)));
    const text = withoutMeasurements(logText());
    for (const secret of [HERE.lat, HERE.lon, '47.14', '9.52', 'wheelchair', 'limit', '/api/v1', '198.51.100.23', '127.0.0.1', 'tok_secret', 'cookie_secret', 'stripe_secret']) {
      assert.ok(!text.includes(secret), `the log holds ${secret}: ${text}`);
    }
  });
});

test('bytes are the bytes sent: a gzipped answer counts its compressed size', async () => {
  await observing({}, async ({ port, lines, close }) => {
    // five results: well over the size worth compressing
    const answer = await fresh(port, `/api/v1/toilets/nearest?lat=${HERE.lat}&lon=${HERE.lon}&limit=5`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(answer.headers['content-encoding'], 'gzip');
    await close();
    assert.equal(lines()[0].bytes, Number(answer.headers['content-length']));
  }, undefined, 'socket'); // the bytes as sent on the connection
});

test('MCP arguments, toilet ids in paths and contribution bodies stay out of the log', async () => {
  await observing({}, async ({ origin, logText, lines, close }) => {
    const call = await modernRequest(new URL('/mcp', origin), 'tools/call', { name: 'find_toilets_near', arguments: { lat: Number(HERE.lat), lon: Number(HERE.lon), place: 'Secretplace' } });
    assert.equal(call.status, 200);
    assert.equal((await fetch(`${origin}/api/v1/toilets/n987654321`)).status, 404);
    const post = await fetch(`${origin}/api/v1/submissions`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'https://elsewhere.example' }, body: JSON.stringify({ lat: 47.14101, lon: 9.52153, name: 'Secret loo' }) });
    assert.equal(post.status, 403);
    await close();
    assert.deepEqual(lines().map((l) => [l.operation, l.status, l.level]), [
      ['POST /mcp', 200, 'info'],
      ['getToilet', 404, 'info'],
      ['submitToilet', 403, 'warn'],
    ]);
    for (const secret of ['47.14', '9.52', 'Secretplace', 'n987654321', 'Secret loo', 'find_toilets_near']) assert.ok(!withoutMeasurements(logText()).includes(secret), `the log holds ${secret}`);
  });
});

test('ACCESS_LOG_CLIENT gives the address as a keyed hash that changes with the UTC day', async () => {
  let now = Date.parse('2024-06-05T23:59:00Z');
  await observing({ TRUST_PROXY: '1', ACCESS_LOG_CLIENT: 'true' }, async ({ origin, logText, lines, close }) => {
    const from = (ip: string) => fetch(origin + NEAREST, { headers: { 'X-Forwarded-For': ip } }).then((r) => r.arrayBuffer());
    await from('198.51.100.23');
    await from('198.51.100.23');
    await from('198.51.100.24');
    now += 120_000; // the next UTC day: a new key
    await from('198.51.100.23');
    await close();
    const clients = lines().map((line) => line.client as string);
    for (const client of clients) assert.match(client, /^[0-9a-f]{32}$/);
    assert.equal(clients[0], clients[1], 'one address, one pseudonym on a day');
    assert.notEqual(clients[2], clients[0], 'another address, another pseudonym');
    assert.notEqual(clients[3], clients[0], 'the next day cannot be linked to the day before');
    assert.ok(!logText().includes('198.51.100'));
  }, () => now);
});

test('refusals get a warn line even when sampling drops every other line; LOG_LEVEL=warn keeps only those, error none', async () => {
  const run = async (env: Record<string, string>) => {
    let got: Record<string, unknown>[] = [];
    await observing({ RATE_LIMIT_PER_MINUTE: '2', ...env }, async ({ origin, lines, close }) => {
      for (let i = 0; i < 3; i++) await fetch(origin + NEAREST).then((r) => r.arrayBuffer());
      await close();
      got = lines();
    });
    return got.map((line) => [line.status, line.level]);
  };
  assert.deepEqual(await run({}), [[200, 'info'], [200, 'info'], [429, 'warn']]);
  assert.deepEqual(await run({ ACCESS_LOG_SAMPLE: '0' }), [[429, 'warn']]);
  assert.deepEqual(await run({ LOG_LEVEL: 'warn' }), [[429, 'warn']]);
  assert.deepEqual(await run({ LOG_LEVEL: 'error' }), []);
  assert.deepEqual(await run({ ACCESS_LOG: 'false' }), []);
});

test('sampling keeps the configured share of lines', () => {
  const draws = [0.05, 0.3, 0.2, 0.9, 0.24999, 0.25];
  let batches = '';
  const rings = [undefined, undefined, new AccessRing()];
  const log = new AccessLog({ level: 'info', sample: 0.25, client: false, ring: new AccessRing(rings[2]!.shared), now: () => 0, random: () => draws.shift()! });
  const writer = new AccessLogWriter({ rings: () => rings, clientKeys: null, warnOn: true, sink: (lines) => (batches += lines), now: () => 0 });
  const kept = [200, 200, 200, 200, 200, 200].filter((status) => log.takes(status));
  assert.equal(kept.length, 3, 'draws below 0.25 are kept');
  assert.equal(log.takes(503), true, 'a refusal is never sampled away');
  log.write(log.slot('getToilet'), log.slot('GET'), 503, 1.5, 10, '198.51.100.7');
  writer.close();
  assert.deepEqual(JSON.parse(batches), { time: '1970-01-01T00:00:00.000Z', level: 'warn', message: 'request', operation: 'getToilet', method: 'GET', status: 503, duration_ms: 1.5, bytes: 10, thread: 2 });
});

test('a full ring drops the records it has no room for, counts them, says so in a warn line, and takes records again once read', () => {
  let batches = '';
  const ring = new AccessRing();
  const log = new AccessLog({ level: 'info', sample: 1, client: false, ring, now: () => 0 });
  const writer = new AccessLogWriter({ rings: () => [ring], clientKeys: null, warnOn: true, sink: (lines) => (batches += lines), now: () => 0 });
  const [operation, method] = [log.slot('findToiletsNear'), log.slot('GET')];
  for (let i = 0; i < RING_RECORDS + 5; i++) log.write(operation, method, 200, 0.25, i, null);
  assert.equal(writer.dropped(), 5, 'the records past the ring are dropped, never waited for');
  writer.flush();
  const lines = batches.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.equal(lines.length, RING_RECORDS + 1);
  assert.deepEqual(lines.slice(0, RING_RECORDS).map((line) => line.bytes), Array.from({ length: RING_RECORDS }, (_, i) => i), 'the records kept, in order');
  assert.deepEqual(lines[RING_RECORDS], { time: '1970-01-01T00:00:00.000Z', level: 'warn', message: 'access log lines dropped: the ring of this thread was full', dropped: 5, dropped_total: 5, thread: 0 });
  batches = '';
  log.write(operation, method, 200, 0.25, 7, null);
  writer.close();
  assert.deepEqual(batches.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { bytes: number }).bytes), [7], 'room again once read; the drop is said once');
  assert.equal(writer.dropped(), 5);
});

test('LOG_LEVEL drops the lines below it; errors still go to stderr and the rest to stdout', () => {
  const out = new PassThrough();
  const err = new PassThrough();
  const log = jsonLogger(out, err, 'warn');
  log.info('not this');
  log.warn('this one');
  log.error('and this');
  const read = (stream: PassThrough) => String(stream.read() ?? '').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { message: string }).message);
  assert.deepEqual(read(out), ['this one']);
  assert.deepEqual(read(err), ['and this']);
});
