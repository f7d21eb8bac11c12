// The security headers on every kind of answer the real service gives (reads, problems, 404 and 405, CORS
// preflights, pages, problem pages, MCP answers, 304, 429, refused framing), HSTS only when BASE_URL is
// https, and a page route's own Content-Security-Policy keeping frame-ancestors 'none'.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { join } from 'node:path';
import { importInto, serve, tempDir, type Served } from '../api/support.js';
import { rawRequest, startServer, type RawAnswer } from './harness.js';
import { FRAME_ANCESTORS_NONE, pageContentSecurityPolicy } from '../../src/http/security-headers.js';

const HSTS = 'max-age=31536000';
const MCP_INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'headers-test', version: '1' } } });

function assertSecurityHeaders(answer: Pick<RawAnswer, 'headers'>, what: string, https: boolean): void {
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', `${what}: X-Content-Type-Options`);
  assert.equal(answer.headers['referrer-policy'], 'strict-origin-when-cross-origin', `${what}: Referrer-Policy`);
  assert.match(String(answer.headers['content-security-policy']), /frame-ancestors 'none'/, `${what}: frame-ancestors`);
  assert.equal(answer.headers['strict-transport-security'], https ? HSTS : undefined, `${what}: HSTS ${https ? 'with' : 'without'} https`);
}

/** A request written byte by byte, for framing a Node client would not send. */
function rawBytes(origin: string, text: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('security headers', () => {
  const dir = tempDir();
  let https: Served;
  let plain: Served;

  before(async () => {
    const db = join(dir.path, 'toilets.db');
    await importInto('monaco', db);
    https = await serve({ db, env: { RATE_LIMIT_PER_MINUTE: '30', OVERLAY_DB: join(dir.path, 'a.db') }, reach: 'socket' }); // BASE_URL https://toilets.example.test
    plain = await serve({ db, env: { BASE_URL: 'http://localhost:8080', OVERLAY_DB: join(dir.path, 'b.db') }, reach: 'socket' }); // the headers as sent
  });
  after(async () => {
    await https?.close();
    await plain?.close();
    dir.remove();
  });

  it('are on every kind of answer; HSTS only when BASE_URL is https', async () => {
    for (const [served, isHttps] of [[https, true], [plain, false]] as const) {
      const at = (path: string) => served.origin + path;
      const near = JSON.parse((await rawRequest(at('/api/v1/toilets/nearest?lat=43.7394&lon=7.4276&limit=1'))).body.toString());
      const id: string = near.results[0].id;
      const kinds: [string, RawAnswer][] = [
        ['read', await rawRequest(at(`/api/v1/toilets/${id}`), { headers: { 'Accept-Encoding': 'gzip' } })],
        ['problem 400', await rawRequest(at('/api/v1/toilets/nearest?lat=91'))],
        ['getToilet 404', await rawRequest(at('/api/v1/toilets/n1'))],
        ['no route 404', await rawRequest(at('/nothing/here'))],
        ['405', await rawRequest(at('/api/v1/toilets/nearest'), { method: 'DELETE' })],
        ['preflight', await rawRequest(at('/api/v1/toilets/nearest'), { method: 'OPTIONS', headers: { Origin: 'https://other.example', 'Access-Control-Request-Method': 'GET' } })],
        ['page', await rawRequest(at('/licenses'))],
        ['problem page', await rawRequest(at('/problems/not-found'))],
        ['openapi', await rawRequest(at('/api/v1/openapi.json'), { headers: { 'Accept-Encoding': 'br' } })],
        ['mcp', await rawRequest(at('/mcp'), { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: MCP_INIT })],
        ['mcp 405', await rawRequest(at('/mcp'))],
        ['dump 404', await rawRequest(at('/dumps/nothing.csv'))],
      ];
      const first = kinds[0][1];
      kinds.push(['304', await rawRequest(at(`/api/v1/toilets/${id}`), { headers: { 'If-None-Match': String(first.headers.etag) } })]);
      for (const [what, answer] of kinds) assertSecurityHeaders(answer, `${what} (${answer.status})`, isHttps);
      assert.deepEqual(kinds.map(([what, answer]) => `${what} ${answer.status}`).filter((line) => / 5\d\d$/.test(line)), [], 'no kind failed');
      assert.equal(kinds.find(([what]) => what === '304')![1].status, 304);
    }
    // the https server's limit is 30 a minute (its clock stands still): its 429s carry them too
    let refused: RawAnswer;
    let sent = 0;
    do refused = await rawRequest(`${https.origin}/api/v1/toilets/nearest?lat=43.7394&lon=7.4276`);
    while (refused.status === 200 && ++sent <= 30);
    assert.equal(refused.status, 429);
    assertSecurityHeaders(refused, '429', true);
  });

  it('are on the answer to a request refused for its framing', async () => {
    const answer = await rawBytes(plain.origin, 'POST /api/v1/submissions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /\r\nX-Content-Type-Options: nosniff\r\n/i);
    assert.match(answer, /\r\nContent-Security-Policy: frame-ancestors 'none'\r\n/i);
  });

  it("give a page route its own policy, which keeps frame-ancestors 'none'", async () => {
    const policy = pageContentSecurityPolicy(["default-src 'self'", "img-src 'self' data:"]);
    assert.equal(policy, `default-src 'self'; img-src 'self' data:; ${FRAME_ANCESTORS_NONE}`);
    assert.equal(pageContentSecurityPolicy(["default-src 'self'", "frame-ancestors 'self'"]), "default-src 'self'; frame-ancestors 'self'", 'a page may name its own');
    assert.throws(() => pageContentSecurityPolicy(["default-src 'self'; script-src *"]), /each Content-Security-Policy directive as its own string/);
    const server = await startServer((s) => {
      s.route({ method: 'GET', pattern: '/page', contentSecurityPolicy: policy, handler: () => ({ status: 200, headers: ['Content-Type', 'text/html'], body: '<p>hi' }) });
      s.route({ method: 'GET', pattern: '/data', handler: () => ({ status: 200, headers: ['Content-Type', 'application/json'], body: '{}' }) });
    });
    try {
      const page = await rawRequest(`${server.origin}/page`);
      assert.equal(page.headers['content-security-policy'], policy, 'one policy: the page’s own');
      assert.equal((await rawRequest(`${server.origin}/data`)).headers['content-security-policy'], FRAME_ANCESTORS_NONE);
    } finally {
      await server.server.close();
    }
  });
});
