// deploy/nginx/toilet-finder.conf with upstream-one.conf, run by a real nginx in front of the real service: the requests that
// the service's own parser cannot answer well (pipelined, HTTP/1.0, many headers, bad framing, unknown
// methods, malformed lines) get proper answers through it, X-Forwarded-For cannot be forged, /metrics
// stays inside, and the header allowlist passes every header a route reads. Skipped without nginx,
// except in CI (CI=true), where .ci/run installs it and a skip would hide a broken deployment example.
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importedCopy, serve, tempDir, type Served } from '../api/support.js';
import { REPO_DIR } from '../support/paths.js';
import { freePort, startNginx } from '../support/nginx.js';

const CONFIG = join(REPO_DIR, 'deploy', 'nginx', 'toilet-finder.conf');
/** One server: toilet-finder.service's port (upstream-replicas.conf: test/deploy/replicas.test.ts). */
const UPSTREAM = join(REPO_DIR, 'deploy', 'nginx', 'upstream-one.conf');
const NEAREST = '/api/v1/toilets/nearest?lat=43.73&lon=7.42';
const nginxFound = spawnSync('nginx', ['-v']).status === 0;
if (!nginxFound && process.env.CI === 'true') throw new Error('nginx is missing: .ci/run installs it (apt-get install nginx-light)');

/** Every byte one raw request gets back until the connection closes or `ms` pass. */
/** Sends `bytes`, resolves with what comes back once the connection closes: after `ms`, or (null) when the server closes it. */
function rawExchange(port: number, bytes: string, ms: number | null = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    const timer = ms === null ? undefined : setTimeout(() => socket.destroy(), ms);
    socket.on('data', (data: Buffer) => (text += data.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

const statusLines = (text: string) => [...text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));

describe('the nginx example in front of the service', { skip: nginxFound ? false : 'nginx is not installed (apt-get install nginx-light)' }, () => {
  const dir = tempDir();
  let service: Served;
  let nginx: ChildProcess;
  let port: number;

  before(async () => {
    const db = join(dir.path, 'toilets.db');
    await importedCopy('monaco', db);
    service = await serve({ db, now: Date.now, env: { TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '5' }, reach: 'socket' }); // nginx proxies to its port
    const servicePort = new URL(service.origin).port;
    port = await freePort();
    const upstream = readFileSync(UPSTREAM, 'utf8').replace('server 127.0.0.1:8080;', `server 127.0.0.1:${servicePort};`);
    assert.notEqual(upstream, readFileSync(UPSTREAM, 'utf8'));
    const site = readFileSync(CONFIG, 'utf8').replace('listen 80;', `listen 127.0.0.1:${port};`).replace('listen [::]:80;', '');
    writeFileSync(join(dir.path, 'site.conf'), upstream + site);
    nginx = await startNginx(dir.path, port);
  });
  after(async () => {
    nginx?.kill('SIGTERM');
    await service?.close();
    dir.remove();
  });

  test('pipelined requests are each answered', async () => {
    const text = await rawExchange(port, `GET ${NEAREST} HTTP/1.1\r\nHost: x\r\n\r\nGET ${NEAREST} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.deepEqual(statusLines(text), [200, 200]);
  });

  test('an HTTP/1.0 request is answered', async () => {
    const text = await rawExchange(port, `GET ${NEAREST} HTTP/1.0\r\nHost: x\r\n\r\n`);
    assert.deepEqual(statusLines(text), [200]);
    assert.match(text, /"status":"ok"/);
    assert.doesNotMatch(text, /uWebSockets/i, 'the parser does not name itself');
  });

  test('a request with 60 header lines is answered', async () => {
    const headers = Array.from({ length: 60 }, (_, i) => `X-F-${i}: v\r\n`).join('');
    assert.deepEqual(statusLines(await rawExchange(port, `GET ${NEAREST} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`)), [200]);
  });

  // the exchanges end only when nginx closes the connection: one it leaves open fails the test at its timeout
  test('bad framing, unknown methods and malformed requests get an answer at once, and the connection ends', { timeout: 120_000 }, async () => {
    const post = (framing: string) => `POST /api/v1/submissions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${framing}\r\n`;
    const cases: [string, string, number][] = [
      ['two different Content-Length', `${post('Content-Length: 2\r\nContent-Length: 3\r\n')}{}x`, 400],
      ['an unknown transfer coding', `${post('Transfer-Encoding: gzip\r\n')}0\r\n\r\n`, 501],
      ['an extension method', 'PROPFIND / HTTP/1.1\r\nHost: x\r\n\r\n', 501],
      ['a raw space in the path', 'GET /api/v1/toilets/a b HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['a missing Host', `GET ${NEAREST} HTTP/1.1\r\n\r\n`, 400],
      ['garbage', 'hello there\r\n\r\n', 400],
      ['a 100 KB request line', `GET /api/v1/toilets/nearest?place=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414],
    ];
    for (const [what, bytes, status] of cases) {
      const text = await rawExchange(port, bytes, null);
      assert.deepEqual(statusLines(text).slice(0, 1), [status], `${what}: ${JSON.stringify(text.slice(0, 200))}`);
    }
  });

  test('X-Forwarded-For sent by a client cannot choose its rate-limit budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`http://127.0.0.1:${port}/api/v1/toilets/n1`, { headers: { 'X-Forwarded-For': `198.51.100.${i}` } })).status);
    assert.deepEqual(statuses.slice(-1), [429], `one budget for the one client behind nginx: ${statuses.join(' ')}`);
  });

  test('/metrics is not reachable from outside', async () => {
    assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 403);
  });

  test('the header allowlist passes every header a route of the service reads', () => {
    const passed = new Set([...readFileSync(CONFIG, 'utf8').matchAll(/^\s*proxy_set_header ([A-Za-z-]+) /gm)].map((m) => m[1].toLowerCase()));
    const read = service.app.server.routeSpecs().flatMap((route) => (route.headers === 'all' ? [] : route.headers.map((h) => h.toLowerCase())));
    // what the MCP SDK reads of a request (routes with headers: 'all')
    const mcp = ['accept', 'content-type', 'origin', 'authorization', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'];
    assert.deepEqual([...new Set([...read, ...mcp])].filter((header) => !passed.has(header)), []);
  });
});
