// A route answered by another thread (src/http/forward.ts): a "read" server that has none of the owner's
// routes passes every request over a MessagePort to the owner's server, which answers with its own
// handlers. Both are real HttpServers on loopback ports; the test compares the answers of the two.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { MessageChannel } from 'node:worker_threads';
import { after, before, describe, test } from 'node:test';
import { Forwarder, ForwardedRequests, type AnswerMessage, type ForwardMessage } from '../../src/http/forward.js';
import { CorsPolicy } from '../../src/http/cors.js';
import { gate, rawRequest, startServer, type TestServer } from './harness.js';

const encoder = new TextEncoder();

describe('forwarded routes', { timeout: 30_000 }, () => {
  let owner: TestServer;
  let reader: TestServer;
  const channel = new MessageChannel();
  const streamAborted = gate();
  const secondChunk = gate();

  before(async () => {
    owner = await startServer((server, problems) => {
      const cors = new CorsPolicy({ allowHeaders: ['X-Custom'], exposeHeaders: ['X-Seen'], maxAgeSeconds: 60 });
      server.route({
        method: 'GET',
        pattern: '/things/:id',
        headers: ['x-custom'],
        cors,
        handler: (request) => ({
          status: 200,
          headers: ['Content-Type', 'application/json', 'X-Seen', request.headers['x-custom']],
          body: JSON.stringify({ id: request.params.id, query: request.query, method: request.method, ip: request.ip }),
        }),
      });
      server.route({
        method: 'POST',
        pattern: '/echo',
        headers: 'all',
        maxBodyBytes: 64,
        handler: async (request) => new Response(request.body, { status: 201, headers: { 'Content-Type': 'text/plain', 'X-Type': request.headers['content-type'] } }),
      });
      server.route({ method: 'GET', pattern: '/fails', handler: () => Promise.reject(new Error('owner failed')) });
      server.route({ method: 'GET', pattern: '/missing', handler: () => problems.reply('not-found', 'No such thing here.') });
      server.route({
        method: 'GET',
        pattern: '/events',
        handler: (request) => {
          request.signal.addEventListener('abort', () => streamAborted.open());
          const body = new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(encoder.encode('data: one\n\n'));
              await secondChunk.promise;
              controller.enqueue(encoder.encode('data: two\n\n'));
            },
          });
          return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
        },
      });
    });
    const answers = new ForwardedRequests(owner.server, channel.port1, (error) => ({ status: 500, body: `failed: ${(error as Error).message}` }));
    channel.port1.on('message', (message: ForwardMessage) => answers.take(message));
    const forwarder = new Forwarder(channel.port2);
    channel.port2.on('message', (message: AnswerMessage) => forwarder.answer(message));
    reader = await startServer((server) => forwarder.register(server, owner.server.routeSpecs()));
  });

  after(async () => {
    channel.port1.close();
    await Promise.all([owner.server.close({ timeoutMs: 100 }), reader.server.close({ timeoutMs: 100 })]);
  });

  test('answers, headers, params, query, method and client address come through as the owner made them', async () => {
    for (const path of ['/things/a%20b?x=1&y=2', '/missing', '/nowhere']) {
      const [direct, passed] = await Promise.all([owner, reader].map((s) => rawRequest(s.origin + path, { headers: { 'X-Custom': 'hello' } })));
      assert.equal(passed.status, direct.status, path);
      assert.equal(passed.body.toString(), direct.body.toString(), path);
      for (const name of ['content-type', 'x-seen', 'access-control-allow-origin', 'access-control-expose-headers']) assert.equal(passed.headers[name], direct.headers[name], `${path} ${name}`);
    }
    const head = await rawRequest(reader.origin + '/things/1', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    const preflight = await rawRequest(reader.origin + '/things/1', { method: 'OPTIONS', headers: { Origin: 'https://x.test', 'Access-Control-Request-Method': 'GET' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-headers'], 'X-Custom');
  });

  test('bodies, web Responses, an oversized body and a failure', async () => {
    const echoed = await rawRequest(reader.origin + '/echo', { method: 'POST', headers: { 'Content-Type': 'text/x-test' }, body: 'ping' });
    assert.equal(echoed.status, 201);
    assert.equal(echoed.body.toString(), 'ping');
    assert.equal(echoed.headers['x-type'], 'text/x-test');
    const [direct, passed] = await Promise.all([owner, reader].map((s) => rawRequest(s.origin + '/echo', { method: 'POST', body: 'x'.repeat(65) })));
    assert.equal(passed.status, direct.status);
    assert.equal(passed.status, 413);
    assert.equal(passed.body.toString(), direct.body.toString());
    const failed = await rawRequest(reader.origin + '/fails');
    assert.equal(failed.status, 500);
    assert.match(failed.body.toString(), /server-error/);
  });

  test('an event stream comes chunk by chunk, and a client that goes away aborts the request on the owner', async () => {
    const { response, destroy } = await new Promise<{ response: import('node:http').IncomingMessage; destroy: () => void }>((resolve, reject) => {
      const req = httpRequest(reader.origin + '/events', { agent: false }, (res) => resolve({ response: res, destroy: () => req.destroy() }));
      req.on('error', reject);
      req.end();
    });
    assert.equal(response.headers['content-type'], 'text/event-stream');
    const [first] = (await once(response, 'data')) as [Buffer];
    assert.equal(first.toString(), 'data: one\n\n');
    secondChunk.open();
    const [second] = (await once(response, 'data')) as [Buffer];
    assert.equal(second.toString(), 'data: two\n\n');
    destroy();
    await streamAborted.promise;
  });
});
