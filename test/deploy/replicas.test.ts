// Two replicas behind the deploy/ nginx, as docs/SCALING.md lays them out: a real nginx on
// toilet-finder.conf with upstream-replicas.conf, two `main.js` processes started by the ExecStart of
// toilet-finder@.service (each on its instance's port and files, both on one source database and one real
// redis-server through REDIS_URL). One address's requests spread over both are refused on both alike once
// they have reconciled (waited for on Redis's totals channel and each replica's next reconciliation, not
// for a time); a replica SIGKILLed with a read and a write in flight: the read is passed to the other, the
// write is not, and reads go on succeeding. The replicas run on the real clock (windows are clock
// minutes): a burst that a minute's end cuts in two is made again in the next minute. Skipped without
// nginx or redis-server, except in CI (CI=true).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { request, type IncomingHttpHeaders } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { importedData, startMain, type Data, type MainProcess } from '../support/server.js';
import { freePort, startNginx } from '../support/nginx.js';
import { REPO_DIR } from '../support/paths.js';
import { noRedis, startRedis, type TestRedis } from '../support/redis.js';
import { commandOf, execStarts, UNIT_DATA_DIR } from '../support/systemd-units.js';
import type { ChildProcess } from 'node:child_process';

const NGINX_DIR = join(REPO_DIR, 'deploy', 'nginx');
const NEAREST = '/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=3';
const LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-policy', 'ratelimit', 'ratelimit-reset', 'retry-after'];
/** Which replicas nginx asked for a request, in order (the test's own header on the shipped site). */
const UPSTREAM = 'x-test-upstream';
const nginxFound = spawnSync('nginx', ['-v']).status === 0;
if (!nginxFound && process.env.CI === 'true') throw new Error('nginx is missing: .ci/run installs it (apt-get install nginx-light)');
const skip = noRedis || (nginxFound ? false : 'nginx is not installed (apt-get install nginx-light)');

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Replica {
  port: number;
  main: MainProcess;
}

