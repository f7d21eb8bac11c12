// Which objects become toilet records and where they are placed, on small extracts written by our own
// PBF writer: nodes, closed ways (entrance, centroid, pole of inaccessibility), multipolygons, unclosed
// ways, host features and their de-duplication, and the objects that are skipped.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { importExtract } from '../../importer/import.js';
import { QualityFlag } from '../../src/rules/facts.js';
import { distanceMeters } from '../../src/geo/sphere.js';
import { pointInRing } from '../../importer/geometry.js';
import { rows, square, tempDir, writeExtract, type FixtureElements } from './support.js';

const LAT = 41.15;
const LON = -8.61;
const M = 1 / 111_320; // a metre of latitude in degrees

const building = square(100, LAT, LON, 10 * M); // toilet block with an entrance on its outline
const plain = square(110, LAT + 0.001, LON, 5 * M); // toilet block without entrance
// An L-shaped block whose centroid falls outside it: the position must still be inside.
const L = [
  { id: 120, lat: LAT + 0.002, lon: LON }, { id: 121, lat: LAT + 0.002, lon: LON + 40 * M }, { id: 122, lat: LAT + 0.002 + 4 * M, lon: LON + 40 * M },
  { id: 123, lat: LAT + 0.002 + 4 * M, lon: LON + 4 * M }, { id: 124, lat: LAT + 0.002 + 40 * M, lon: LON + 4 * M }, { id: 125, lat: LAT + 0.002 + 40 * M, lon: LON },
];
const outerA = [{ id: 130, lat: LAT + 0.003, lon: LON }, { id: 131, lat: LAT + 0.003, lon: LON + 20 * M }, { id: 132, lat: LAT + 0.003 + 20 * M, lon: LON + 20 * M }];
const outerB = [{ id: 133, lat: LAT + 0.003 + 20 * M, lon: LON }];
const station = square(140, LAT + 0.005, LON, 60 * M); // a station area with toilets=yes and a toilet node inside

