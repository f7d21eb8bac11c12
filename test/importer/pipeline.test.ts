// The import pipeline (decoder threads mapping nodes, a database thread writing, follow-up work for ways) gives
// one result whatever the number of threads, takes places in file order (so the place index and its ties do not
// depend on which thread finished first), stores the raw tags exactly as JSON.stringify writes them, breaks
// ties between settlements by id, and fails cleanly when writing fails.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importExtract, ImportError } from '../../importer/import.js';
import { readPlaceIndex } from '../../src/places/stored.js';
import { scanExtract, type OsmNode, type OsmWay, type Tags } from '../../importer/pbf/index.js';
import { rows, square, tempDir, writeExtract, type FixtureElements } from './support.js';

const LAT = 38.72;
const LON = -9.14;
const M = 1 / 111_320;

/** Tags that JSON and JavaScript objects treat specially, and values the mapping reads per country. */
const TRICKY: Tags[] = [
  { amenity: 'toilets', name: 'Quote " backslash \\ newline \n tab \t bell \u0007' },
  { amenity: 'toilets', name: 'Café ☕ 🚻', operator: 'Câmara Municipal', fee: 'yes', charge: '0,50 €' },
  { amenity: 'toilets', '2': 'two', '10': 'ten', 'check_date': '2024-05-01' },
  JSON.parse('{"amenity":"toilets","__proto__":"not a prototype","opening_hours":"sunrise-sunset"}') as Tags,
  { amenity: 'toilets', opening_hours: 'Mo-Fr 08:00-20:00; PH off', wheelchair: 'yes', female: 'yes', male: 'yes' },
  { amenity: 'toilets', access: 'customers', 'toilets:disposal': 'flush', fee: '1' },
];

function town(): FixtureElements {
  const nodes: FixtureElements['nodes'] = [];
  // Untagged nodes spread the toilets over several blocks.
  for (let id = 1; id <= 20_000; id++) nodes.push({ id, lat: LAT + (id % 200) * 1e-4, lon: LON + Math.floor(id / 200) * 1e-4 });
  for (let i = 0; i < 600; i++) {
    const id = 20_001 + i * 11;
    nodes.push({ id, lat: LAT + (i % 30) * 1e-3, lon: LON + Math.floor(i / 30) * 1e-3, tags: TRICKY[i % TRICKY.length] });
  }
  nodes.push({ id: 30_000, lat: LAT, lon: LON + 3 * M, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'yes' } }); // 3 m from a toilet
  nodes.push({ id: 30_001, lat: LAT - 0.05, lon: LON, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'yes', name: 'Longe' } });
  // Two villages at one position: the lower id labels what lies near.
  nodes.push({ id: 30_100, lat: LAT + 0.2, lon: LON, tags: { place: 'village', name: 'Zebra' } });
  nodes.push({ id: 30_101, lat: LAT + 0.2, lon: LON, tags: { place: 'village', name: 'Alfa' } });
  nodes.push({ id: 30_102, lat: LAT + 0.2 + 100 * M, lon: LON, tags: { railway: 'station', name: 'Apeadeiro' } });
  const block = square(30_200, LAT + 0.1, LON, 8 * M);
  nodes.push(...block.nodes, { id: 30_210, lat: LAT + 0.1 - 8 * M, lon: LON, tags: { entrance: 'main' } });
  const street = [30_300, 30_301, 30_302].map((id, i) => ({ id, lat: LAT + 0.15, lon: LON + i * 1e-3 }));
  nodes.push(...street);
  return {
    nodes,
    ways: [
      { id: 1, refs: [block.refs[0], 30_210, ...block.refs.slice(1)], tags: { amenity: 'toilets', building: 'toilets', name: 'Bloco' } },
      { id: 2, refs: street.map((n) => n.id), tags: { highway: 'residential', name: 'Rua da Prata' } },
      { id: 3, refs: [1, 2, 3], tags: { highway: 'service' } },
    ],
  };
}

const dir = tempDir('pipeline');
const extract = writeExtract(join(dir, 'town.osm.pbf'), town());
const imports = new Map<number, Promise<unknown>>();
function importWith(threads: number): Promise<string> {
  const db = join(dir, `threads-${threads}.db`);
  if (!imports.has(threads)) imports.set(threads, extract.then((pbf) => importExtract(pbf, { db, threads })));
  return imports.get(threads)!.then(() => db);
}

const TABLES = ['SELECT * FROM toilets ORDER BY id', 'SELECT * FROM places ORDER BY id, name'];

test('the database is the same whatever the number of decoder threads', async () => {
  const [inline, one, two] = await Promise.all([importWith(0), importWith(1), importWith(2)]);
  for (const sql of TABLES) {
    const expected = rows(inline, sql);
    assert.ok(expected.length > 0);
    assert.deepEqual(rows(one, sql), expected, sql);
    assert.deepEqual(rows(two, sql), expected, sql);
  }
  assert.equal(rows(inline, 'SELECT count(*) AS n FROM toilets')[0].n, 600 + 1 + 1, 'the toilets, the far café and the block');
});

