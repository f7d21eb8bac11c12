import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { toWebRequest } from '../../src/http/fetch-bridge.js';
import { BASE_URL, gate, rawRequest, readJson, SOCKETS, startServerOn, type TestServer } from './harness.js';

const encoder = new TextEncoder();
const MIB = 1 << 20;
const BIG_CHUNKS = 64;

/** Opens a GET and resolves with the response as soon as its headers arrive. */
function openStream(url: string): Promise<{ response: IncomingMessage; destroy: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false }, (response) => resolve({ response, destroy: () => req.destroy() }));
    req.on('error', reject);
    req.end();
  });
}

function nextChunk(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => response.once('data', (chunk: Buffer) => resolve(chunk.toString())));
}

/** Resolves once `read()` has stopped changing for a few consecutive looks. */
async function settled(read: () => number): Promise<number> {
  let last = -1;
  for (let still = 0; still < 5; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const value = read();
    still = value === last ? still + 1 : 0;
    last = value;
  }
  return last;
}

for (const reach of SOCKETS) describe(`fetch bridge (${reach})`, { timeout: 30_000 }, () => {
  let t: TestServer;
  const streamSecondChunk = gate();
  const disconnect = { cancelled: gate<unknown>(), aborted: gate() };
  const backpressure = { pulls: 0 };

  before(async () => {
    t = await startServerOn(reach, (server) => {
      server.route({ method: 'POST', pattern: '/mcp', headers: 'all', maxBodyBytes: 4096, handler: async (request) => {
        const web = toWebRequest(request, BASE_URL);
        const seen = {
          url: web.url,
          method: web.method,
          custom: web.headers.get('x-custom'),
          contentType: web.headers.get('content-type'),
          body: await web.json(),
          aborted: web.signal.aborted,
        };
        return new Response(JSON.stringify(seen), { status: 202, headers: { 'Content-Type': 'application/json', 'X-Reply': 'yes' } });
      } });

      server.route({ method: 'POST', pattern: '/accepted', maxBodyBytes: 100, handler: () => new Response(null, { status: 202 }) });

      server.route({ method: 'GET', pattern: '/events', handler: () => {
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(encoder.encode('data: one\n\n'));
            await streamSecondChunk.promise;
            controller.enqueue(encoder.encode('data: two\n\n'));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } });
      } });

      server.route({ method: 'GET', pattern: '/endless', headers: 'all', handler: async (request) => {
        const web = toWebRequest(request, BASE_URL);
        web.signal.addEventListener('abort', () => disconnect.aborted.open());
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode('data: first\n\n'));
          },
          cancel(reason) {
            disconnect.cancelled.open(reason);
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      } });

      server.route({ method: 'GET', pattern: '/firehose', handler: () => {
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (backpressure.pulls === BIG_CHUNKS) {
              controller.close();
              return;
            }
            backpressure.pulls++;
            controller.enqueue(new Uint8Array(MIB).fill(backpressure.pulls));
          },
        }, { highWaterMark: 0 });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      } });

      server.route({ method: 'GET', pattern: '/breaks-midway', handler: () => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode('data: fine\n\n'));
            setImmediate(() => controller.error(new Error('upstream broke')));
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      } });

      server.route({ method: 'GET', pattern: '/breaks-at-once', handler: () => {
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.error(new Error('upstream broke before anything was sent'));
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      } });
    });
  });
  after(() => t.server.close());

  test('a web Request carries method, URL, every header, the body and a live signal; a buffered Response comes back whole', async () => {
    const response = await fetch(`${t.origin}/mcp?session=ignored`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Custom': 'custom value' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('x-reply'), 'yes');
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(await readJson(response), {
      url: `${BASE_URL}/mcp?session=ignored`,
      method: 'POST',
      custom: 'custom value',
      contentType: 'application/json',
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      aborted: false,
    });
  });

  test('a Response without a body is an empty answer the client can finish reading', async () => {
    const response = await fetch(`${t.origin}/accepted`, { method: 'POST', body: '{}' });
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('content-length'), '0');
    assert.equal(await response.text(), '');
  });

  test('an event stream is written chunk by chunk as it is produced', async () => {
    const { response } = await openStream(`${t.origin}/events`);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/event-stream');
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.equal(response.headers['transfer-encoding'], 'chunked');
    // The first event arrives while the stream is still waiting to produce the second.
    assert.equal(await nextChunk(response), 'data: one\n\n');
    streamSecondChunk.open();
    let rest = '';
    response.on('data', (chunk: Buffer) => (rest += chunk.toString()));
    await new Promise((resolve) => response.on('end', resolve));
    assert.equal(rest, 'data: two\n\n');
  });

  test('a client leaving midway cancels the stream and aborts the request signal', async () => {
    const { response, destroy } = await openStream(`${t.origin}/endless`);
    response.on('error', () => {}); // we destroy it on purpose
    assert.equal(await nextChunk(response), 'data: first\n\n');
    destroy();
    await disconnect.cancelled.promise;
    await disconnect.aborted.promise;
    assert.equal(t.server.inFlightRequests, 0);
    const still = await fetch(`${t.origin}/events`, { method: 'HEAD' });
    assert.equal(still.status, 200);
    assert.deepEqual(t.errors, []);
  });

  test('a slow reader holds the stream back (backpressure), then gets every byte', async () => {
    const { response } = await openStream(`${t.origin}/firehose`);
    response.pause();
    const pulledWhilePaused = await settled(() => backpressure.pulls);
    assert.ok(pulledWhilePaused < BIG_CHUNKS, `pulled ${pulledWhilePaused} of ${BIG_CHUNKS} chunks while the client read nothing`);
    let bytes = 0;
    let lastByte = 0;
    response.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      lastByte = chunk[chunk.length - 1];
    });
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    assert.equal(bytes, BIG_CHUNKS * MIB);
    assert.equal(lastByte, BIG_CHUNKS);
  });

  test('HEAD gets the headers of a streamed answer and no body', async () => {
    const answer = await rawRequest(`${t.origin}/events`, { method: 'HEAD' });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'text/event-stream');
    assert.equal(answer.body.length, 0);
  });

  test('a stream failing midway cuts the connection and reaches the error hook', async () => {
    const errorsBefore = t.errors.length;
    const { response } = await openStream(`${t.origin}/breaks-midway`);
    const outcome = await new Promise<string>((resolve) => {
      response.on('end', () => resolve('ended'));
      response.on('error', () => resolve('cut'));
      response.on('aborted', () => resolve('cut'));
      response.resume();
    });
    assert.equal(outcome, 'cut');
    assert.equal(t.errors.length, errorsBefore + 1);
    assert.match(String(t.errors.at(-1)!.error), /upstream broke/);
  });

  test('a stream failing before its first chunk becomes a 500 problem', async () => {
    const response = await fetch(`${t.origin}/breaks-at-once`);
    assert.equal(response.status, 500);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    assert.doesNotMatch(await response.text(), /upstream/);
  });
});
