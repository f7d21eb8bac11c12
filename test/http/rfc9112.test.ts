// What the node:http transport answers that uWS leaves unanswered (RFC 9112; docs/SECURITY.md, "Requests"):
// HTTP/1.0, too many header lines or too large a head, unknown methods, malformed requests, each at once
// and as problem+json, and 408 for a client too slow to send its request; uWS cannot pass these (its
// parser never answers them: no answer, a reset, or the 10 s idle timeout), so they run on the node
// transport only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_HEAD_BYTES, MAX_HEADER_LINES, nodeTransport } from '../../src/http/node-transport.js';
import { rawExchange, startServer, startServerOn, type TestServer } from './harness.js';

describe('the node transport answers what RFC 9112 asks', () => {
  let t: TestServer;
  let handled = 0;
  before(async () => {
    t = await startServerOn('node', (server) => {
      server.route({ method: 'GET', pattern: '/read', handler: () => (handled++, { status: 200, headers: ['Content-Type', 'text/plain'], body: 'read' }) });
    });
  });
  after(() => t.server.close());

  test('HTTP/1.0 is answered; its connection kept alive only when the request asks', async () => {
    const once = await rawExchange(t.port, 'GET /read HTTP/1.0\r\n\r\n');
    assert.match(once.text, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(once.text, /\r\n\r\nread$/);
    assert.ok(once.closed, 'HTTP/1.0 without keep-alive: closed after the answer');
    const kept = await rawExchange(t.port, 'GET /read HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /read HTTP/1.0\r\n\r\n');
    assert.equal(kept.text.match(/HTTP\/1\.1 200 OK/g)?.length, 2, kept.text);
    assert.match(kept.text, /Connection: keep-alive/i);
    assert.ok(kept.closed);
  });

  const refused: [string, string, number, string][] = [
    [`${MAX_HEADER_LINES + 1} header lines`, `GET /read HTTP/1.1\r\nHost: x\r\n${Array.from({ length: MAX_HEADER_LINES }, (_, i) => `X-${i}: ${i}\r\n`).join('')}\r\n`, 431, 'header-fields-too-large'],
    ['a head over the bound', `GET /read HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`, 431, 'header-fields-too-large'],
    ['an unknown method', 'PROPPATCHX /read HTTP/1.1\r\nHost: x\r\n\r\n', 501, 'method-not-implemented'],
    ['garbage', 'garbage\r\n\r\n', 400, 'malformed-request'],
    ['a raw space in the path', 'GET /re ad HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'malformed-request'],
    ['a bare LF', 'GET /read HTTP/1.1\nHost: x\n\n', 400, 'malformed-request'],
    ['no Host', 'GET /read HTTP/1.1\r\n\r\n', 400, 'malformed-request'],
    ['Transfer-Encoding chunked, gzip', 'POST /read HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n', 400, 'bad-framing'],
  ];
  for (const [what, bytes, status, slug] of refused) {
    test(`${what}: ${status} ${slug} at once, and the connection closes`, async () => {
      const before = handled;
      // far below the 10 s uWS would hold some of these
      const { text, closed } = await rawExchange(t.port, bytes, 3000);
      assert.match(text, new RegExp(`^HTTP/1\\.1 ${status} `), text.slice(0, 200));
      assert.match(text, /\r\nContent-Type: application\/problem\+json/);
      assert.match(text, /\r\nX-Content-Type-Options: nosniff\r\n/i, 'with the security headers');
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { type: string; status: number; detail: string };
      assert.equal(body.status, status);
      assert.ok(body.type.endsWith(`/problems/${slug}`), body.type);
      assert.match(body.detail, /; (send|use) /, 'the detail says what to send instead');
      assert.ok(closed, 'closed after the answer');
      assert.equal(handled, before, 'no handler saw it');
    });
  }

  test('an absolute-form target is served by its path', async () => {
    const { text } = await rawExchange(t.port, 'GET http://x/read HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(text, /^HTTP\/1\.1 200 OK/);
  });
});

// node:http's own bounds, made small so that a test sees them act (the promised ones, SLOW_CLIENT_BOUNDS,
// are seconds long); what is asserted is the answer and the close, never how long they took.
const SMALL_BOUNDS = { headMs: 150, requestMs: 300, keepAliveMs: 150, checkEveryMs: 20 } as const;

describe('the node transport cuts slow clients with a 408 (headersTimeout, requestTimeout)', () => {
  let t: TestServer;
  let bodies = 0;
  before(async () => {
    t = await startServer(
      (server) => {
        server.route({ method: 'GET', pattern: '/read', handler: () => ({ status: 200, headers: ['Content-Type', 'text/plain'], body: 'read' }) });
        server.route({ method: 'POST', pattern: '/write', maxBodyBytes: 100, handler: () => (bodies++, { status: 204 }) });
      },
      { transport: (routes, refuse) => nodeTransport(routes, refuse, { bounds: SMALL_BOUNDS }) },
    );
  });
  after(() => t.server.close());

  /** The 408 problem on a connection that then closed. */
  function assertTimedOut(answer: { text: string; closed: boolean }): void {
    assert.ok(answer.closed, 'closed after the answer');
    assert.match(answer.text, /^HTTP\/1\.1 408 Request Timeout\r\n/, answer.text.slice(0, 200));
    assert.match(answer.text, /\r\nConnection: close\r\n/);
    assert.match(answer.text, /\r\nX-Content-Type-Options: nosniff\r\n/i, 'with the security headers');
    const body = JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)) as { type: string; status: number; detail: string };
    assert.equal(body.status, 408);
    assert.ok(body.type.endsWith('/problems/request-timeout'), body.type);
    assert.match(body.detail, /its head within 0\.15 s, all of it within 0\.3 s\); send it again without pauses/);
  }

  test('a head that stops arriving gets 408 and the connection closes', async () => {
    // a hang guard far above the bounds: the answer and the close are what the test waits for
    assertTimedOut(await rawExchange(t.port, 'GET /read HTTP/1.1\r\nHost: x\r\nX-Slow: ', 10_000));
  });

  test('a body that stops arriving gets 408, the handler never runs, and the connection closes', async () => {
    const before = bodies;
    assertTimedOut(await rawExchange(t.port, 'POST /write HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nhalf', 10_000));
    assert.equal(bodies, before, 'no handler saw the partial body');
  });

  test('an idle keep-alive connection is closed without an answer after its last one', async () => {
    const { text, closed } = await rawExchange(t.port, 'GET /read HTTP/1.1\r\nHost: x\r\n\r\n', 10_000);
    assert.ok(closed, 'closed once idle');
    assert.equal(text.match(/HTTP\/1\.1 /g)?.length, 1, `only the request's own answer: ${text}`);
    assert.match(text, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nread$/);
  });

  test('a request that arrives in time is answered as usual', async () => {
    const response = await fetch(`${t.origin}/read`);
    assert.equal(response.status, 200);
    assert.equal(await response.text(), 'read');
  });
});
