// The basemap end to end: `npm run import -- --tiles` builds Monaco's tiles with the real tilemaker, and
// the real server answers /tiles/tiles.json and /tiles/{z}/{x}/{y}.pbf from them over real HTTP: the
// extract's bounds, gzip as stored or unpacked, 204 outside, 400 for a malformed address, 304 by ETag,
// a budget of its own, 404 without a tiles file, and a new file served without a restart.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, renameSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { PbfReader } from 'pbf';
import { readHeader } from '../../importer/pbf/index.js';
import { BASE_URL, serve, tempDir, type Served } from '../api/support.js';
import { osmExtract } from '../support/paths.js';
import { IMPORT_CLI, noTilemaker, temporariesIn } from '../support/tilemaker.js';

/** The z14 tile over Monaco's harbour (x 8530, y 5974 in XYZ; stored as TMS row 10409). */
const INSIDE = '/tiles/14/8530/5974.pbf';
/** Far from Monaco: the file has no tile there. */
const OUTSIDE = '/tiles/14/0/0.pbf';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request with node:http, which (unlike fetch) leaves the body as sent and sends only the headers given. */
function raw(origin: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(origin + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The layer names of a Mapbox Vector Tile (vector_tile.proto: Tile.layers = 3, Layer.name = 1). */
function layerNames(tile: Buffer): string[] {
  const readLayerName = (field: number, layer: { name: string }, pbf: PbfReader) => {
    if (field === 1) layer.name = pbf.readString();
  };
  return new PbfReader(tile).readFields((tag, names: string[], pbf) => {
    if (tag === 3) names.push(pbf.readMessage(readLayerName, { name: '' }).name);
  }, []);
}

/** Resolves once `check()` holds: no deadline a loaded machine could miss; one that never does fails the test at its timeout. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

// Monaco imported once, with its tiles (a few seconds of tilemaker), for both suites
const dir = tempDir();
const db = join(dir.path, 'toilets.db');
const tilesFile = join(dir.path, 'tiles.mbtiles');
let imported: ReturnType<typeof spawnSync> | null = null;
function importMonaco(): ReturnType<typeof spawnSync> {
  imported ??= spawnSync(process.execPath, [IMPORT_CLI, osmExtract('monaco'), '--db', db, '--tiles'], { encoding: 'utf8' });
  return imported;
}
after(() => dir.remove());

describe('basemap tiles built from Monaco and served', { skip: noTilemaker }, () => {
  let served: Served;

  before(async () => {
    importMonaco();
    // the API's budget at its default, the tiles' small enough to reach
    served = await serve({ db, env: { RATE_LIMIT_PER_MINUTE: '60', TILES_RATE_LIMIT_PER_MINUTE: '100' }, reach: 'socket' }); // the tiles' bytes as sent
  });
  after(async () => {
    await served?.close();
  });

  test('the import builds the tiles beside the database and says so in its summary', () => {
    const imported = importMonaco();
    assert.equal(imported.status, 0, String(imported.stderr));
    assert.match(String(imported.stdout), /^imported into /);
    assert.match(String(imported.stdout), new RegExp(`\\ntiles: \\d+ \\(zoom 0–14\\) into ${tilesFile} in \\d+\\.\\d s, \\d+\\.\\d MB\\n`));
    assert.match(String(imported.stdout), /no sea: .*coastline\/water_polygons\.shp is missing/, 'the missing sea is explained');
    assert.deepEqual(temporariesIn(dir.path), [], 'no temporary file or store folder left');
  });

  test('tiles.json: TileJSON 3.0.0 with the extract\'s bounds, the zooms, the layers and the ODbL credit', async () => {
    const answer = await served.call('/tiles/tiles.json');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/json');
    const tileJson = answer.json;
    assert.equal(tileJson.tilejson, '3.0.0');
    assert.deepEqual(tileJson.tiles, [`${BASE_URL}/tiles/{z}/{x}/{y}.pbf`]);
    assert.deepEqual([tileJson.minzoom, tileJson.maxzoom], [0, 14]);
    const { bbox } = await readHeader(osmExtract('monaco'));
    const expected = [bbox!.left, bbox!.bottom, bbox!.right, bbox!.top];
    tileJson.bounds.forEach((value: number, i: number) => assert.ok(Math.abs(value - expected[i]) < 1e-5, `bounds ${tileJson.bounds} vs the extract's ${expected}`));
    const [lon, lat] = tileJson.center;
    assert.ok(lon > expected[0] && lon < expected[2] && lat > expected[1] && lat < expected[3], 'the centre lies inside the bounds');
    const layers = tileJson.vector_layers.map((layer: { id: string }) => layer.id);
    for (const layer of ['transportation', 'building', 'water', 'place']) assert.ok(layers.includes(layer), `vector_layers lists ${layer}: ${layers}`);
    assert.match(tileJson.attribution, /OpenStreetMap contributors.*ODbL/);
    assert.match(answer.headers.get('cache-control')!, /max-age=\d+/);
    assert.equal(answer.headers.get('ratelimit-policy'), '"tiles-per-ip";q=100;w=60');
  });

  test('a tile inside Monaco comes gzipped as stored, with long caching, and decodes to its layers', async () => {
    const answer = await raw(served.origin, INSIDE, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/x-protobuf');
    assert.equal(answer.headers['content-encoding'], 'gzip');
    assert.equal(answer.headers.vary, 'Accept-Encoding');
    assert.match(String(answer.headers['cache-control']), /^public, max-age=86400/);
    assert.deepEqual([...answer.body.subarray(0, 2)], [0x1f, 0x8b], 'gzip magic bytes');
    const tile = gunzipSync(answer.body);
    assert.ok(tile.length > 0);
    const layers = layerNames(tile);
    assert.ok(layers.includes('transportation') && layers.includes('building'), `layers of the z14 tile: ${layers}`);
  });

  test('a client that takes no gzip gets the same tile unpacked, under another ETag', async () => {
    const gzipped = await raw(served.origin, INSIDE, { 'accept-encoding': 'gzip' });
    const variants: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br, gzip;q=0' }];
    for (const headers of variants) {
      const plain = await raw(served.origin, INSIDE, headers);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['content-encoding'], undefined, JSON.stringify(headers));
      assert.deepEqual(plain.body, gunzipSync(gzipped.body));
      assert.notEqual(plain.headers.etag, gzipped.headers.etag);
    }
  });

  test('If-None-Match with the tile\'s ETag answers 304 without a body; another tag gets the tile', async () => {
    const first = await raw(served.origin, INSIDE, { 'accept-encoding': 'gzip' });
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await raw(served.origin, INSIDE, { 'accept-encoding': 'gzip', 'if-none-match': `"other", ${etag}` });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, etag);
    assert.equal((await raw(served.origin, INSIDE, { 'accept-encoding': 'gzip', 'if-none-match': '"other"' })).status, 200);
    const tileJson = await raw(served.origin, '/tiles/tiles.json');
    assert.equal((await raw(served.origin, '/tiles/tiles.json', { 'if-none-match': String(tileJson.headers.etag) })).status, 304);
  });

  test('a tile the file does not have (outside the extract, or past maxzoom) answers 204 with no body', async () => {
    for (const path of [OUTSIDE, '/tiles/15/17060/11948.pbf']) {
      const answer = await raw(served.origin, path, { 'accept-encoding': 'gzip' });
      assert.equal(answer.status, 204, path);
      assert.equal(answer.body.length, 0);
    }
  });

  test('a malformed tile address is a 400 problem naming each wrong part', async () => {
    const cases: [string, string[]][] = [
      ['/tiles/14/8530/5974.png', ['y']],
      ['/tiles/x/8530/5974.pbf', ['z']],
      ['/tiles/31/0/0.pbf', ['z']],
      ['/tiles/2/4/-1.pbf', ['x', 'y']],
      ['/tiles/14/8530/16384.pbf', ['y']],
      ['/tiles/1.5/0/0.pbf', ['z']],
    ];
    for (const [path, names] of cases) {
      const answer = await served.call(path);
      assert.equal(answer.status, 400, path);
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
      assert.deepEqual(answer.json.invalid_params.map((p: { name: string }) => p.name), names, path);
      assert.match(answer.json.detail, /\/tiles\/\{z\}\/\{x\}\/\{y\}\.pbf/);
    }
  });

  test('tiles count against their own budget, not the API\'s 60 a minute', async () => {
    // a few map views' worth of tiles, past the API's budget
    for (let i = 0; i < 70; i++) {
      const answer = await raw(served.origin, `/tiles/14/${8528 + (i % 5)}/${5972 + (i % 4)}.pbf`, { 'accept-encoding': 'gzip' });
      if (answer.status === 429) assert.fail(`tile request ${i} refused: ${answer.body}`);
    }
    const api = await served.call('/api/v1/toilets/nearest?lat=43.73&lon=7.42&limit=1');
    assert.equal(api.status, 200);
    assert.equal(api.headers.get('ratelimit-remaining'), '59', 'the tiles took nothing of the API budget');
    let refused: RawAnswer | null = null;
    for (let i = 0; i < 100 && refused === null; i++) {
      const answer = await raw(served.origin, OUTSIDE);
      if (answer.status === 429) refused = answer;
    }
    assert.ok(refused, 'past 100 tile requests a minute: 429');
    assert.equal(refused.headers['content-type'], 'application/problem+json');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
  });
});

describe('tiles that change while the server runs', { skip: noTilemaker }, () => {
  const built = tilesFile;
  // a folder of its own, empty at the start
  const liveFile = join(dir.path, 'live', 'tiles.mbtiles');
  let served: Served;

  before(async () => {
    assert.equal(importMonaco().status, 0);
    served = await serve({ db, env: { TILES_DB: liveFile }, reach: 'socket' });
  });
  after(async () => {
    await served?.close();
  });

  test('without a tiles file: tiles.json and tiles are 404 problems saying how to build them; a bad address is still 400', async () => {
    for (const path of ['/tiles/tiles.json', INSIDE]) {
      const answer = await served.call(path);
      assert.equal(answer.status, 404, path);
      assert.match(answer.json.detail, /npm run import -- --tiles/);
    }
    assert.equal((await served.call('/tiles/14/8530/x.pbf')).status, 400);
  });

  test('a tiles file renamed into place is served without a restart, and so is its replacement', { timeout: 120_000 }, async () => {
    copyFileSync(built, `${liveFile}.new`);
    renameSync(`${liveFile}.new`, liveFile);
    await until(async () => (await served.call('/tiles/tiles.json')).status === 200); // the first tiles file
    assert.equal((await raw(served.origin, INSIDE)).status, 200);

    // the next night's file: other bounds, and no tile over the harbour
    copyFileSync(built, `${liveFile}.new`);
    const next = new Database(`${liveFile}.new`);
    next.prepare("UPDATE metadata SET value = '7.40,43.70,7.50,43.80' WHERE name = 'bounds'").run();
    next.prepare('DELETE FROM tiles WHERE zoom_level = 14 AND tile_column = 8530 AND tile_row = 10409').run();
    next.close();
    renameSync(`${liveFile}.new`, liveFile);
    await until(async () => (await served.call('/tiles/tiles.json')).json.bounds[0] === 7.4); // the replaced tiles file
    assert.equal((await raw(served.origin, INSIDE)).status, 204);
  });
});
