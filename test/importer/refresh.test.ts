// Nightly refresh: a re-import replaces the source database as a whole, never touches the overlay
// database, and records id moves when a mapper redraws a toilet (node -> outline), so overlay rows
// keyed by the old id follow the toilet.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importExtract } from '../../importer/import.js';
import { rows, square, tempDir, writeExtract, type FixtureElements } from './support.js';

const LAT = 47.14;
const LON = 9.52;
const M = 1 / 111_320;
const block = square(500, LAT + 10 * M, LON, 4 * M); // the redrawn outline, 10 m from the old node

const before: FixtureElements = {
  nodes: [
    { id: 1, lat: LAT, lon: LON, tags: { amenity: 'toilets' } }, // will be redrawn as way 50
    { id: 2, lat: LAT + 0.01, lon: LON, tags: { amenity: 'toilets' } }, // will vanish
    { id: 3, lat: LAT + 0.02, lon: LON, tags: { amenity: 'toilets', name: 'Old name' } }, // will be renamed
  ],
};
const after: FixtureElements = {
  nodes: [{ id: 3, lat: LAT + 0.02, lon: LON, tags: { amenity: 'toilets', name: 'New name' } }, { id: 4, lat: LAT + 0.03, lon: LON, tags: { amenity: 'toilets' } }, ...block.nodes],
  ways: [{ id: 50, refs: block.refs, tags: { amenity: 'toilets', building: 'toilets' } }],
};

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('a re-import replaces the source, keeps the overlay database intact and records redrawn toilets', async () => {
  const dir = tempDir('refresh');
  const live = join(dir, 'toilets.db');
  await importExtract(await writeExtract(join(dir, 'a.osm.pbf'), before), { db: live, threads: 0 });
  assert.deepEqual(rows<{ id: string }>(live, 'SELECT id FROM toilets ORDER BY id').map((r) => r.id), ['n1', 'n2', 'n3']);

  // Overlay rows keyed by toilet id, in their own database beside the source.
  const overlayPath = join(dir, 'overlay.db');
  const overlay = new Database(overlayPath);
  overlay.exec(`CREATE TABLE confirmations (toilet_id TEXT, day TEXT); INSERT INTO confirmations VALUES ('n1', '2026-10-01'), ('n2', '2026-10-02'), ('n3', '2026-10-03');`);
  overlay.close();
  const overlayBefore = sha(overlayPath);
  const inodeBefore = statSync(live).ino;

  const summary = await importExtract(await writeExtract(join(dir, 'b.osm.pbf'), after), { db: live, threads: 0 });
  assert.equal(sha(overlayPath), overlayBefore, 'the overlay database is untouched');
  assert.notEqual(statSync(live).ino, inodeBefore, 'the live file was replaced by a rename, not edited');
  assert.deepEqual(rows<{ id: string }>(live, 'SELECT id FROM toilets ORDER BY id').map((r) => r.id), ['n3', 'n4', 'w50'], 'a vanished toilet is gone at once');
  assert.equal(rows<{ name: string }>(live, `SELECT name FROM toilets WHERE id = 'n3'`)[0].name, 'New name');
  assert.deepEqual(rows(live, 'SELECT old_id, new_id FROM id_moves'), [{ old_id: 'n1', new_id: 'w50' }], 'n1 was redrawn as w50; n2 vanished and n4 is new');
  assert.equal(summary.idMoves, 1);

  // A third import with the same data carries the move forward; when the node comes back, the move ends.
  await importExtract(join(dir, 'b.osm.pbf'), { db: live, threads: 0 });
  assert.deepEqual(rows(live, 'SELECT old_id, new_id FROM id_moves'), [{ old_id: 'n1', new_id: 'w50' }]);
  await importExtract(join(dir, 'a.osm.pbf'), { db: live, threads: 0 });
  assert.deepEqual(rows(live, 'SELECT old_id FROM id_moves WHERE old_id = ?', 'n1'), [], 'n1 exists again, so its overlay rows are its own again');
  assert.equal(sha(overlayPath), overlayBefore);
});

test('moves follow chains: a toilet redrawn twice points at its newest id', async () => {
  const dir = tempDir('chain');
  const live = join(dir, 'toilets.db');
  const second = square(600, LAT + 12 * M, LON + 2 * M, 4 * M);
  await importExtract(await writeExtract(join(dir, 'a.osm.pbf'), before), { db: live, threads: 0 });
  await importExtract(await writeExtract(join(dir, 'b.osm.pbf'), after), { db: live, threads: 0 });
  await importExtract(await writeExtract(join(dir, 'c.osm.pbf'), { nodes: [...after.nodes.filter((n) => n.id < 500), ...second.nodes], ways: [{ id: 60, refs: second.refs, tags: { amenity: 'toilets' } }] }), { db: live, threads: 0 });
  assert.deepEqual(rows(live, 'SELECT old_id, new_id FROM id_moves ORDER BY old_id'), [{ old_id: 'n1', new_id: 'w60' }, { old_id: 'w50', new_id: 'w60' }]);
});
