// A replica SIGKILLed mid-burst of writes (issue 47, Faults): replica A (`main.js`, a process of its own)
// and B (in this process, on a loopback port) on one PostgreSQL database of the test's own cluster. A burst
// of ratings goes to A, which is SIGKILLed once some are acknowledged; meanwhile B is read one request after
// another. Every rating A answered 201 is in the database and counted in B's answers once B has seen the
// last change's number, and none of B's reads failed. Every wait is for an event; the timeouts are hang
// guards only.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { deviceId, readSourceToilets } from '../community/support.js';
import { importedData, serve, serviceClient, SITE_ORIGIN, startMain, TEST_ENV, type Data, type Served } from '../support/server.js';
import { noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';
import { guarded } from '../support/guarded.js';

const BURST = 200;
const KILL_AFTER_ACKNOWLEDGED = 20;
const HANG_GUARD_MS = 60_000;

let cluster: TestPostgres | undefined;
let data: Data;

before(async () => {
  data = await importedData('porto');
  if (!noPostgres) cluster = await startPostgres();
});
after(() => {
  cluster?.stop();
  data?.remove();
});

/** Overlay files of a replica's own (DATABASE_URL leaves them unused for the overlay). */
function ownFolder(name: string): string {
  mkdirSync(join(data.dir, name), { recursive: true });
  return join(data.dir, name, 'overlay.db');
}

/** Reads B one request after another until `until.stop`; counts the reads and those not answered 200. */
async function readB(b: Served, toilets: string[], until: { stop: boolean }, tally: { reads: number; failed: string[] }): Promise<void> {
  while (!until.stop) {
    const toilet = toilets[tally.reads++ % toilets.length];
    try {
      const answer = await fetch(`${b.origin}/api/v1/toilets/${toilet}`, { signal: AbortSignal.timeout(HANG_GUARD_MS) });
      await answer.text();
      if (answer.status !== 200) tally.failed.push(`${toilet}: ${answer.status}`);
    } catch (error) {
      tally.failed.push(`${toilet}: ${(error as Error).message}`);
    }
  }
}

/** Ratings per toilet in the shared database. */
function storedRatings(url: string): Map<string, number> {
  const rows = cluster!.psql('SELECT toilet_id, count(*) FROM overlay.ratings GROUP BY toilet_id', url).trim();
  return new Map(rows === '' ? [] : rows.split('\n').map((row) => [row.split('|')[0], Number(row.split('|')[1])] as [string, number]));
}

test('a replica SIGKILLed mid-burst: every write it acknowledged is in PostgreSQL and in the other\'s answers, which never failed', { skip: noPostgres }, async () => {
  const url = cluster!.database('killed_replica');
  const toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
  const a = await startMain({ ...data, overlayDb: ownFolder('a') }, { env: { DATABASE_URL: url } });
  const b = await serve({ db: data.toiletsDb, overlayDb: ownFolder('b'), env: { ...TEST_ENV, DATABASE_URL: url }, now: null, openStorage: true, reach: 'socket' });
  const until = { stop: false };
  const tally = { reads: 0, failed: [] as string[] };
  try {
    const requests = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const ip = `10.9.${i >> 8}.${i & 255}`;
        return { ip, toilet: toilets[i % toilets.length], body: JSON.stringify({ rating: 1 + (i % 5), device_id: deviceId(2000 + i), challenge_token: await serviceClient(a.url).token(ip) }) };
      }),
    );
    const exited = new Promise((resolve) => a.child.once('exit', resolve));
    const reading = readB(b, toilets, until, tally);
    const acknowledged: string[] = [];
    let cutOff = 0;
    await Promise.all(
      requests.map(async ({ ip, toilet, body }) => {
        try {
          const response = await fetch(`${a.url}/api/v1/toilets/${toilet}/ratings`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Origin: SITE_ORIGIN, 'X-Forwarded-For': ip },
            body,
            signal: AbortSignal.timeout(HANG_GUARD_MS),
          });
          const text = await response.text();
          assert.equal(response.status, 201, text);
          acknowledged.push(toilet);
          if (acknowledged.length === KILL_AFTER_ACKNOWLEDGED) a.child.kill('SIGKILL');
        } catch (error) {
          if ((error as Error).name === 'AssertionError') throw error;
          cutOff++; // the connection died with A
        }
      }),
    );
    await guarded(exited, 'A never exited after SIGKILL');
    assert.ok(acknowledged.length >= KILL_AFTER_ACKNOWLEDGED && cutOff > 0, `the kill struck mid-burst (${acknowledged.length} acknowledged, ${cutOff} cut off)`);

    const stored = storedRatings(url);
    for (const toilet of new Set(acknowledged)) {
      const acked = acknowledged.filter((t) => t === toilet).length;
      assert.ok((stored.get(toilet) ?? 0) >= acked, `${toilet}: ${stored.get(toilet) ?? 0} ratings stored, ${acked} acknowledged`);
    }
    const lastSeq = Number(cluster!.psql('SELECT coalesce(max(seq), 0) FROM overlay.changes', url).trim());
    await guarded(b.app.community.seen(lastSeq), `B never saw change ${lastSeq}`);
    for (const toilet of new Set(requests.map((r) => r.toilet))) {
      const answer = await b.call(`/api/v1/toilets/${toilet}`);
      assert.equal(answer.json.toilet.cleanliness?.count ?? 0, stored.get(toilet) ?? 0, `B counts what the database holds for ${toilet}`);
    }
    until.stop = true;
    await reading;
    assert.ok(tally.reads > 1, 'B was read during the burst');
    assert.deepEqual(tally.failed, [], 'none of B\'s reads failed');
  } finally {
    until.stop = true;
    if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill('SIGKILL');
    await b.close();
  }
});