/** Villages of one name, far apart, one every few thousand nodes: their nodes lie in many blocks. */
function namesakes(): FixtureElements {
  const nodes: FixtureElements['nodes'] = [];
  for (let id = 1; id <= 96_000; id++) {
    const village = id % 4_000 === 0;
    const lat = village ? LAT + id / 4_000 / 4 : LAT - 1 + (id % 300) * 1e-4;
    nodes.push({ id, lat, lon: LON, tags: village ? { place: 'village', name: 'Vila Nova' } : undefined });
  }
  return { nodes };
}

test('places are taken in file order whatever the number of threads, so the place index and its ties are the same', async () => {
  const namesakeDir = tempDir('pipeline-namesakes');
  const pbf = await writeExtract(join(namesakeDir, 'namesakes.osm.pbf'), namesakes());
  const dbs = [0, 2, 2].map((threads, i) => join(namesakeDir, `${i}-threads-${threads}.db`));
  for (const [i, threads] of [0, 2, 2].entries()) await importExtract(pbf, { db: dbs[i], threads });
  const ids = rows<{ id: string }>(dbs[0], 'SELECT id FROM places').map((row) => row.id);
  assert.deepEqual(ids, Array.from({ length: 24 }, (_, i) => `n${(i + 1) * 4_000}`), 'inline: file order');
  const index = (db: string) => rows(db, 'SELECT name, hex(data) AS data FROM place_index ORDER BY name');
  for (const db of dbs.slice(1)) {
    assert.deepEqual(rows<{ id: string }>(db, 'SELECT id FROM places').map((row) => row.id), ids, 'in rowid order');
    assert.deepEqual(index(db), index(dbs[0]), 'the place index, byte for byte');
    const source = new Database(db, { readonly: true });
    try {
      // 24 equals: the first in the file wins, every time.
      assert.equal(readPlaceIndex(source).find({ text: 'Vila Nova', country: null, near: null })?.lat, LAT + 0.25);
    } finally {
      source.close();
    }
  }
});

test('raw tags are stored exactly as JSON.stringify writes the tags the extract holds', async () => {
  const db = await importWith(2);
  const read = new Map<string, Tags>();
  await scanExtract(await extract, {
    nodes: { amenity: '*' },
    ways: { amenity: '*' },
    relations: {},
    coordinatesFor: () => [],
    onNodes: (nodes: OsmNode[]) => nodes.forEach((node) => read.set(`n${node.id}`, node.tags)),
  }).then((result) => result.ways.forEach((way: OsmWay) => read.set(`w${way.id}`, way.tags)));
  const stored = rows<{ id: string; tags: string }>(db, 'SELECT id, tags FROM toilets');
  assert.equal(stored.length, 602);
  for (const { id, tags } of stored) assert.equal(tags, JSON.stringify(read.get(id)), id);
  const proto = stored.find((row) => row.tags.includes('sunrise'))!;
  assert.ok(!proto.tags.includes('__proto__'), 'a __proto__ key is no tag, as with a plain object');
  const numbered = stored.find((row) => row.tags.includes('"two"'))!;
  assert.match(numbered.tags, /^\{"2":"two","10":"ten","amenity"/, 'array-index keys first, as JSON.stringify orders them');
});

test('of settlements at one position, the one with the lower id labels the places near it', async () => {
  const db = await importWith(2);
  assert.deepEqual(rows(db, `SELECT city FROM places WHERE name = 'Apeadeiro'`), [{ city: 'Zebra' }]);
});

test('host toilets near a standalone toilet are dropped, after the fact, by id', async () => {
  const db = await importWith(2);
  assert.deepEqual(rows(db, `SELECT id FROM toilets WHERE kind = 'host_toilet'`), [{ id: 'n30001' }]);
  assert.deepEqual(rows(db, `SELECT id, lat, lon FROM toilets WHERE id = 'w1'`), [{ id: 'w1', lat: Math.round((LAT + 0.1 - 8 * M) * 1e7) / 1e7, lon: LON }]);
});

test('a failure while writing leaves the live database as it was and no temporary file', async () => {
  const failing = tempDir('pipeline-failing');
  const live = join(failing, 'toilets.db');
  writeFileSync(live, 'not a database, so carrying id moves over from it fails\n'.repeat(100));
  const before = readFileSync(live);
  await assert.rejects(importExtract(await extract, { db: live, threads: 2 }), (error: unknown) => error instanceof ImportError && error.code === 'write_failed');
  assert.deepEqual(readFileSync(live), before);
  assert.deepEqual(readdirSync(failing), ['toilets.db']);
});
