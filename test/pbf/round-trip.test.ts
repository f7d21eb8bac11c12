import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PbfExtractWriter, readHeader } from '../../importer/pbf/index.js';
import { scan, T0, temporaryDirectory, writeSampleExtract } from './fixtures.js';

const temp = temporaryDirectory();
after(temp.remove);

describe('PbfExtractWriter → scanExtract round trip', () => {
  const sample = join(temp.dir, 'sample.osm.pbf');

  it('writes a header that readHeader reads back', async () => {
    await writeSampleExtract(sample);
    assert.deepEqual(await readHeader(sample), {
      requiredFeatures: ['OsmSchema-V0.6', 'DenseNodes'],
      optionalFeatures: ['Sort.Type_then_ID'],
      writingProgram: 'pbf-test',
      source: 'unit test',
      replicationTimestamp: 1_700_000_000,
      replicationSequenceNumber: 4242,
      replicationBaseUrl: 'https://example.org/replication',
      bbox: { left: -9.5, right: 7.75, top: 47.5, bottom: -34.25 },
    });
  });

  it('reads back nodes, ways and relations with tags, timestamps, negative coordinates and large ids', async () => {
    await writeSampleExtract(sample);
    const result = await scan(sample, { amenity: '*' });
    assert.deepEqual(result.nodes, [
      { id: 1, lat: 43.7316035, lon: 7.4215651, tags: { amenity: 'toilets', name: 'Toilettes ☕', fee: 'no' }, timestamp: T0 },
      { id: 3, lat: -33.8688197, lon: -151.2092955, tags: { amenity: 'bench' }, timestamp: T0 + 1000 },
      { id: 2 ** 50, lat: 89.9999999, lon: 179.9999999, tags: { amenity: 'toilets', access: 'yes' }, timestamp: null },
    ]);
    assert.deepEqual(result.ways, [
      { id: 10, refs: [1, 2, 2 ** 50, 1], tags: { amenity: 'toilets', building: 'yes' }, timestamp: T0 + 2000 },
      { id: 11, refs: [4, 2], tags: {}, timestamp: null },
      { id: 2 ** 45, refs: [2], tags: { amenity: 'parking' }, timestamp: null },
    ]);
    assert.deepEqual(result.relations, [
      {
        id: 100,
        members: [
          { type: 'node', ref: 1, role: 'entrance' },
          { type: 'way', ref: 11, role: 'outer' },
          { type: 'relation', ref: 101, role: '' },
        ],
        tags: { amenity: 'toilets', type: 'multipolygon' },
        timestamp: T0 + 3000,
      },
    ]);
    assert.deepEqual(result.counts, { nodes: 5, ways: 4, relations: 2, blobs: 4 });
    assert.deepEqual(result.header.replicationTimestamp, 1_700_000_000);
  });

  it('resolves coordinates of untagged nodes exactly', async () => {
    await writeSampleExtract(sample);
    const { coordinates } = await scan(sample, { amenity: '*' });
    assert.equal(coordinates.size, 4); // 1, 2, 4 and 2^50: the refs of ways 10, 11 and 2^45
    assert.deepEqual(coordinates.get(2), { lat: 43.7299824, lon: 7.423494 });
    assert.deepEqual(coordinates.get(4), { lat: -0.0000001, lon: -179.9999999 });
    assert.deepEqual(coordinates.get(2 ** 50), { lat: 89.9999999, lon: 179.9999999 });
  });

  it('reads uncompressed blocks like compressed ones', async () => {
    const raw = join(temp.dir, 'raw.osm.pbf');
    await writeSampleExtract(sample);
    await writeSampleExtract(raw, { compress: false });
    assert.ok(readFileSync(raw).includes('multipolygon'));
    assert.ok(!readFileSync(sample).includes('multipolygon'));
    const [fromRaw, fromZlib] = await Promise.all([scan(raw, { amenity: '*' }), scan(sample, { amenity: '*' })]);
    assert.deepEqual(fromRaw.nodes, fromZlib.nodes);
    assert.deepEqual(fromRaw.ways, fromZlib.ways);
    assert.deepEqual(fromRaw.relations, fromZlib.relations);
  });

  it('splits large inputs into blocks of 8000 elements and reads every one back', async () => {
    const path = join(temp.dir, 'many.osm.pbf');
    const writer = new PbfExtractWriter(path);
    const count = 20_001;
    const latOf = (id: number) => -89.9 + id * 0.00898765432;
    const lonOf = (id: number) => 179.9 - id * 0.0179876543;
    for (let id = 1; id <= count; id++) writer.addNode({ id: id * 3, lat: latOf(id), lon: lonOf(id), tags: { n: String(id) } });
    await writer.close();
    const result = await scan(path, { n: '*' });
    assert.deepEqual(result.counts, { nodes: count, ways: 0, relations: 0, blobs: 1 + 3 });
    assert.equal(result.nodes.length, count);
    const rounded = (degrees: number) => Math.round(degrees * 1e7) / 1e7;
    result.nodes.forEach((node, i) => {
      assert.deepEqual(node, { id: (i + 1) * 3, lat: rounded(latOf(i + 1)), lon: rounded(lonOf(i + 1)), tags: { n: String(i + 1) }, timestamp: null });
    });
  });
});

describe('PbfExtractWriter order rules', () => {
  it('rejects nodes after ways, ways after relations, and ids that do not ascend', async () => {
    const writer = new PbfExtractWriter(join(temp.dir, 'order.osm.pbf'));
    writer.addNode({ id: 5, lat: 0, lon: 0 });
    assert.throws(() => writer.addNode({ id: 5, lat: 0, lon: 0 }), /ascending id/);
    assert.throws(() => writer.addNode({ id: 4, lat: 0, lon: 0 }), /ascending id/);
    writer.addWay({ id: 1, refs: [5] });
    assert.throws(() => writer.addNode({ id: 6, lat: 0, lon: 0 }), /nodes, then ways, then relations/);
    writer.addRelation({ id: 1, members: [] });
    assert.throws(() => writer.addWay({ id: 2, refs: [] }), /nodes, then ways, then relations/);
    assert.throws(() => writer.addRelation({ id: 1.5, members: [] }), /not a safe integer/);
    await writer.close();
    assert.throws(() => writer.addRelation({ id: 9, members: [] }), /after close/);
  });

  it('rejects nodes without valid coordinates', () => {
    const writer = new PbfExtractWriter(join(temp.dir, 'nan.osm.pbf'));
    assert.throws(() => writer.addNode({ id: 1, lat: Number.NaN, lon: 0 }), /valid coordinates/);
    assert.throws(() => writer.addNode({ id: 2, lat: 0, lon: 180.5 }), /valid coordinates/);
    return writer.close();
  });
});
