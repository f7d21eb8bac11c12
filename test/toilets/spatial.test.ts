// The spatial indexes are built on a thread of their own at scale (src/toilets/spatial.ts) while the other
// columns load: what that thread builds must be what the loading thread would build, community toilets
// included, and a build that fails there must fail the load.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { importExtract } from '../../importer/import.js';
import { generateExtract } from '../../bench/generate/generate.js';
import { openSourceDatabase } from '../../src/source/schema.js';
import { loadToilets } from '../../src/toilets/load.js';
import { buildSpatialIndexes, startSpatialIndexes } from '../../src/toilets/spatial.js';
import type { CommunityToilet } from '../../src/toilets/overlay.js';
import { tempDir } from '../importer/support.js';

const ON_A_THREAD = 0;
const HERE = Infinity;

function communityToilet(n: number): CommunityToilet {
  return {
    id: `c_${n}`,
    lat: -33.9 + n / 100,
    lon: 18.4 + n / 100,
    name: null,
    access: 'public',
    access_rule: 'free',
    fee_required: null,
    opening_hours: null,
    wheelchair: 'unknown',
    changing_table: 'unknown',
    time_zone: 'Africa/Johannesburg',
    country: 'ZA',
    approved_at: 1_700_000_000,
  };
}

test('indexes built on their own thread equal those built by the loading thread, community toilets included', async () => {
  const dir = tempDir('spatial');
  const pbf = join(dir, 'generated.osm.pbf');
  await generateExtract(pbf, { toilets: 2000, otherNodes: 2000, seed: 3 });
  await importExtract(pbf, { db: join(dir, 'generated.db'), threads: 0 });
  const community = [1, 2, 3].map(communityToilet);
  const db = openSourceDatabase(join(dir, 'generated.db'));
  try {
    const here = loadToilets(db, community, HERE);
    const threaded = loadToilets(db, community, ON_A_THREAD);
    assert.ok(threaded.source.count > 2000);
    assert.deepEqual(threaded.indexes, here.indexes);
    // the community toilets are in the index, at their positions
    const { data, xyz } = threaded.indexes.nearest;
    assert.ok(data instanceof SharedArrayBuffer && xyz.buffer instanceof SharedArrayBuffer, 'shared with the server threads, not copied');
    const last = threaded.source.count - 1;
    assert.deepEqual([threaded.source.lat[last], threaded.source.lon[last]], [community[2].lat, community[2].lon]);
  } finally {
    db.close();
  }
  const onlyCommunity = loadToilets(null, community, ON_A_THREAD);
  assert.deepEqual(onlyCommunity.indexes, loadToilets(null, community, HERE).indexes);
  assert.deepEqual([...onlyCommunity.source.lat], community.map((c) => c.lat));
});

test('a build that fails on its thread fails the load that waits for it, with the reason', () => {
  const lat = new Float64Array(new SharedArrayBuffer(16));
  const lon = new Float64Array(new SharedArrayBuffer(16));
  // a fractional count: KDBush adds two points where it expected 1.5, and refuses to finish
  const wait = startSpatialIndexes({ count: 1.5, lat, lon }, ON_A_THREAD);
  assert.throws(wait, /^Error: building the spatial indexes failed: Error: Added 2 items when expected 1\.5/);
});

test('when no thread can be started the indexes are built on the loading thread', () => {
  // positions that cannot be sent to a thread: their memory was handed away (detached)
  const gone = new ArrayBuffer(0);
  const positions = { count: 0, lat: new Float64Array(gone), lon: new Float64Array(gone) };
  structuredClone(gone, { transfer: [gone] });
  assert.deepEqual(startSpatialIndexes(positions, ON_A_THREAD)(), buildSpatialIndexes(positions));
});
