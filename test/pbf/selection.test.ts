import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ExtractError, PbfExtractWriter, scanExtract, type OsmNode, type ScanProgress, type Tags } from '../../importer/pbf/index.js';
import { reframe, scan, temporaryDirectory, writeSampleExtract } from './fixtures.js';

const temp = temporaryDirectory();
after(temp.remove);
const sample = join(temp.dir, 'sample.osm.pbf');
const city = join(temp.dir, 'city.osm.pbf');
const TOILETS = { amenity: ['toilets'] } as const;

/**
 * Several blocks of each kind: every 7th node is a toilet, every 5th a bench; every 10th way a toilet
 * building over four consecutive nodes; every 3rd relation a toilet with way, node and relation members.
 */
async function writeCity(path: string): Promise<void> {
  const writer = new PbfExtractWriter(path);
  for (let id = 1; id <= 30_000; id++) {
    const tags: Tags | undefined = id % 7 === 0 ? { amenity: 'toilets', fee: id % 2 ? 'yes' : 'no' } : id % 5 === 0 ? { amenity: 'bench' } : undefined;
    writer.addNode({ id, lat: 41 + id * 1e-6, lon: -8.6 - id * 1e-6, tags, timestamp: 1_600_000_000_000 + id * 1000 });
  }
  for (let id = 1; id <= 20_000; id++) writer.addWay({ id, refs: [id, id + 1, id + 2, id], tags: id % 10 === 0 ? { amenity: 'toilets' } : { building: 'yes' } });
  for (let id = 1; id <= 9_000; id++) {
    writer.addRelation({
      id,
      members: [
        { type: 'way', ref: id * 2 + 1, role: 'outer' },
        { type: 'node', ref: id, role: 'label' },
        { type: 'relation', ref: id + 1, role: 'subarea' },
      ],
      tags: id % 3 === 0 ? { amenity: 'toilets', type: 'multipolygon' } : { type: 'multipolygon' },
    });
  }
  await writer.close();
}

before(async () => {
  await writeSampleExtract(sample);
  await writeCity(city);
});

describe('scanExtract selection', () => {
  it('selects by listed values and delivers member ways of selected relations whatever their tags', async () => {
    const result = await scan(sample, TOILETS);
    assert.deepEqual(result.nodes.map((node) => node.id), [1, 2 ** 50]);
    assert.deepEqual(result.ways.map((way) => way.id), [10, 11]); // 11: untagged member of relation 100
    assert.deepEqual(result.relations.map((relation) => relation.id), [100]);
    assert.deepEqual(result.counts, { nodes: 5, ways: 4, relations: 2, blobs: 4 });
  });

  it("selects any value with '*', and by any one of several keys", async () => {
    const result = await scan(sample, { amenity: ['bench', 'parking'], highway: '*' });
    assert.deepEqual(result.nodes.map((node) => node.id), [3]);
    assert.deepEqual(result.ways.map((way) => way.id), [12, 2 ** 45]);
    assert.deepEqual(result.relations, []);
  });

  it('uses a separate selector per kind, and an empty selector selects nothing', async () => {
    const result = await scan(sample, {}, { relations: { type: ['site'] }, ways: {}, nodes: { fee: '*' } });
    assert.deepEqual(result.nodes.map((node) => node.id), [1]);
    assert.deepEqual(result.ways.map((way) => way.id), [12]); // only as a member of relation 101
    assert.deepEqual(result.relations.map((relation) => relation.id), [101]);
  });

  it('asks coordinatesFor once with the selected ways and relations, and keeps only the ids it returns', async () => {
    const result = await scan(sample, TOILETS, { coordinatesFor: () => [2, 3, 3, 999] });
    assert.equal(result.coordinatesAsked.length, 1);
    assert.deepEqual(result.coordinatesAsked[0].ways, result.ways);
    assert.deepEqual(result.coordinatesAsked[0].relations, result.relations);
    assert.equal(result.coordinates.size, 2);
    assert.deepEqual(result.coordinates.get(2), { lat: 43.7299824, lon: 7.423494 });
    assert.deepEqual(result.coordinates.get(3), { lat: -33.8688197, lon: -151.2092955 });
    assert.equal(result.coordinates.get(1), undefined); // selected, but its coordinates were not asked for
    assert.equal(result.coordinates.get(999), undefined); // asked for, but not in the file
  });

  it('rejects selectors that are not key → values maps', async () => {
    const plan = { nodes: { amenity: 'toilets' as unknown as '*' }, ways: {}, relations: {}, coordinatesFor: () => [], onNodes: () => {} };
    await assert.rejects(scanExtract(sample, plan), /plan\.nodes\.amenity must be '\*' or an array of strings/);
  });
});

