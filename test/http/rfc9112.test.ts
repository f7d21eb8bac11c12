// What the node:http transport answers that uWS leaves unanswered (RFC 9112; docs/SECURITY.md, "Requests"):
// HTTP/1.0, too many header lines or too large a head, unknown methods, malformed requests, each at once
// and as problem+json; uWS cannot pass these (its parser never answers them: no answer, a reset, or the
// 10 s idle timeout), so they run on the node transport only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_HEAD_BYTES, MAX_HEADER_LINES } from '../../src/http/node-transport.js';
import { rawExchange, startServerOn, type TestServer } from './harness.js';

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
