// Each shared extract imports, with exactly these toilet records. The amenity=toilets objects are exactly
// what `osmium tags-filter FILE nwr/amenity=toilets` finds (liechtenstein 13, andorra 25, monaco 29,
// porto 21); the differences are host toilets, decided by importer/mapping/README.md:
// - porto n5908038454 (a bar) and w210681249 (Igreja de São Francisco, a church) carry toilets=yes with
//   toilets:access=customers: included with access "customers" (the spec models customer toilets; the
//   no_purchase_needed filter drops them);
// - porto w210571326 (Museu do Vinho do Porto) carries toilets=yes without toilets:access: included with
//   access "unknown" because a museum is a walk-in host type;
// - porto has one café with toilets=yes and no toilets:access: skipped (host_without_access);
// - andorra has two huts with toilets=no: never records (no_toilets).
// Each extract's import is the one the suite imported once (test/support/extracts.ts: importExtract on this
// build's code, decoded on the main thread as `npm run import` does an extract under 4 MiB, with the summary
// it returned); one more import, with decoder threads, must write the same database.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { importExtract } from '../../importer/import.js';
import { importedCopy, importedSummary } from '../support/extracts.js';
import { osmExtract } from '../support/paths.js';
import { rows, tempDir } from './support.js';

const EXPECTED: Record<'liechtenstein' | 'andorra' | 'monaco' | 'porto', { ids: string; skipped: Record<string, number> }> = {
  liechtenstein: {
    ids: 'n1670362571 n1725811467 n1728321677 n2708588765 n3608438248 n3667491604 n441289870 n464673214 n569758651 n599701719 w299038731 w318290511 w361701740',
    skipped: {},
  },
  andorra: {
    ids: 'n1568433752 n1568433757 n2967250119 n2967465076 n2967465077 n3265088474 n3885860947 n4351640434 n5845961486 n6254645460 n6305619278 n6641832282 n6657240114 n666793596 n666793599 n666793608 n666793615 n666793621 n666793623 n7117547031 w320008245 w368751411 w385229582 w628622131 w667958323',
    skipped: { no_toilets: 2 },
  },
  monaco: {
    ids: 'n1685061947 n1702432023 n1736033544 n1736033545 n1736034924 n1872332224 n1872357150 n1876837922 n1876842935 n1964915480 n2088725211 n2088736534 n280487301 n3039828758 n3775589690 n4116888489 n4316767608 n4437904720 n5918146881 n5918146882 n6434049256 n6434050203 n6434187685 n6473583396 n6720523793 n6720523794 n7193058785 w167014906 w708906033',
    skipped: {},
  },
  porto: {
    ids: 'n2934493244 n3180543166 n3180624771 n3186855910 n3191740661 n3202919327 n3455265386 n3455265387 n3544829075 n4024980845 n4621502947 n4791588622 n4995226121 n5196646121 n5225387845 n5816198753 n5908038454 n6304127292 n7090500985 w210571326 w210681249 w217628491 w286753973 w448824892',
    skipped: { host_without_access: 1 },
  },
};

const dir = tempDir('real');

for (const [name, expected] of Object.entries(EXPECTED) as [keyof typeof EXPECTED, (typeof EXPECTED)[keyof typeof EXPECTED]][]) {
  test(`${name} imports with exactly the expected toilet records`, async () => {
    const db = join(dir, `${name}.db`);
    await importedCopy(name, db);
    const summary = await importedSummary(name);
    const ids = rows<{ id: string }>(db, 'SELECT id FROM toilets ORDER BY id').map((r) => r.id);
    assert.deepEqual(ids, expected.ids.split(' '));
    assert.deepEqual(summary.skipped, expected.skipped);
    assert.equal(summary.toilets.total, ids.length);
    const meta = Object.fromEntries(rows<{ key: string; value: string }>(db, 'SELECT key, value FROM meta').map((r) => [r.key, r.value]));
    assert.match(meta.replication_timestamp, /^20\d\d-\d\d-\d\dT/, 'data age from the PBF header');
    assert.equal(meta.source_file, osmExtract(name).split('/').pop());
    assert.ok(summary.places.settlement > 0 && summary.places.street > 0 && summary.places.station > 0, 'places of every kind');
    for (const row of rows<{ id: string; lat: number; lon: number; time_zone: string; tags: string }>(db, 'SELECT id, lat, lon, time_zone, tags FROM toilets')) {
      assert.match(row.id, /^[nwr][1-9][0-9]*$/);
      assert.ok(Math.abs(row.lat) <= 90 && Math.abs(row.lon) <= 180);
      assert.match(row.time_zone, /^Europe\//);
      assert.equal(typeof JSON.parse(row.tags), 'object', 'raw tags kept');
    }
  });
}

test('real-world tag values map as the mapping document says', async () => {
  const db = join(dir, 'porto.db');
  const bar = rows(db, `SELECT access, access_rule, wheelchair, name FROM toilets WHERE id = 'n5908038454'`)[0];
  // A Porto bar: host wheelchair=limited but toilets:wheelchair=yes — the toilet's own key wins.
  assert.deepEqual(bar, { access: 'customers', access_rule: 'customers', wheelchair: 'yes', name: 'Heritage Bistro & Bar' });
  const museum = rows(db, `SELECT access, opening_hours FROM toilets WHERE id = 'w210571326'`)[0];
  assert.deepEqual(museum, { access: 'unknown', opening_hours: 'Tu-Su 10:00-17:30; PH off' }, 'a host toilet follows the host hours');
  const places = rows<{ name: string; city: string | null; kind: string; country: string }>(join(dir, 'porto.db'), `SELECT name, city, kind, country FROM places WHERE name IN ('Porto', 'Trindade')`);
  assert.ok(places.some((p) => p.name === 'Porto' && p.kind === 'settlement' && p.city === null && p.country === 'PT'), 'a city labels itself');
  assert.ok(places.some((p) => p.name === 'Trindade' && p.kind === 'station' && p.city === 'Porto'), 'a station gets its city');
});

test('decoder threads write the same database as the main thread (Porto)', async () => {
  const db = join(dir, 'porto-threads.db');
  const summary = await importExtract(osmExtract('porto'), { db, threads: 2 });
  assert.deepEqual({ ...summary, elapsedMs: 0 }, { ...(await importedSummary('porto')), elapsedMs: 0 });
  const inline = join(dir, 'porto.db');
  await importedCopy('porto', inline);
  const tables = rows<{ name: string }>(db, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).map((t) => t.name);
  assert.deepEqual(tables, ['id_moves', 'meta', 'place_index', 'places', 'toilet_columns', 'toilets']);
  // The toilet_columns blobs are left out: their bytes follow the order the toilets arrive in (text codes,
  // ties of the spatial sort), which decoder threads change; the toilets they are made from are compared.
  const queries = [
    'SELECT * FROM toilets ORDER BY id',
    'SELECT * FROM places ORDER BY rowid',
    'SELECT * FROM place_index ORDER BY rowid',
    'SELECT * FROM id_moves ORDER BY rowid',
    `SELECT * FROM meta WHERE key != 'imported_at' ORDER BY rowid`,
  ];
  for (const sql of queries) assert.deepEqual(rows(db, sql), rows(inline, sql), sql);
});
