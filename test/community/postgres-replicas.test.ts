// Two replicas of the service on one PostgreSQL database (DATABASE_URL, a cluster of the test's own), each
// on a loopback port with its own SQLite files for what has not moved yet: the server key and the overlay
// are PostgreSQL's, so a human-check token one replica issued is accepted by the other and spent once for
// both, and a rating, a vote or a moderator's decision made through one shows in the other's answers once it
// has seen the change's number (the change log, src/community/live.ts). Without DATABASE_URL each replica
// has a key file of its own and refuses the other's tokens: that is what the shared key mends. PostgreSQL
// stopped: reads answer from memory, writes 503 with Retry-After, and both resume when it is back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { Clock, deviceId, dump, importedData, moderate, readSourceToilets, serviceClient, TEST_ENV, TEST_START, type Data } from './support.js';
import { serve, type Served } from '../support/server.js';
import { noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';
import { Moderation } from '../../src/moderation/moderation.js';
import { moderationStoreOf } from '../../src/moderation/store-choice.js';

const TOILET = 'n5225387845'; // Porto
const CONFIRM = `/api/v1/toilets/${TOILET}/confirmations`;
/** Longer than any change takes to reach the other replica: a guard against a hang, not a measure. */
const HANG_GUARD_MS = 60_000;

let cluster: TestPostgres | undefined;
let data: Data;
const clock = new Clock(Date.parse(TEST_START));

before(async () => {
  data = await importedData('porto');
  if (!noPostgres) cluster = await startPostgres();
});
after(() => {
  cluster?.stop();
  data.remove();
});

/** Replica A and B over the same source data, each with SQLite files of its own in its own folder. */
async function replicas(env: Record<string, string>): Promise<[Served, Served]> {
  const start = (name: string) => serve({ db: data.toiletsDb, overlayDb: join(data.dir, name, 'overlay.db'), env: { ...TEST_ENV, ...env }, now: clock.now, openStorage: true, reach: 'socket' });
  return Promise.all([start(`${env.DATABASE_URL ? 'pg' : 'files'}-a`), start(`${env.DATABASE_URL ? 'pg' : 'files'}-b`)]);
}

/** Confirms the toilet through `to` with a human-check token solved on `from`'s challenge. */
async function confirmWithTokenOf(from: Served, to: Served, ip: string): Promise<number> {
  const token = await serviceClient(from.origin).token(ip);
  const answer = await serviceClient(to.origin).post(CONFIRM, {}, { ip, token });
  return answer.status;
}

test('with DATABASE_URL, a human-check token issued by replica A is accepted by replica B', { skip: noPostgres }, async () => {
  const [a, b] = await replicas({ DATABASE_URL: cluster!.database('replicas') });
  try {
    assert.equal(await confirmWithTokenOf(a, b, '198.51.100.7'), 201);
    assert.equal(await confirmWithTokenOf(b, a, '198.51.100.8'), 201);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('without it, each replica keeps a key file of its own and refuses the other\'s tokens', async () => {
  const [a, b] = await replicas({});
  try {
    assert.equal(await confirmWithTokenOf(a, b, '198.51.100.9'), 403);
    assert.equal(await confirmWithTokenOf(a, a, '198.51.100.9'), 201);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

/** The number of the last change in the shared change log. */
function lastSeq(url: string): number {
  return Number(cluster!.psql('SELECT coalesce(max(seq), 0) FROM overlay.changes', url).trim());
}

/** Resolves once `replica` applied every change committed so far; fails instead of hanging. */
async function caughtUp(replica: Served, url: string): Promise<void> {
  const seq = lastSeq(url);
  let guard: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => (guard = setTimeout(() => reject(new Error(`the replica never saw change ${seq}`)), HANG_GUARD_MS)));
  try {
    await Promise.race([replica.app.community.seen(seq), hung]);
  } finally {
    clearTimeout(guard);
  }
}

test('with DATABASE_URL, a rating, a vote and a moderator decision made through A show in B; a token spent on A is refused on B', { skip: noPostgres }, async () => {
  const url = cluster!.database('shared_overlay');
  const [a, b] = await replicas({ DATABASE_URL: url });
  const [toA, toB] = [serviceClient(a.origin), serviceClient(b.origin)];
  try {
    const other = readSourceToilets(data.toiletsDb).map((t) => t.id).find((id) => id !== TOILET)!;
    assert.equal((await toB.toilet(TOILET)).cleanliness, null, 'nobody rated it yet');
    assert.equal((await toA.post(`/api/v1/toilets/${TOILET}/ratings`, { rating: 4, device_id: deviceId(1) }, { ip: '198.51.100.20' })).status, 201);
    await caughtUp(b, url);
    assert.deepEqual((await toB.toilet(TOILET)).cleanliness, { average: 4, count: 1 }, 'B counts the rating made through A');

    // two voters through A and B settle a fact: the count spans both replicas
    for (const [client, n] of [[toA, 2], [toB, 3]] as const) {
      const voted = await client.post(`/api/v1/toilets/${TOILET}/votes`, { votes: [{ attribute: 'wheelchair', value: 'yes' }], device_id: deviceId(n) }, { ip: `198.51.100.${30 + n}` });
      assert.equal(voted.status, 201, JSON.stringify(voted.json));
    }
    await Promise.all([caughtUp(a, url), caughtUp(b, url)]);
    const [onA, onB] = [await toA.toilet(TOILET), await toB.toilet(TOILET)];
    assert.equal(onB.provenance.decided.wheelchair.votes_for, onA.provenance.decided.wheelchair.votes_for);
    assert.equal(onB.wheelchair, 'yes', 'two votes, one through each replica, decide the fact on B');
    assert.equal(onA.wheelchair, 'yes', 'and on A');

    // a moderator's decision: the one moderation module of the site's queue, on A; then the command line
    const moderation = new Moderation(moderationStoreOf(a.app.community.store), a.app.catalog, clock.now, { baseUrl: 'https://toilets.example.test', osmNotesApi: null });
    await moderation.markGone(TOILET, 'demolished');
    await caughtUp(b, url);
    assert.equal((await toB.get(`/api/v1/toilets/${TOILET}`)).status, 404, 'B hides the toilet A\'s moderator marked gone');
    const locked = await moderate(data, ['lock', other, 'fee', 'paid', '--reason', 'sign at the door'], { DATABASE_URL: url });
    assert.equal(locked.status, 0, locked.stderr);
    await caughtUp(a, url);
    assert.equal((await toA.toilet(other)).provenance.decided.fee.by, 'moderator', 'A shows the lock the command line made in PostgreSQL');

    // a human-check token spent through A is spent for B too
    const token = await toA.token('198.51.100.40');
    assert.equal((await toA.post(`/api/v1/toilets/${other}/confirmations`, {}, { ip: '198.51.100.40', token })).status, 201);
    const replayed = await toB.post(`/api/v1/toilets/${other}/confirmations`, {}, { ip: '198.51.100.40', token });
    assert.equal(replayed.status, 403);
    assert.match(replayed.json.detail, /used before/);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('PostgreSQL stopped: reads answer from memory, writes 503 with Retry-After; both resume when it is back', { skip: noPostgres }, async () => {
  const url = cluster!.database('stopped_overlay');
  const [a, b] = await replicas({ DATABASE_URL: url });
  const toA = serviceClient(a.origin);
  const rate = (n: number) => toA.post(`/api/v1/toilets/${TOILET}/ratings`, { rating: n, device_id: deviceId(50 + n) }, { ip: `198.51.100.${60 + n}` });
  try {
    assert.equal((await rate(5)).status, 201);
    cluster!.pause();
    try {
      const read = await toA.get(`/api/v1/toilets/${TOILET}`);
      assert.equal(read.status, 200, 'reads go on from memory');
      assert.deepEqual(read.json.toilet.cleanliness, { average: 5, count: 1 });
      const refused = await rate(3);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('content-type'), 'application/problem+json');
      assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After says when to send again');
      assert.match(refused.json.detail, /PostgreSQL/);
      assert.equal((await toA.get('/readyz')).status, 503, '/readyz says writes are refused');
    } finally {
      cluster!.resume();
    }
    assert.equal((await rate(3)).status, 201, 'the same write succeeds once PostgreSQL is back, without a restart');
    await caughtUp(b, url);
    assert.deepEqual((await serviceClient(b.origin).toilet(TOILET)).cleanliness, { average: 4, count: 2 }, 'nothing acknowledged was lost, and B has both');
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('the contribution path end to end on PostgreSQL: a submission through A, approved by the command, is a toilet on B and in the dump', { skip: noPostgres }, async () => {
  const url = cluster!.database('contribution_path');
  const [a, b] = await replicas({ DATABASE_URL: url });
  const [toA, toB] = [serviceClient(a.origin), serviceClient(b.origin)];
  try {
    const submitted = await toA.post('/api/v1/submissions', { lat: 41.14575, lon: -8.61015, name: 'Quiosque da Praça' }, { ip: '198.51.100.70' });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.json));
    const approved = await moderate(data, ['approve', submitted.json.id, '--reason', 'seen', '--json'], { DATABASE_URL: url });
    assert.equal(approved.status, 0, approved.stderr);
    const id = `c_${submitted.json.id.slice('sub_'.length)}`;
    await caughtUp(b, url);
    assert.equal((await toB.toilet(id)).name, 'Quiosque da Praça', 'B loaded the community toilet from PostgreSQL');

    const reported = await toB.post(`/api/v1/toilets/${id}/reports`, { kind: 'closed', note: 'shutters down' }, { ip: '198.51.100.71' });
    assert.equal(reported.status, 201);
    await caughtUp(a, url);
    assert.equal((await toA.toilet(id)).verification_state, 'disputed', 'A shows the report made through B');
    const confirmed = await toA.post(`/api/v1/toilets/${id}/confirmations`, {}, { ip: '198.51.100.72' });
    assert.equal(confirmed.json.confirmations, 1);

    const dumpDir = join(data.dir, 'pg-dumps');
    const written = await dump(data, { DATABASE_URL: url, DUMP_DIR: dumpDir });
    assert.equal(written.status, 0, written.stderr);
    const geojson = JSON.parse(gunzipSync(readFileSync(join(dumpDir, 'toilets.geojson.gz'))).toString('utf8'));
    assert.ok(geojson.features.some((feature: { properties: { id: string } }) => feature.properties.id === id), 'the dump reads the overlay from PostgreSQL');
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