describe('two replicas behind the deploy/ nginx', { skip, timeout: 300_000 }, () => {
  let data: Data;
  let redis: TestRedis;
  let nginx: ChildProcess;
  let port: number;
  let a: Replica;
  let b: Replica;

  /** A replica as toilet-finder@<port>.service starts it, its /var/lib/toilet-finder in the test's folder. */
  async function replica(): Promise<Replica> {
    const replicaPort = await freePort();
    const [line] = execStarts(REPO_DIR, 'toilet-finder@.service');
    const local = line.replaceAll('%i', String(replicaPort)).replaceAll(UNIT_DATA_DIR, data.dir);
    const env = { REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '60', TRUST_PROXY: '1' };
    return { port: replicaPort, main: await startMain(data, { env, main: commandOf(local, REPO_DIR, env) }) };
  }

  before(async () => {
    data = await importedData();
    redis = await startRedis();
    [a, b] = await Promise.all([replica(), replica()]);
    port = await freePort();
    const upstream = readFileSync(join(NGINX_DIR, 'upstream-replicas.conf'), 'utf8').replace('127.0.0.1:8081', `127.0.0.1:${a.port}`).replace('127.0.0.1:8082', `127.0.0.1:${b.port}`);
    const site = readFileSync(join(NGINX_DIR, 'toilet-finder.conf'), 'utf8')
      .replace('listen 80;', `listen 127.0.0.1:${port};\n    add_header X-Test-Upstream "$upstream_addr" always;`)
      .replace('listen [::]:80;', '');
    writeFileSync(join(data.dir, 'site.conf'), upstream + site);
    nginx = await startNginx(data.dir, port);
  });

  after(async () => {
    nginx?.kill('SIGTERM');
    for (const r of [a, b]) {
      if (r === undefined || r.main.child.exitCode !== null || r.main.child.signalCode !== null) continue;
      r.main.child.kill('SIGCONT'); // a stopped replica (a failed test) takes no SIGTERM
      r.main.child.kill('SIGTERM');
      await once(r.main.child, 'close');
    }
    await redis?.stop();
    data?.remove();
  });

  /** One request through nginx from the client address `from` (any of 127.0.0.0/8: a budget of its own). */
  function viaNginx(from: string, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const sent = request({ host: '127.0.0.1', port, localAddress: from, path, method: init.method ?? 'GET', headers: init.headers, agent: false }, (answer) => {
        let body = '';
        answer.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode!, headers: answer.headers, body }));
      });
      sent.on('error', reject);
      sent.end(init.body);
    });
  }

  const upstreamOf = (r: Replica) => `127.0.0.1:${r.port}`;

  /** Resolves once Redis's totals channel carries a per-IP total of `total` (both replicas' counts are in). */
  async function totalPublished(subscriber: Redis, total: number): Promise<void> {
    await new Promise<void>((resolve) => {
      subscriber.on('message', (_channel: string, message: string) => {
        const [, policy, , ...counts] = message.split(' ');
        if (policy === 'per-ip' && counts.some((count) => Number(count.split(':')[1]) >= total)) resolve();
      });
    });
  }

  /** Resolves after the replica's next reconciliation (its /status `last_sync_at` moves on). */
  async function nextSync(r: Replica): Promise<void> {
    const lastSync = async () => ((await (await fetch(`${r.main.url}/status`)).json()) as any).rate_limits.redis.last_sync_at as string;
    const before = await lastSync();
    while ((await lastSync()) === before) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  test("the 61st request of a minute from one address, spread over A and B, is refused by both with the same headers once they have synced", async () => {
    // a minute's end in the burst starts a new window: the burst is made again, from a fresh address
    for (let attempt = 1; ; attempt++) {
      const from = `127.0.0.${10 + attempt}`;
      const minute = Math.floor(Date.now() / 60_000);
      const subscriber = new Redis(redis.url);
      await subscriber.subscribe('toilet-finder:rate-limit:totals');
      const synced = totalPublished(subscriber, 60);
      const upstreams = new Set<string>();
      for (let i = 0; i < 60; i++) {
        const answer = await viaNginx(from, NEAREST);
        assert.equal(answer.status, 200, `request ${i + 1}: ${answer.body}`);
        upstreams.add(answer.headers[UPSTREAM] as string);
      }
      assert.deepEqual([...upstreams].sort(), [upstreamOf(a), upstreamOf(b)].sort(), 'nginx spreads the requests over both');
      await synced;
      subscriber.disconnect();
      await Promise.all([a, b].map(nextSync));
      const refused = [await viaNginx(from, NEAREST), await viaNginx(from, NEAREST)];
      if (Math.floor(Date.now() / 60_000) !== minute && attempt < 3) continue;
      assert.deepEqual(new Set(refused.map((answer) => answer.headers[UPSTREAM])), new Set([upstreamOf(a), upstreamOf(b)]), 'one refusal from each replica');
      for (const answer of refused) {
        assert.equal(answer.status, 429, answer.body);
        assert.equal(answer.headers['ratelimit-remaining'], '0');
        assert.equal(answer.headers['retry-after'], answer.headers['ratelimit-reset']);
      }
      const [fromA, fromB] = refused.map((answer) => Object.fromEntries(LIMIT_HEADERS.map((name) => [name, answer.headers[name]])));
      // the same headers; the seconds to the window's end may have ticked between the two answers
      const reset = (headers: Record<string, unknown>) => Number(headers['ratelimit-reset']);
      assert.ok(Math.abs(reset(fromA) - reset(fromB)) <= 1, `${reset(fromA)} and ${reset(fromB)} seconds to the window's end`);
      const sameSecond = (headers: Record<string, unknown>) => ({ ...headers, 'ratelimit-reset': 'x', 'retry-after': 'x', ratelimit: String(headers.ratelimit).replace(/t=\d+/, 't=x') });
      assert.deepEqual(sameSecond(fromA), sameSecond(fromB));
      assert.equal(fromA['ratelimit-limit'], '60');
      return;
    }
  });

  test('a replica SIGKILLed with a read and a write in flight: the read is answered by the other, the write is not resent, reads go on', async () => {
    const from = '127.0.0.30';
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const post = () => viaNginx(from, '/mcp', { method: 'POST', body: ping, headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } });
    // A stopped: nginx's connections to it are accepted by the kernel, and the requests sent on them wait
    a.main.child.kill('SIGSTOP');
    /** Two requests at once: nginx gives one to each replica in turn; B answers one, the other waits in A (returned in an object: an async function's returned promise would be awaited). */
    const oneWaitsInA = async (send: () => Promise<Reply>): Promise<{ waiting: Promise<Reply> }> => {
      const pair = [send(), send()];
      const first = await Promise.race(pair.map((reply, n) => reply.then(() => n)));
      assert.equal((await pair[first]).headers[UPSTREAM], upstreamOf(b), 'the answered one was B\'s');
      return { waiting: pair[1 - first] };
    };
    const read = await oneWaitsInA(() => viaNginx(from, NEAREST));
    const write = await oneWaitsInA(post);
    a.main.child.kill('SIGKILL');
    await once(a.main.child, 'close');

    const [readAnswer, writeAnswer] = await Promise.all([read.waiting, write.waiting]);
    assert.equal(readAnswer.status, 200, readAnswer.body);
    assert.equal(readAnswer.headers[UPSTREAM], `${upstreamOf(a)}, ${upstreamOf(b)}`, 'the read was passed from A to B');
    assert.equal(writeAnswer.status, 502, writeAnswer.body);
    assert.equal(writeAnswer.headers[UPSTREAM], upstreamOf(a), 'the write was not passed to B');

    for (let i = 0; i < 10; i++) {
      const answer = await viaNginx(from, NEAREST);
      assert.equal(answer.status, 200, `read ${i + 1} after the kill: ${answer.body}`);
      assert.equal(answer.headers[UPSTREAM], upstreamOf(b), 'A is marked down: nginx asks B only');
    }
    assert.equal((await post()).status, 200, 'a write goes to B');
  });
});
