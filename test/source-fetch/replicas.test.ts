// Two replicas (real main.js processes) following one publisher (real HTTP on loopback) with
// TOILETS_DB_URL, as docs/SCALING.md lays them out: started with no local copy they serve but are not
// ready until the first fetch; a new publish reaches both on their own polling while a client keeps
// asking both, and not one request fails. Waits are for log lines and /status, never for a fixed time.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importedCopy, tempDir } from '../api/support.js';
import { Publisher } from './publisher.js';
import { fetchLeftovers, variantOf } from './support.js';

const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));
const V1 = '2026-02-01T00:00:00.000Z';
const V2 = '2026-02-02T00:00:00.000Z';
const NEAREST = '/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=3';
/** Against a hang only (a swap that never lands), not a measure of how fast it lands. */
const HANG_GUARD = { timeout: 300_000 };

interface LogLine {
  message: string;
  [field: string]: unknown;
}

/** One replica: its process, its folder, every log line so far, and a wait for the next that matches. */
class Replica {
  readonly lines: LogLine[] = [];
  private readonly waiters: { match(line: LogLine): boolean; resolve(line: LogLine): void }[] = [];
  port = 0;

  constructor(
    readonly child: ChildProcess,
    readonly dir: string,
  ) {
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (text) => {
        const line = JSON.parse(text) as LogLine;
        this.lines.push(line);
        for (const waiter of [...this.waiters]) {
          if (!waiter.match(line)) continue;
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      });
    }
  }

  /** The first line from index `from` on that matches (one logged already, or the next). */
  next(match: (line: LogLine) => boolean, from = 0): Promise<LogLine> {
    const seen = this.lines.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      this.waiters.push({ match, resolve });
      this.child.once('exit', () => reject(new Error(`the replica exited; its log: ${this.lines.map((l) => l.message).join(' | ')}`)));
    });
  }

  get(path: string): Promise<Response> {
    return fetch(`http://127.0.0.1:${this.port}${path}`);
  }

  async status(): Promise<{ imported_at: string | null; source_fetch: { toilets: { sha256: string | null; last_error: string | null } } }> {
    return (await this.get('/status')).json() as never;
  }
}

const dir = tempDir('replicas');
let publisher: Publisher;
const replicas: Replica[] = [];
const versions: Record<string, Buffer> = {};

before(async () => {
  const imported = join(dir.path, 'imported.db');
  await importedCopy('monaco', imported);
  versions.v1 = variantOf(imported, dir.path, 'v1.db', { imported_at: V1 });
  versions.v2 = variantOf(imported, dir.path, 'v2.db', { imported_at: V2 });
  publisher = await Publisher.start();
  for (const [name, threads] of [['a', '1'], ['b', '2']]) {
    const home = join(dir.path, name);
    mkdirSync(home);
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env, PORT: '0', HOST: '127.0.0.1', HTTP_THREADS: threads, RATE_LIMIT_PER_MINUTE: '0',
        TOILETS_DB: join(home, 'toilets.db'), OVERLAY_DB: join(home, 'overlay.db'), TOILETS_DB_URL: publisher.url('toilets.db'), SOURCE_POLL_SECONDS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    replicas.push(new Replica(child, home));
  }
  for (const replica of replicas) replica.port = (await replica.next((l) => l.message === 'serving')).port as number;
});

after(async () => {
  for (const { child } of replicas) {
    if (child.exitCode !== null) continue;
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  await publisher?.close();
  dir.remove();
});

test('with no local copy a replica serves but is not ready until its first fetch, and /readyz says why', HANG_GUARD, async () => {
  for (const replica of replicas) {
    await replica.next((l) => l.message.startsWith('fetching the source database from TOILETS_DB_URL failed:'));
    const ready = await replica.get('/readyz');
    assert.equal(ready.status, 503);
    const problem = (await ready.json()) as { detail: string };
    assert.match(problem.detail, /waiting for the first fetch|fetching the source database from TOILETS_DB_URL \(127\.0\.0\.1:\d+\) failed: .*answered 404/);
  }
  publisher.publish('toilets.db', versions.v1);
  const marks = replicas.map((r) => r.lines.length);
  for (const { child } of replicas) child.kill('SIGHUP'); // check now, not after the backed-off retry
  for (const [i, replica] of replicas.entries()) {
    await replica.next((l) => l.message === 'source reloaded' && l.reason === 'fetched from TOILETS_DB_URL', marks[i]);
    assert.equal((await replica.get('/readyz')).status, 200);
    assert.equal((await replica.status()).imported_at, V1);
  }
});

test('a new publish reaches both replicas on their polling with zero failed requests', HANG_GUARD, async () => {
  let stop = false;
  const failures: string[] = [];
  let answered = 0;
  const client = async (replica: Replica) => {
    while (!stop) {
      try {
        const response = await replica.get(NEAREST);
        const body = (await response.json()) as { results?: unknown[] };
        if (response.status !== 200 || body.results?.length !== 3) failures.push(`${response.status} ${JSON.stringify(body)}`);
        answered++;
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  };
  const clients = replicas.flatMap((replica) => [client(replica), client(replica)]);
  try {
    const marks = replicas.map((r) => r.lines.length);
    publisher.publish('toilets.db', versions.v2);
    for (const [i, replica] of replicas.entries()) {
      await replica.next((l) => l.message === 'fetched the source database from TOILETS_DB_URL', marks[i]);
      await replica.next((l) => l.message === 'source reloaded' && l.reason === 'fetched from TOILETS_DB_URL', marks[i]);
    }
  } finally {
    stop = true;
    await Promise.all(clients);
  }
  assert.deepEqual(failures, []);
  assert.ok(answered > 0);
  for (const replica of replicas) {
    const status = await replica.status();
    assert.equal(status.imported_at, V2);
    assert.equal(status.source_fetch.toilets.last_error, null);
    assert.deepEqual(fetchLeftovers(replica.dir), []);
    const metrics = await (await replica.get('/metrics')).text();
    assert.match(metrics, /^toilet_finder_source_fetch_swaps_total\{file="toilets"\} 2$/m);
  }
  assert.equal(publisher.downloads('toilets.db'), 4, 'each replica downloaded each version once');
});