describe('scanExtract strategies', () => {
  it('gives the same result with 0, 1 and 2 decoder threads', async () => {
    const [inline, one, two] = await Promise.all([0, 1, 2].map((threads) => scan(city, TOILETS, { threads })));
    assert.equal(inline.nodes.length, Math.floor(30_000 / 7));
    assert.equal(inline.relations.length, 3_000);
    assert.equal(inline.ways.length, 2_000 + 3_000); // toilet ways (even ids), plus outer ways of toilet relations (odd ids)
    assert.equal(inline.coordinates.size, new Set(inline.ways.flatMap((way) => way.refs)).size);
    assert.equal(inline.counts.blobs, 1 + 4 + 3 + 2);
    for (const other of [one, two]) {
      assert.deepEqual(other.nodes, inline.nodes);
      assert.deepEqual(other.ways, inline.ways);
      assert.deepEqual(other.relations, inline.relations);
      assert.deepEqual(other.counts, inline.counts);
      for (let id = 1; id <= 20_003; id += 97) assert.deepEqual(other.coordinates.get(id), inline.coordinates.get(id));
    }
  });

  it('decodes a file not declared sorted, with its blocks in any order, to the same result', async () => {
    const shuffled = join(temp.dir, 'shuffled.osm.pbf');
    // Interleave kinds: relations, nodes and ways alternate; the header no longer promises an order.
    await reframe(city, shuffled, (blocks) => [...blocks].sort((a, b) => (a.start * 7919) % 10007 - (b.start * 7919) % 10007), []);
    const reference = await scan(city, TOILETS);
    for (const threads of [0, 2]) {
      const result = await scan(shuffled, TOILETS, { threads });
      assert.deepEqual(result.nodes, reference.nodes);
      assert.deepEqual(result.ways, reference.ways);
      assert.deepEqual(result.relations, reference.relations);
      assert.deepEqual(result.counts, reference.counts);
      assert.equal(result.coordinates.size, reference.coordinates.size);
      assert.deepEqual(result.coordinates.get(12_345), reference.coordinates.get(12_345));
    }
  });

  it('reports a file that declares Sort.Type_then_ID but is not ordered that way', async () => {
    const lying = join(temp.dir, 'lying.osm.pbf');
    await reframe(city, lying, (blocks) => [...blocks].reverse(), ['Sort.Type_then_ID']);
    await assert.rejects(scan(lying, TOILETS, { threads: 0 }), (err: ExtractError) => {
      assert.equal(err.code, 'corrupt');
      assert.match(err.message, /lying\.osm\.pbf declares Sort\.Type_then_ID .*osmium sort/);
      return true;
    });
  });
});

describe('scanExtract streaming', () => {
  it('awaits each onNodes promise before handing over the next batch', async () => {
    let active = 0;
    let overlapped = false;
    let unfinished = 0;
    const seen: OsmNode[] = [];
    const result = await scanExtract(
      city,
      {
        nodes: TOILETS,
        ways: {},
        relations: {},
        coordinatesFor: () => [],
        async onNodes(batch) {
          overlapped ||= active > 0;
          active++;
          unfinished++;
          await new Promise((resolve) => setTimeout(resolve, 5));
          seen.push(...batch);
          active--;
          unfinished--;
        },
      },
      { threads: 2 },
    );
    assert.equal(overlapped, false);
    assert.equal(unfinished, 0);
    assert.equal(seen.length, Math.floor(30_000 / 7));
    assert.equal(result.counts.nodes, 30_000);
  });

  it('reports progress up to the whole file and every element', async () => {
    const progress: ScanProgress[] = [];
    await scanExtract(city, { nodes: {}, ways: {}, relations: {}, coordinatesFor: () => [], onNodes: () => {}, onProgress: (p) => progress.push(p) }, { threads: 0 });
    assert.ok(progress.length > 1);
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].bytesRead >= progress[i - 1].bytesRead);
    const last = progress[progress.length - 1];
    assert.deepEqual(last, { bytesRead: statSync(city).size, totalBytes: statSync(city).size, elements: 30_000 + 20_000 + 9_000 });
  });
});