const elements: FixtureElements = {
  nodes: [
    { id: 1, lat: LAT, lon: LON + 0.001, tags: { amenity: 'toilets', fee: 'yes', charge: '0,50 €', check_date: '2025-03-14', opening_hours: 'Mo-Fr 08:00-20:00' } },
    { id: 2, lat: LAT, lon: LON + 0.002, tags: { amenity: 'toilet', opening_hours: '08:00-20:00 (summer)' } },
    { id: 3, lat: LAT, lon: LON + 0.003, tags: { amenity: 'toilets', access: 'private' } },
    { id: 4, lat: LAT, lon: LON + 0.004, tags: { amenity: 'toilets', disused: 'yes' } },
    { id: 5, lat: LAT, lon: LON + 0.005, tags: { 'disused:amenity': 'toilets' } },
    { id: 6, lat: LAT, lon: LON + 0.006, tags: { building: 'toilets' } },
    { id: 7, lat: LAT, lon: LON + 0.007, tags: { shop: 'mall', name: 'Centro', toilets: 'yes' } },
    { id: 8, lat: LAT, lon: LON + 0.008, tags: { amenity: 'cafe', name: 'Café Sem', toilets: 'yes' } },
    { id: 9, lat: LAT, lon: LON + 0.009, tags: { amenity: 'cafe', name: 'Café Perto', toilets: 'yes', 'toilets:access': 'yes' } },
    { id: 10, lat: LAT + 10 * M, lon: LON + 0.009, tags: { amenity: 'toilets' } }, // 10 m from café 9: the café's entry is a duplicate
    { id: 11, lat: LAT, lon: LON + 0.01, tags: { amenity: 'cafe', toilets: 'no' } },
    ...building.nodes,
    { id: 104, lat: LAT - 10 * M, lon: LON, tags: { entrance: 'main' } }, // on the south edge of the block
    ...plain.nodes, ...L, ...outerA, ...outerB, ...station.nodes,
    { id: 150, lat: LAT + 0.005, lon: LON + 10 * M, tags: { amenity: 'toilets', name: 'Station WC' } },
    // Places
    { id: 200, lat: LAT, lon: LON, tags: { place: 'city', name: 'Testopolis', population: '230000', wikidata: 'Q1' } },
    { id: 201, lat: LAT + 0.05, lon: LON + 0.05, tags: { place: 'village', name: 'Aldeia' } },
    { id: 202, lat: LAT + 0.004, lon: LON - 0.004, tags: { railway: 'station', name: 'Estação Central', 'name:en': 'Central Station' } },
    { id: 210, lat: LAT - 0.01, lon: LON }, { id: 211, lat: LAT - 0.01, lon: LON + 0.001 }, { id: 212, lat: LAT - 0.01, lon: LON + 0.002 },
    { id: 213, lat: LAT - 0.01, lon: LON + 0.003 }, { id: 214, lat: LAT - 0.01, lon: LON + 0.004 },
    ...square(220, LAT - 0.02, LON, 50 * M).nodes,
  ],
  ways: [
    { id: 1, refs: [building.refs[0], 104, ...building.refs.slice(1)], tags: { amenity: 'toilets', building: 'toilets' } },
    { id: 2, refs: plain.refs, tags: { amenity: 'toilets' } },
    { id: 3, refs: [...L.map((n) => n.id), 120], tags: { amenity: 'toilets' } },
    { id: 4, refs: [130, 131, 132], tags: {} },
    { id: 5, refs: [132, 133, 130], tags: {} },
    { id: 6, refs: [210, 211, 212], tags: { amenity: 'toilets' } }, // unclosed: placed at its middle vertex
    { id: 7, refs: station.refs, tags: { railway: 'station', name: 'Gare', toilets: 'yes', 'toilets:access': 'yes' } },
    { id: 8, refs: [210, 211, 212], tags: { highway: 'residential', name: 'Rua Direita' } },
    { id: 9, refs: [212, 213, 214], tags: { highway: 'residential', name: 'Rua Direita' } },
    { id: 10, refs: square(220, LAT - 0.02, LON, 50 * M).refs, tags: { tourism: 'museum', name: 'Museu do Teste' } },
    { id: 11, refs: [210, 999999], tags: { amenity: 'toilets' } }, // clipped at the extract border: no geometry
    // A value that names an inherited property of a plain object is no place class.
    { id: 12, refs: [213, 214], tags: { railway: 'constructor', highway: 'residential', name: 'Rua do Construtor', historic: 'toString' } },
    { id: 13, refs: [211, 212], tags: { highway: 'residential' } }, // unnamed: no place
  ],
  relations: [
    { id: 1, members: [{ type: 'way', ref: 4, role: 'outer' }, { type: 'way', ref: 5, role: 'outer' }], tags: { type: 'multipolygon', amenity: 'toilets' } },
  ],
};

const dir = tempDir('fixtures');
const db = join(dir, 'toilets.db');
const summaryPromise = writeExtract(join(dir, 'fixture.osm.pbf'), elements).then((pbf) => importExtract(pbf, { db, threads: 0 }));

type Row = { id: string; kind: string; lat: number; lon: number; access: string; fee_required: number | null; fee_amount: number | null; fee_currency: string | null; opening_hours: string | null; checked: string | null; quality: number; country: string | null };
const toilet = (id: string): Row | undefined => rows<Row>(db, 'SELECT * FROM toilets WHERE id = ?', id)[0];

test('records: nodes, ways and relations with amenity=toilets, and walk-in hosts', async () => {
  const summary = await summaryPromise;
  const ids = rows<{ id: string }>(db, 'SELECT id FROM toilets ORDER BY id').map((r) => r.id);
  assert.deepEqual(ids, ['n1', 'n10', 'n150', 'n2', 'n7', 'r1', 'w1', 'w2', 'w3', 'w6']);
  assert.deepEqual(summary.toilets, { nodes: 4, ways: 4, relations: 1, hosts: 1, total: 10 });
  assert.equal(toilet('n7')?.kind, 'host_toilet');
  assert.equal(toilet('n7')?.access, 'unknown', 'a mall without toilets:access is a walk-in host');
});

