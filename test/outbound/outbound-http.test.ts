// The one outbound-HTTP module: https on 443 only; names resolved once by an injected resolver and refused
// before any socket opens when they point at non-public addresses; no redirects followed; the time and
// answer-size bounds. Receivers run on loopback with OUTBOUND_ALLOW_PRIVATE's allowance, which only tests use.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { isGlobalAddress, OUTBOUND_MAX_ANSWER_BYTES, OutboundHttp, type Resolver } from '../../src/outbound/outbound-http.js';

describe('outbound HTTP', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const paths: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      paths.push(req.url ?? '');
      req.resume();
      if (req.url === '/redirect') return void res.writeHead(302, { Location: `http://127.0.0.1:${port}/target` }).end();
      if (req.url === '/large') return void res.end(Buffer.alloc(OUTBOUND_MAX_ANSWER_BYTES + 1024, 'a'));
      if (req.url === '/slow') return; // never answers
      if (req.url === '/document') return void res.writeHead(200, { 'Cache-Control': 'max-age=60' }).end('x'.repeat(100));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ host: req.headers.host }));
    });
    server.on('connection', () => void connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  test('public and non-public addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fc00::1', 'fd12::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '224.0.0.1', '2001:db8::1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::8.8.8.8']) {
      assert.equal(isGlobalAddress(address), false, address);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) assert.equal(isGlobalAddress(address), true, address);
  });

  test('names that resolve to non-public addresses are refused before any socket opens', async () => {
    const asked: string[] = [];
    const resolver: Resolver = (hostname) => {
      asked.push(hostname);
      const answers: Record<string, string[]> = { 'intranet.example': ['10.0.0.7'], 'loop.example': ['127.0.0.1'], 'mixed.example': ['93.184.216.34', '192.168.0.5'], 'v6.example': ['fd00::5'] };
      return Promise.resolve((answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    };
    const outbound = new OutboundHttp({ allowPrivate: false, resolver });
    const before = connections;
    for (const host of ['intranet.example', 'loop.example', 'mixed.example', 'v6.example']) {
      const result = await outbound.post(`https://${host}/hook`, {}, '{}');
      assert.equal(result.ok, false, host);
      assert.equal(!result.ok && result.failure, 'refused_address', host);
    }
    assert.deepEqual(asked, ['intranet.example', 'loop.example', 'mixed.example', 'v6.example'], 'each name resolved once');
    const literal = await outbound.post(`https://127.0.0.1/hook`, {}, '{}');
    assert.equal(!literal.ok && literal.failure, 'refused_address');
    assert.equal(connections, before, 'no socket opened');
  });

  test('only https on port 443, no credentials, unless the operator allows private addresses', () => {
    const strict = new OutboundHttp({ allowPrivate: false });
    assert.equal(strict.urlFault('https://hooks.example/x'), null);
    assert.equal(strict.urlFault('https://hooks.example:443/x'), null);
    assert.match(strict.urlFault('http://hooks.example/x')!, /https on port 443/);
    assert.match(strict.urlFault('https://hooks.example:8443/x')!, /https on port 443/);
    assert.match(strict.urlFault('https://u:p@hooks.example/x')!, /user name/);
    assert.match(strict.urlFault('not a url')!, /absolute/);
  });

  test('the checked address is connected with the original Host; redirects are not followed', async () => {
    const resolver: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const outbound = new OutboundHttp({ allowPrivate: true, resolver });
    const answer = await outbound.post(`http://receiver.test:${port}/hook`, {}, '{}');
    assert.ok(answer.ok);
    assert.equal(JSON.parse(answer.body).host, `receiver.test:${port}`);
    paths.length = 0;
    const redirected = await outbound.post(`http://receiver.test:${port}/redirect`, {}, '{}');
    assert.ok(redirected.ok);
    assert.equal(redirected.status, 302);
    assert.deepEqual(paths, ['/redirect'], 'the Location was not visited');
    const publicOverHttp = await new OutboundHttp({ allowPrivate: true, resolver: () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]) }).post('http://public.example/x', {}, '{}');
    assert.equal(!publicOverHttp.ok && publicOverHttp.failure, 'refused_address', 'plain http only to private addresses, even with the allowance');
  });

  test('an answer past 64 KiB is cut, a silent endpoint times out', async () => {
    const outbound = new OutboundHttp({ allowPrivate: true, timeoutMs: 200 });
    const large = await outbound.post(`http://127.0.0.1:${port}/large`, {}, '{}');
    assert.ok(large.ok);
    assert.equal(large.complete, false);
    const slow = await outbound.post(`http://127.0.0.1:${port}/slow`, {}, '{}');
    assert.equal(!slow.ok && slow.failure, 'timeout');
  });

  test('a GET reads at most its own cap and answers the headers; a longer Content-Length is not read', async () => {
    const outbound = new OutboundHttp({ allowPrivate: true });
    const whole = await outbound.get(`http://127.0.0.1:${port}/document`, {}, 100);
    assert.ok(whole.ok && whole.complete);
    assert.equal(whole.headers['cache-control'], 'max-age=60');
    assert.equal(whole.body.length, 100);
    const cut = await outbound.get(`http://127.0.0.1:${port}/document`, {}, 99);
    assert.ok(cut.ok);
    assert.equal(cut.complete, false);
    assert.equal(cut.body, '', 'nothing of it is read');
  });

  test("a test's allowance opens one https port to loopback only, and nothing else", async () => {
    const resolver: Resolver = (hostname) => Promise.resolve([{ address: hostname === 'inside.example' ? '10.0.0.9' : '127.0.0.1', family: 4 }]);
    const outbound = new OutboundHttp({ allowPrivate: false, resolver, testAllowance: { ca: '', loopbackPort: 4443 } });
    assert.equal(outbound.urlFault('https://stand-in.example:4443/c.json'), null);
    assert.match(outbound.urlFault('https://stand-in.example:4444/c.json')!, /https on port 443/);
    assert.match(outbound.urlFault('http://stand-in.example:4443/c.json')!, /https on port 443/);
    const before = connections;
    const inside = await outbound.get('https://inside.example:4443/c.json', {});
    assert.match(!inside.ok ? inside.detail : '', /the test port is for loopback only/);
    const loopbackOn443 = await outbound.get('https://stand-in.example/c.json', {});
    assert.match(!loopbackOn443.ok ? loopbackOn443.detail : '', /127\.0\.0\.1, which is not a public address/);
    assert.equal(connections, before, 'no socket opened');
  });
});
