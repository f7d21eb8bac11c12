// GET /healthz on the real uWS server: the thread that answers reads every other thread's heartbeat, so a
// main thread that stops running (a loop that never yields) shows on a read thread as 503 naming it, and
// a thread that ended cleanly (its beat cleared) does not. And the overlay layout step that gives /readyz
// its probe row: a file the previous release wrote (version 1, with rows) comes out at version 2, rows
// kept, and takes the probe's write.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { HttpServer } from '../../src/http/server.js';
import { Problems } from '../../src/http/problem.js';
import { PROBLEM_TYPES } from '../../src/problems.js';
import { serviceHooks } from '../../src/api/server-hooks.js';
import { Heartbeats, HEALTH_SILENT_MS, registerHealthRoute } from '../../src/api/health.js';
import { openDatabase } from '../../src/storage/database.js';
import { OVERLAY_MIGRATIONS } from '../../src/community/migrations.js';
import { SqliteOverlayStore as OverlayStore } from '../../src/community/sqlite-store.js';
import { userVersion } from '../../src/storage/migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'tf-health-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const SILENT = { info() {}, error() {} };

test('a read thread answers /healthz 503 naming the main thread once it has been silent too long, and 200 while it beats', async () => {
  let nowMs = 1_000_000;
  const heartbeats = Heartbeats.create(3);
  const problems = new Problems('https://toilets.example.test', PROBLEM_TYPES);
  const server = new HttpServer({ hooks: serviceHooks(problems, SILENT) });
  // this server plays read thread 1; thread 0 (main) and thread 2 beat into the same table
  registerHealthRoute(server, { heartbeats, thread: 1, problems, now: () => nowMs });
  const port = await server.listen('127.0.0.1', 0);
  const health = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { detail?: string; status: unknown } };
  };
  try {
    heartbeats.beat(0, nowMs);
    heartbeats.beat(2, nowMs);
    assert.deepEqual((await health()).body, { status: 'ok' });
    nowMs += HEALTH_SILENT_MS; // exactly the limit: still fine
    assert.equal((await health()).status, 200);
    heartbeats.beat(2, nowMs);
    nowMs += 5000; // the main thread has now been silent for 20 s
    const stuck = await health();
    assert.equal(stuck.status, 503);
    assert.equal(stuck.retryAfter, '10');
    assert.equal(stuck.body.detail, 'The process is stuck: the main thread has not run for 20 s. Restart the service if this lasts.');
    heartbeats.clear(0); // ended (e.g. shutting down): not stuck
    assert.equal((await health()).status, 200);
    heartbeats.beat(0, nowMs);
    assert.equal((await health()).status, 200);
  } finally {
    await server.close();
  }
});

test('overlay step 2 brings a version-1 file up with its rows, and the readiness probe writes', async () => {
  const path = join(dir, 'overlay.db');
  const old = openDatabase(path, { name: 'overlay database', migrations: OVERLAY_MIGRATIONS.slice(0, 1) });
  old.prepare('INSERT INTO confirmations (toilet_id, at) VALUES (?, ?)').run('n1685061947', 1_700_000_000_000);
  assert.equal(userVersion(old), 1);
  old.close();
  const store = new OverlayStore(path);
  try {
    assert.equal(userVersion(store.db), 2);
    assert.deepEqual(store.db.prepare('SELECT toilet_id, at FROM confirmations').all(), [{ toilet_id: 'n1685061947', at: 1_700_000_000_000 }]);
    await store.probeWrite(1_800_000_000_000);
    await store.probeWrite(1_800_000_005_000);
  } finally {
    await store.close();
  }
  const db = new Database(path, { readonly: true });
  assert.deepEqual(db.prepare('SELECT id, probed_at FROM readiness_probe').all(), [{ id: 1, probed_at: 1_800_000_005_000 }]);
  db.close();
});
