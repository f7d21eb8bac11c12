// One worker for the cluster (src/cluster/worker-lease.ts, worker.ts): two replicas (one thread each) on
// one PostgreSQL database of the test's own cluster, with the OSM note outbox pointed at a stand-in of the
// OpenStreetMap API on loopback. Only the lease holder runs the shared jobs, so each queued note reaches the
// stand-in once, from it; when the holder closes (the lease given up) or is SIGKILLed (the lease left to
// expire: WORKER_LEASE_SECONDS=2), the other replica takes the lease and sends what was queued meanwhile.
// A holder cut off from PostgreSQL stops by its own (injected) clock before the lease expires.
// Every wait is for an event (a lease's try, a note arriving); the timeouts are hang guards only.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Clock, importedData, serve, SILENT, startMain, TEST_ENV, TEST_START, type Data, type Served } from '../support/server.js';
import { noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';
import { PostgresDatabase } from '../../src/storage/postgres.js';
import { POSTGRES_SCHEMAS } from '../../src/databases.js';
import { postgresUrl } from '../../src/config-values.js';
import { WorkerLease } from '../../src/cluster/worker-lease.js';
import type { App } from '../../src/app.js';
import { guarded } from '../support/guarded.js';

const SHARED_JOBS = ['osm-notes', 'overlay-cleanup'];
/** Over each replica's own ACCOUNTS_DB (the accounts side is not in PostgreSQL yet): every replica runs them. */
const OWN_JOBS = ['account-events', 'billing-sweep', 'partner-closures'];
const ALL_JOBS = [...SHARED_JOBS, ...OWN_JOBS].sort();

let cluster: TestPostgres | undefined;
let data: Data;
let osm: OsmStandIn;

before(async () => {
  data = await importedData();
  if (!noPostgres) cluster = await startPostgres();
  osm = await osmStandIn();
});
after(() => {
  osm?.server.close();
  cluster?.stop();
  data?.remove();
});

/** The OpenStreetMap API's note creation on loopback: the texts of the notes it got, in order. */
interface OsmStandIn {
  url: string;
  texts: string[];
  server: Server;
  /** Resolves once a note with `text` arrived (at once if it did). */
  received(text: string): Promise<void>;
}

async function osmStandIn(): Promise<OsmStandIn> {
  const texts: string[] = [];
  const waiting: { text: string; resolve(): void }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const text = new URLSearchParams(body).get('text') ?? '';
      texts.push(text);
      for (const waiter of waiting.filter((w) => w.text === text)) waiter.resolve();
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ type: 'Feature', properties: { id: 4200 + texts.length } }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const received = (text: string) => (texts.includes(text) ? Promise.resolve() : guarded(new Promise<void>((resolve) => waiting.push({ text, resolve })), `the note "${text}" never arrived`));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/0.6`, texts, server, received };
}

/** Resolves once `app`'s lease was tried and `done` holds (checked after every try). */
function afterTries(app: App, done: () => boolean, never: string): Promise<void> {
  const lease = app.worker.lease!;
  const tried = () => lease.status().holder !== null && done();
  if (tried()) return Promise.resolve();
  return guarded(new Promise<void>((resolve) => lease.on('tried', () => void (tried() && resolve()))), never);
}

/** Migrates the database as a replica would (the schema must be there to queue notes into). */
async function migrated(url: string): Promise<void> {
  await (await PostgresDatabase.open(postgresUrl(url)!, POSTGRES_SCHEMAS, () => {})).close();
}

/** Queues a note in the shared outbox, as moderation does when a report on an OpenStreetMap toilet is approved. */
function queueNote(url: string, text: string): void {
  cluster!.psql(`INSERT INTO overlay.osm_notes (report_id, lat, lon, text, queued_at) VALUES (1, 41.15, -8.61, '${text}', 0)`, url);
}

/** Each sent note's attempts, by text, once `app`'s round under way (if any) recorded what it sent. */
async function attempts(app: App, url: string): Promise<Record<string, number>> {
  await app.community.osmNotes!.flush();
  return attemptsIn(url);
}

function attemptsIn(url: string): Record<string, number> {
  const rows = cluster!.psql("SELECT text || '=' || attempts FROM overlay.osm_notes WHERE sent_at IS NOT NULL ORDER BY id", url).trim().split('\n');
  return Object.fromEntries(rows.map((row) => row.split('=')).map(([text, n]) => [text, Number(n)]));
}

function replicaEnv(url: string): Record<string, string> {
  return { ...TEST_ENV, DATABASE_URL: url, OSM_NOTES_API: osm.url, WORKER_LEASE_SECONDS: '2' };
}

/** A replica in this process, with SQLite files of its own; `now`: its clock (null: the real one). */
function replica(name: string, url: string, now: (() => number) | null): Promise<Served> {
  return serve({ db: data.toiletsDb, overlayDb: join(data.dir, name, 'overlay.db'), env: replicaEnv(url), now, openStorage: true, reach: 'socket' });
}

test('two replicas on one database: only the lease holder runs the note outbox; closed, the other takes over', { skip: noPostgres }, async () => {
  const url = cluster!.database('worker_close');
  await migrated(url);
  for (const text of ['note 1', 'note 2', 'note 3']) queueNote(url, text);
  // one frozen clock: the lease never expires here, so only the holder's close hands it over
  const clock = new Clock(Date.parse(TEST_START));
  const [a, b] = await Promise.all([replica('close-a', url, clock.now), replica('close-b', url, clock.now)]);
  try {
    await Promise.all([a, b].map((r) => afterTries(r.app, () => true, 'a replica never tried the lease')));
    const workers = [a, b].filter((r) => r.app.worker.isWorker);
    assert.equal(workers.length, 1, 'exactly one replica is the worker');
    const [holder, standby] = workers[0] === a ? [a, b] : [b, a];
    await Promise.all(['note 1', 'note 2', 'note 3'].map((text) => osm.received(text)));
    assert.deepEqual([...holder.app.worker.status().jobs].sort(), ALL_JOBS, 'the holder runs the shared jobs');
    assert.deepEqual([...standby.app.worker.status().jobs].sort(), OWN_JOBS, 'the standby runs none of them');
    const status = (await (await fetch(`${standby.origin}/status`)).json()) as { worker: { this_replica: boolean; lease: { holder: string; replica: string } } };
    assert.equal(status.worker.this_replica, false);
    assert.equal(status.worker.lease.holder, holder.app.worker.lease!.replica, '/status names the holder');

    queueNote(url, 'note 4');
    await holder.close();
    await afterTries(standby.app, () => standby.app.worker.isWorker, 'the standby never took the lease over');
    await osm.received('note 4');
    assert.deepEqual(standby.app.worker.status().jobs.sort(), ALL_JOBS);
    assert.deepEqual(osm.texts.filter((text) => /^note [1-4]$/.test(text)).sort(), ['note 1', 'note 2', 'note 3', 'note 4'], 'each note sent once');
    assert.deepEqual(await attempts(standby.app, url), { 'note 1': 1, 'note 2': 1, 'note 3': 1, 'note 4': 1 }, 'and attempted once');
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('the lease holder SIGKILLed: the other replica takes the lease once it expired and sends what was queued', { skip: noPostgres, timeout: 180_000 }, async () => {
  const url = cluster!.database('worker_kill');
  await migrated(url);
  const dir = join(data.dir, 'kill-a');
  const killed = await startMain(data, { env: { ...replicaEnv(url), OVERLAY_DB: join(dir, 'overlay.db'), ACCOUNTS_DB: join(dir, 'accounts.db'), DUMP_DIR: join(dir, 'dumps') } });
  let b: Served | undefined;
  try {
    const worker = /is the cluster's worker now/;
    if (!worker.test(killed.startLog())) await guarded(killed.logged(worker), 'the child never became the worker');
    // the real clock here: the child wrote its lease's expiry by its own
    b = await replica('kill-b', url, null);
    const standby = b;
    await afterTries(standby.app, () => !standby.app.worker.isWorker, 'B never read the lease');
    assert.equal(standby.app.worker.isWorker, false, 'B is a standby while the child holds the lease');

    queueNote(url, 'note 5');
    killed.child.kill('SIGKILL');
    await once(killed.child, 'close');
    await afterTries(standby.app, () => standby.app.worker.isWorker, 'B never took the expired lease');
    await osm.received('note 5');
    assert.equal(osm.texts.filter((text) => text === 'note 5').length, 1);
    assert.deepEqual(await attempts(standby.app, url), { 'note 5': 1 });
  } finally {
    if (killed.child.exitCode === null && killed.child.signalCode === null) killed.child.kill('SIGKILL');
    await b?.close();
  }
});

test('a holder that cannot renew (PostgreSQL down) gives the work up by its own clock before the lease expires, and takes it back after', { skip: noPostgres }, async () => {
  const url = cluster!.database('worker_fence');
  const database = await PostgresDatabase.open(postgresUrl(url)!, POSTGRES_SCHEMAS, () => {});
  const clock = new Clock(Date.parse(TEST_START));
  const lease = new WorkerLease({ db: database.schema('cluster'), ttlMs: 2000, now: clock.now, log: SILENT });
  const tried = () => guarded(once(lease, 'tried'), 'the lease was never tried');
  try {
    lease.start();
    await tried();
    assert.equal(lease.held, true);
    cluster!.pause();
    while (lease.status().last_error === null) await tried(); // a try under way may still have answered
    assert.equal(lease.held, true, 'a failed renewal alone does not end the holding');
    const lost = guarded(once(lease, 'lost'), 'the holder never gave the lease up');
    clock.ms += 1500; // three quarters of the TTL since the last renewal: another replica may take it a quarter later
    await lost;
    assert.equal(lease.held, false);
    cluster!.resume();
    await guarded(once(lease, 'taken'), 'the holder never took its lease back');
    assert.equal(lease.status().last_error, null);
  } finally {
    await lease.close();
    await database.close();
  }
});

test('a database the release before wrote (no cluster schema) gains the lease table at the next start', { skip: noPostgres }, async () => {
  const url = cluster!.database('worker_upgrade');
  const before = POSTGRES_SCHEMAS.filter((schema) => schema.name !== 'cluster');
  await (await PostgresDatabase.open(postgresUrl(url)!, before, () => {})).close();
  cluster!.psql("INSERT INTO overlay.osm_notes (report_id, lat, lon, text, queued_at) VALUES (1, 41.15, -8.61, 'kept', 0)", url);
  await migrated(url);
  assert.equal(cluster!.psql('SELECT count(*) FROM cluster.leases', url).trim(), '0');
  assert.equal(cluster!.psql('SELECT name FROM cluster.layout_steps', url).trim(), '0001 the worker lease');
  assert.equal(cluster!.psql('SELECT text FROM overlay.osm_notes', url).trim(), 'kept', 'the other schemas as they were');
});