test('skips: private, lifecycle, toilets=no, hosts without access, duplicated hosts, missing geometry', async () => {
  const summary = await summaryPromise;
  assert.deepEqual(summary.skipped, { private: 1, lifecycle: 1, no_toilets: 1, host_without_access: 1, host_near_toilet: 2, no_geometry: 1 });
  for (const id of ['n3', 'n4', 'n5', 'n6', 'n8', 'n9', 'n11', 'w7', 'w11']) assert.equal(toilet(id), undefined, `${id} is not a record`);
});

test('positions: entrance on the outline, a point inside odd shapes, middle vertex of a line', async () => {
  await summaryPromise;
  const w1 = toilet('w1')!;
  assert.ok(distanceMeters(w1.lat, w1.lon, LAT - 10 * M, LON) < 0.01, 'the tagged entrance');
  const w2 = toilet('w2')!;
  assert.ok(distanceMeters(w2.lat, w2.lon, LAT + 0.001, LON) < 0.5, 'the centroid of a square');
  const w3 = toilet('w3')!;
  assert.ok(pointInRing(w3.lon, w3.lat, L.map((n) => [n.lon, n.lat])), 'inside the L, where the centroid is not');
  const r1 = toilet('r1')!;
  assert.ok(pointInRing(r1.lon, r1.lat, [...outerA, ...outerB].map((n) => [n.lon, n.lat])), 'inside the multipolygon assembled from two ways');
  const w6 = toilet('w6')!;
  assert.deepEqual([w6.lat, w6.lon], [LAT - 0.01, LON + 0.001]);
});

test('facts: fee with a decimal comma, check month, valid and unparseable hours', async () => {
  await summaryPromise;
  const n1 = toilet('n1')!;
  assert.deepEqual([n1.fee_required, n1.fee_amount, n1.fee_currency, n1.checked, n1.opening_hours, n1.country], [1, 0.5, 'EUR', '2025-03', 'Mo-Fr 08:00-20:00', 'PT']);
  const n2 = toilet('n2')!;
  assert.equal(n2.opening_hours, null, 'invalid syntax is never served');
  assert.ok(n2.quality & QualityFlag.HoursUnparseable);
});

test('places: settlements, stations, streets merged per name and town, landmarks, with city and country', async () => {
  await summaryPromise;
  const places = rows<{ name: string; kind: string; city: string | null; country: string; alt_names: string | null; lat: number; lon: number; importance: number }>(db, 'SELECT * FROM places ORDER BY name');
  const byName = new Map(places.map((p) => [p.name, p]));
  assert.equal(byName.get('Testopolis')?.kind, 'settlement');
  assert.equal(byName.get('Testopolis')?.city, null);
  assert.equal(byName.get('Aldeia')?.city, null, 'a village is its own town');
  assert.equal(byName.get('Estação Central')?.city, 'Testopolis');
  assert.equal(byName.get('Estação Central')?.alt_names, 'Central Station');
  assert.equal(places.filter((p) => p.name === 'Rua Direita').length, 1, 'two ways of one street are one place');
  assert.equal(byName.get('Rua Direita')?.city, 'Testopolis');
  assert.equal(byName.get('Rua do Construtor')?.kind, 'street', 'railway=constructor is no station, and no failure');
  assert.equal(byName.get('Museu do Teste')?.kind, 'landmark');
  assert.equal(byName.get('Gare')?.kind, 'station', 'a station area is a place too');
  assert.ok(places.every((p) => p.country === 'PT'));
  assert.ok(byName.get('Testopolis')!.importance > byName.get('Aldeia')!.importance);
});
