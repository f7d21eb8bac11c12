// `npm start` as a new user and an operator meet it, through the real main.js: with no data and no
// TOILETS_EXTRACT it imports the shipped demo extract, says so in the log and in /status, and serves it;
// an operator's own import replaces it while it runs; a mistyped TOILETS_DB folder stops the start; a
// server listening beyond loopback with the default BASE_URL warns; /healthz and /readyz answer, and
// /readyz says 503 while the overlay's disk cannot take a write.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { chooseTransport } from '../../src/http/transport-choice.js';
import { osmExtract, REPO_DIR } from '../support/paths.js';
import { noMountNamespace, UNSHARE } from '../support/mount-namespace.js';
import type { ServiceStatus } from '../../src/status/status.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const IMPORT_CLI = fileURLToPath(new URL('../../importer/cli.js', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { version: string }).version;
const root = mkdtempSync(join(tmpdir(), 'tf-first-start-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Started {
  url: string;
  pid: number;
  /** Every stdout message so far. */
  messages: string[];
  stderr(): string;
  stop(): Promise<void>;
}

/** A fresh clone's layout: an empty data folder, the databases in it (TOILETS_DB as an operator would set it). */
function freshDataFolder(name: string): string {
  const data = join(root, name, 'data');
  mkdirSync(data, { recursive: true });
  return data;
}

/** main.js on `data`'s databases, as `launcher`'s arguments when given; resolves once it serves. */
async function start(data: string, env: Record<string, string> = {}, launcher: string[] = []): Promise<Started> {
  const [command, ...args] = [...launcher, process.execPath, MAIN];
  const child = spawn(command, args, {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', BASE_URL: '', HTTP_THREADS: '2', TOILETS_EXTRACT: '', TOILETS_DB: join(data, 'toilets.db'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const messages: string[] = [];
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  for await (const line of createInterface({ input: child.stdout! })) {
    const entry = JSON.parse(line) as { message: string; port?: number };
    messages.push(entry.message);
    if (entry.message === 'serving') {
      createInterface({ input: child.stdout! }).on('line', (more) => messages.push((JSON.parse(more) as { message: string }).message));
      return { url: `http://127.0.0.1:${entry.port}`, pid: child.pid!, messages, stderr: () => stderr, stop };
    }
  }
  await stop();
  throw new Error(`main.js ended before serving: ${stderr}`);
}

async function json<T>(url: string): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

/** Asks until `done` holds (a reload after an import, a probe's next write), failing after a generous bound. */
async function eventually<T>(ask: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await ask();
    if (done(value) || attempt === 600) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What this run's start serves with (HTTP_TRANSPORT as the run sets it, main.js inheriting it). */
const EXPECTED_TRANSPORT = chooseTransport((process.env.HTTP_TRANSPORT ?? 'auto') as 'auto').name;

test('no data, no TOILETS_EXTRACT: the demo is imported and served, the log and /status say so; an operator import replaces it', async () => {
  const data = freshDataFolder('demo');
  const server = await start(data);
  try {
    assert.ok(server.messages.includes('no toilets yet and no TOILETS_EXTRACT: importing the demo data (Monaco) before serving'), server.messages.join(' | '));
    assert.ok(server.messages.some((m) => m.startsWith('serving the demo data (Monaco, OpenStreetMap as of 2020-07-19): import your region with `npm run import')), server.messages.join(' | '));
    const status = await json<ServiceStatus>(`${server.url}/status`);
    assert.equal(status.status, 200);
    assert.equal(status.headers.get('cache-control'), 'no-store');
    const { uptime_seconds: uptime, imported_at: importedAt, ...rest } = status.body;
    assert.ok(Number.isInteger(uptime) && uptime >= 0);
    assert.ok(!Number.isNaN(Date.parse(importedAt!)));
    assert.deepEqual(rest, {
      version: VERSION,
      demo: true,
      region: 'Monaco',
      data_as_of: '2020-07-19T20:58:03.000Z',
      extract: 'monaco-2020-07-19.osm.pbf',
      coverage: { name: 'Monaco', bounds: [7.409205, 43.72335, 7.448637, 43.75169] },
      counts: { toilets: 29, community_toilets: 0, places: 379 },
      source_layout: { missing: [], note: null },
      source_fetch: { toilets: null, tiles: null },
      rate_limits: { scope: 'replica', redis: null },
      worker: { this_replica: true, jobs: ['partner-closures', 'account-events', 'billing-sweep', 'overlay-cleanup'], lease: null },
      transport: EXPECTED_TRANSPORT,
    });
    assert.equal(server.messages.filter((m) => m.startsWith('HTTP_TRANSPORT=')).length, 1, 'one line says which transport serves');
    const nearest = await json<{ status: string; results: unknown[] }>(`${server.url}/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=3`);
    assert.equal(nearest.body.status, 'ok');
    assert.equal(nearest.body.results.length, 3);
    // every thread answers /healthz (connections land on either): ask on fresh connections
    for (let i = 0; i < 6; i++) assert.deepEqual((await json(`${server.url}/healthz`)).body, { status: 'ok' });
    assert.deepEqual((await json(`${server.url}/readyz`)).body, { status: 'ready' });
    const licences = await (await fetch(`${server.url}/licenses`)).text();
    assert.match(licences, /Coverage: Monaco \(longitude 7\.40921 to 7\.44864, latitude 43\.72335 to 43\.75169\)\./);
    assert.match(licences, /This is the demo data shipped with the service/);

    // the operator imports their region while the server runs: it replaces the demo
    // not spawnSync: blocked for the import, this process would then send its next request on a kept-alive
    // connection the server has meanwhile closed as idle (fetch failed, on a loaded machine)
    const importing = spawn(process.execPath, [IMPORT_CLI, osmExtract('liechtenstein'), '--db', join(data, 'toilets.db'), '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let importErrors = '';
    importing.stderr.on('data', (chunk) => (importErrors += chunk));
    const [code] = await once(importing, 'close');
    assert.equal(code, 0, importErrors);
    const replaced = await eventually(() => json<ServiceStatus>(`${server.url}/status`), (answer) => !answer.body.demo);
    assert.equal(replaced.body.demo, false);
    assert.equal(replaced.body.region, 'Liechtenstein');
    assert.equal(replaced.body.extract, 'liechtenstein-2015-07-27.osm.pbf');
    assert.deepEqual(replaced.body.counts, { toilets: 13, community_toilets: 0, places: 1250 });
    assert.deepEqual(replaced.body.coverage, { name: 'Liechtenstein', bounds: [9.471078, 47.04774, 9.636217, 47.27128] });
  } finally {
    await server.stop();
  }
  // started again, the operator's data stays
  const again = await start(data);
  try {
    assert.ok(!again.messages.some((m) => m.includes('importing')), again.messages.join(' | '));
    assert.equal((await json<ServiceStatus>(`${again.url}/status`)).body.region, 'Liechtenstein');
  } finally {
    await again.stop();
  }
});

test('the demo data from an older layout is imported again; TOILETS_EXTRACT replaces the demo at start', async () => {
  const data = freshDataFolder('upgrade');
  await (await start(data)).stop();
  const db = new Database(join(data, 'toilets.db'));
  db.prepare(`UPDATE meta SET value = '3' WHERE key = 'schema_version'`).run();
  db.close();
  const upgraded = await start(data);
  await upgraded.stop();
  assert.ok(upgraded.messages.some((m) => m.startsWith('the source database has layout version 3, this server reads') && m.endsWith('importing the demo data (Monaco) before serving')), upgraded.messages.join(' | '));

  const operator = await start(data, { TOILETS_EXTRACT: osmExtract('andorra') });
  try {
    assert.ok(operator.messages.includes('the source database holds the demo data: importing TOILETS_EXTRACT before serving'), operator.messages.join(' | '));
    const status = (await json<ServiceStatus>(`${operator.url}/status`)).body;
    assert.deepEqual([status.demo, status.region], [false, 'Andorra']);
  } finally {
    await operator.stop();
  }
});

test('a TOILETS_DB whose folder does not exist stops the start with a line saying so (exit 1), and creates nothing', async () => {
  const missing = join(root, 'no-such-folder');
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', TOILETS_EXTRACT: '', TOILETS_DB: join(missing, 'toilets.db') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  const last = JSON.parse(stderr.trim().split('\n').at(-1)!) as { message: string };
  assert.equal(last.message, `start failed: TOILETS_DB=${join(missing, 'toilets.db')}: the folder ${missing} does not exist; create it (mkdir -p ${missing}) or correct TOILETS_DB`);
  assert.equal(spawnSync('test', ['-e', missing]).status, 1, 'nothing created');
});

test('listening beyond loopback with the default BASE_URL logs a warning naming the variable; loopback or a set BASE_URL does not', async () => {
  const data = freshDataFolder('base-url');
  const warning = /BASE_URL is not set: every URL in answers, the OpenAPI servers entry and the dump notice say http:\/\/localhost:0, though the server listens on HOST=0\.0\.0\.0; set BASE_URL/;
  for (const [env, warns] of [[{ HOST: '0.0.0.0' }, true], [{ HOST: '0.0.0.0', BASE_URL: 'https://toilets.example.org' }, false], [{ HOST: '127.0.0.1' }, false]] as const) {
    const server = await start(data, env);
    await server.stop();
    assert.equal(warning.test(server.stderr()), warns, `${JSON.stringify(env)}: ${server.stderr()}`);
  }
});

test('/readyz answers 503 with the reason while the overlay database cannot take a write, and 200 again once it can', { skip: noMountNamespace }, async () => {
  const data = freshDataFolder('full-disk');
  const disk = join(data, 'disk');
  mkdirSync(disk);
  const launcher = [...UNSHARE, 'sh', '-c', 'mount -t tmpfs -o size=4m tmpfs "$0" && exec "$@"', disk];
  const server = await start(data, { OVERLAY_DB: join(disk, 'overlay.db'), HTTP_THREADS: '1' }, launcher);
  try {
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    // the server's view of its disk (unshare and sh exec it: same pid), filled until the kernel refuses
    const filler = join(`/proc/${server.pid}/root`, disk, 'filler');
    assert.throws(() => {
      for (;;) appendFileSync(filler, Buffer.alloc(64 * 1024));
    }, /ENOSPC/);
    const refused = await eventually(() => fetch(`${server.url}/readyz`).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), body: (await r.json()) as { detail: string } })), (r) => r.status === 503);
    assert.equal(refused.status, 503);
    assert.equal(refused.retry, '30');
    assert.equal(refused.body.detail, 'The overlay database cannot take a write: the disk is full. Contributions are refused until it can; reads go on.');
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200, 'alive all the same');
    rmSync(filler);
    assert.equal((await eventually(() => fetch(`${server.url}/readyz`), (r) => r.status === 200)).status, 200);
  } finally {
    await server.stop();
  }
});
