// A 201 means the contribution is committed and on disk: the overlay database runs WAL with
// synchronous=FULL, and a server killed with SIGKILL in the middle of a burst loses no acknowledged write
// and leaves an intact database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Clock, deviceId, importedData, readSourceToilets, SITE_ORIGIN, serviceClient, startMain, startService, type Data } from './support.js';

const BURST = 300;
const KILL_AFTER_ACKNOWLEDGED = 30;

describe('durability', () => {
  let data: Data;
  before(async () => {
    data = await importedData('porto');
  });
  after(() => data.remove());

  test('the overlay database commits with WAL and synchronous=FULL', async () => {
    const s = await startService(data, new Clock(Date.parse('2026-06-15T10:00:00Z')));
    try {
      const db = s.app.community.store.readable;
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('synchronous', { simple: true }), 2, 'FULL');
    } finally {
      await s.close();
    }
  });

  test('SIGKILL mid-burst: every write answered 201 is there after a restart, and the database is intact', async () => {
    const ids = readSourceToilets(data.toiletsDb).map((t) => t.id);
    let { child, url } = await startMain(data);
    const requests = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const ip = `10.7.${i >> 8}.${i & 255}`;
        return { ip, toilet: ids[i % ids.length], body: JSON.stringify({ rating: 1 + (i % 5), device_id: deviceId(1000 + i), challenge_token: await serviceClient(url).token(ip) }) };
      }),
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const acknowledged: string[] = [];
    let failed = 0;
    await Promise.all(
      requests.map(async ({ ip, toilet, body }) => {
        try {
          const response = await fetch(`${url}/api/v1/toilets/${toilet}/ratings`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Origin: SITE_ORIGIN, 'X-Forwarded-For': ip },
            body,
          });
          await response.text();
          assert.equal(response.status, 201);
          acknowledged.push(toilet);
          if (acknowledged.length === KILL_AFTER_ACKNOWLEDGED) child.kill('SIGKILL');
        } catch (error) {
          if ((error as Error).name === 'AssertionError') throw error;
          failed++; // the connection died with the server
        }
      }),
    );
    await exited;
    assert.ok(acknowledged.length >= KILL_AFTER_ACKNOWLEDGED && failed > 0, `the kill struck mid-burst (${acknowledged.length} acknowledged, ${failed} cut off)`);

    const overlay = new Database(data.overlayDb);
    assert.equal(overlay.pragma('integrity_check', { simple: true }), 'ok');
    const stored = overlay.prepare('SELECT count(*) FROM ratings').pluck().get() as number;
    overlay.close();
    assert.ok(stored >= acknowledged.length && stored <= BURST, `${stored} ratings stored, ${acknowledged.length} acknowledged`);

    ({ child, url } = await startMain(data));
    try {
      const sent = new Map<string, number>();
      requests.forEach(({ toilet }) => sent.set(toilet, (sent.get(toilet) ?? 0) + 1));
      for (const id of new Set(ids)) {
        const answer = (await (await fetch(`${url}/api/v1/toilets/${id}`)).json()) as { toilet: { cleanliness: { count: number } | null } };
        const count = answer.toilet.cleanliness?.count ?? 0;
        const acked = acknowledged.filter((t) => t === id).length;
        assert.ok(count >= acked && count <= (sent.get(id) ?? 0), `${id}: ${count} ratings served, ${acked} acknowledged`);
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
