// The real extracts in ../shared/data/osm, read in place. Expected numbers come from osmium 1.15:
// `osmium tags-filter FILE nwr/amenity=toilets` (objects carrying the tag) and `osmium fileinfo -e FILE`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readHeader } from '../../importer/pbf/index.js';
import { osmExtract } from '../support/paths.js';
import { scan } from './fixtures.js';

const EXTRACTS = [
  { name: 'liechtenstein', toilets: 13, nodes: 142_832, ways: 15_247, relations: 358, replicated: '2015-07-27T21:14:01Z' },
  { name: 'andorra', toilets: 25, nodes: 235_550, ways: 11_871, relations: 262, replicated: '2020-05-01T20:59:03Z' },
  { name: 'monaco', toilets: 29, nodes: 23_662, ways: 3_624, relations: 235, replicated: '2020-07-19T20:58:03Z' },
  { name: 'porto', toilets: 21, nodes: 85_149, ways: 22_606, relations: 344, replicated: '2020-07-20T10:27:03Z' },
] as const;

describe('real extracts', () => {
  for (const extract of EXTRACTS) {
    it(`${extract.name}: finds the ${extract.toilets} amenity=toilets objects osmium finds and counts every element`, async () => {
      const path = osmExtract(extract.name);
      const result = await scan(path, { amenity: ['toilets'] }, { threads: 2 });
      const taggedWays = result.ways.filter((way) => way.tags.amenity === 'toilets');
      assert.equal(result.nodes.length + taggedWays.length + result.relations.length, extract.toilets);
      assert.ok(result.nodes.every((node) => node.tags.amenity === 'toilets'));
      assert.deepEqual(result.counts, { nodes: extract.nodes, ways: extract.ways, relations: extract.relations, blobs: result.counts.blobs });
      // Every node of every toilet way is resolved.
      for (const way of result.ways) for (const ref of way.refs) assert.ok(result.coordinates.get(ref), `node ${ref} of way ${way.id}`);
    });

    it(`${extract.name}: header replication timestamp`, async () => {
      const header = await readHeader(osmExtract(extract.name));
      assert.equal(header.replicationTimestamp, Date.parse(extract.replicated) / 1000);
      assert.ok(header.requiredFeatures.includes('OsmSchema-V0.6'));
    });
  }

  it('monaco: a toilet node and a toilet way, exactly as osmium prints them', async () => {
    const result = await scan(osmExtract('monaco'), { amenity: ['toilets'] }, { threads: 0 });
    // n280487301 v5 t2019-02-04T08:34:05Z Taddr:country=MC,amenity=toilets,fee=no,wheelchair=no x7.4215651 y43.7316035
    assert.deepEqual(
      result.nodes.find((node) => node.id === 280487301),
      { id: 280487301, lat: 43.7316035, lon: 7.4215651, tags: { 'addr:country': 'MC', amenity: 'toilets', fee: 'no', wheelchair: 'no' }, timestamp: Date.parse('2019-02-04T08:34:05Z') },
    );
    // w167014906 t2019-08-09T03:42:41Z Taccess=yes,addr:country=MC,amenity=toilets,building=yes,fee=no Nn1031563364,n6445221016,n1784106805,n1784106809,n1031563364
    assert.deepEqual(result.ways.find((way) => way.id === 167014906), {
      id: 167014906,
      refs: [1031563364, 6445221016, 1784106805, 1784106809, 1031563364],
      tags: { access: 'yes', 'addr:country': 'MC', amenity: 'toilets', building: 'yes', fee: 'no' },
      timestamp: Date.parse('2019-08-09T03:42:41Z'),
    });
    // n1031563364 x7.423494 y43.7299824
    assert.deepEqual(result.coordinates.get(1031563364), { lat: 43.7299824, lon: 7.423494 });
  });
});
