// The site's overview (src/overview) on the real Monaco import and server: every toilet counted once at
// every level and none at its exact position, its own rate limit and ETag, the places document, the
// titles of unnamed toilets (the API's name stays null), the toilet page's title, and a toilet marked
// gone leaving the counts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildLevels, MAX_ZOOM, type EncodedLevel } from '../../src/overview/clusters.js';
import { buildOnThread, Overview } from '../../src/overview/overview.js';
import { Clock, importedData, moderate, readSourceToilets, startService, type Data, type Service } from '../community/support.js';

/** A level's tiles by `x/y`, read back from their JSON. */
function tilesOf(level: EncodedLevel, zoom: number): Map<string, [number, number, number][]> {
  const side = 2 ** zoom;
  return new Map([...level.tiles].map((key, t) => [`${key % side}/${Math.floor(key / side)}`, JSON.parse(level.body.subarray(level.offsets[t], level.offsets[t + 1]).toString()).cells]));
}

describe('overview levels', () => {
  test('count each toilet once per level, leave out toilets marked gone, and never give an exact position', () => {
    const lat = Float64Array.from([43.7311234, 43.7311345, 43.7400456, -33.9012345]);
    const lon = Float64Array.from([7.4197321, 7.4197432, 7.4300543, 18.4012345]);
    const levels = buildLevels({ count: 4, lat, lon, hidden: Int32Array.from([3]) }).map(tilesOf);
    assert.equal(levels.length, MAX_ZOOM + 1);
    const cellsOf = (level: (typeof levels)[number]) => [...level.values()].flat();
    for (const level of levels) assert.equal(cellsOf(level).reduce((n, cell) => n + cell[2], 0), 3);
    assert.deepEqual([...levels[0].keys()], ['0/0']);
    assert.deepEqual(cellsOf(levels[0]).map((cell) => cell[2]), [3]);
    const deepest = cellsOf(levels[MAX_ZOOM]);
    assert.deepEqual(deepest.map((cell) => cell[2]).sort((a, b) => a - b), [1, 2]);
    // each cell sits in the tile of its own position
    for (const [key, cells] of levels[MAX_ZOOM]) {
      for (const [cellLon] of cells) assert.equal(Number(key.split('/')[0]), Math.floor(((cellLon + 180) / 360) * 2 ** MAX_ZOOM));
    }
    for (const [cellLon, cellLat] of deepest) {
      assert.ok(![...lat].includes(cellLat) && ![...lon].includes(cellLon), `${cellLon},${cellLat} is snapped`);
      // snapped within an eighth of a cell (about 0.001° at level 12)
      assert.ok(Math.min(...[...lat].slice(0, 3).map((l) => Math.abs(l - cellLat))) < 0.0015);
    }
  });
});

describe('overview served from Monaco', () => {
  let data: Data;
  let s: Service;
  const clock = new Clock(Date.parse('2026-06-15T10:00:00Z'));
  before(async () => {
    data = await importedData('monaco');
    s = await startService(data, clock, { OVERVIEW_RATE_LIMIT_PER_MINUTE: '40' });
  });
  after(async () => {
    await s.close();
    data.remove();
  });

  test('every level counts the 29 toilets in its tiles, with its own rate limit and an ETag', async () => {
    const source = readSourceToilets(data.toiletsDb);
    const exact = new Set(source.map((t) => `${t.lon},${t.lat}`));
    const tileOf = (z: number, lon: number, lat: number) => {
      const sin = Math.sin((lat * Math.PI) / 180);
      const y = 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
      return [Math.floor(((lon + 180) / 360) * 2 ** z), Math.floor(y * 2 ** z)];
    };
    for (const z of [0, 6, MAX_ZOOM]) {
      // the tiles over Monaco's toilets, each asked once
      const tiles = new Set(source.map((t) => tileOf(z, t.lon, t.lat).join('/')));
      let counted = 0;
      for (const tile of tiles) {
        const answer = await s.get(`/overview/${z}/${tile}.json`);
        assert.equal(answer.status, 200);
        counted += answer.json.cells.reduce((n: number, cell: number[]) => n + cell[2], 0);
        for (const [lon, lat] of answer.json.cells) assert.ok(!exact.has(`${lon},${lat}`));
        assert.match(answer.headers.get('ratelimit-policy') ?? '', /"overview-per-ip";q=40;w=60/);
      }
      assert.equal(counted, source.length, `level ${z}`);
    }
    assert.deepEqual((await s.get('/overview/3/0/0.json')).json, { cells: [] });
    const first = await s.get('/overview/3/4/2.json');
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${s.url}/overview/3/4/2.json`, { headers: { 'If-None-Match': etag, 'X-Forwarded-For': '198.51.100.1' } });
    assert.equal(again.status, 304);
  });

  test('unknown documents and bad ids are refused with what to ask instead', async () => {
    const deep = await s.get(`/overview/${MAX_ZOOM + 1}/0/0.json`);
    assert.equal(deep.status, 400);
    assert.deepEqual(deep.json.invalid_params.map((p: { name: string }) => p.name), ['z']);
    const malformed = await s.get('/overview/a/b/0.pbf');
    assert.deepEqual(malformed.json.invalid_params.map((p: { name: string }) => p.name), ['z', 'x', 'y']);
    const outside = await s.get('/overview/2/4/1.json');
    assert.deepEqual(outside.json.invalid_params.map((p: { name: string }) => p.name), ['x']);
    const unknown = await s.get('/overview/levels.json');
    assert.equal(unknown.status, 404);
    assert.match(unknown.json.detail, /\/overview\/\{z\}\/\{x\}\/\{y\}\.json/);
    const none = await s.get('/overview/titles.json');
    assert.equal(none.status, 400);
    assert.equal(none.json.invalid_params[0].name, 'ids');
    const many = await s.get(`/overview/titles.json?ids=${Array.from({ length: 201 }, (_, i) => `n${i + 1}`).join(',')}`);
    assert.equal(many.status, 400);
    assert.match(many.json.detail, /at most 200/);
    const bad = await s.get('/overview/titles.json?ids=n1,%3Cscript%3E');
    assert.equal(bad.status, 400);
  });

  test('the places document names the coverage and its settlements', async () => {
    const answer = await s.get('/overview/places.json');
    assert.equal(answer.status, 200);
    assert.equal(answer.json.coverage.name, 'Monaco');
    assert.ok(answer.json.places.some(([, , name]: [number, number, string]) => name === 'Monte-Carlo'));
  });

  test('unnamed toilets get a title on the site from the nearest place; the API name stays null', async () => {
    const ids = ['n1876837922', 'n1876842935', 'n1964915480'];
    const answer = await s.get(`/overview/titles.json?ids=${ids.join(',')},n999`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json.titles.n1876837922, { kind: 'place', name: 'Parc Princesse Antoinette' });
    assert.equal(Object.keys(answer.json.titles).length, 3);
    assert.equal((await s.toilet('n1876837922')).name, null);
    const page = await fetch(`${s.url}/t/n1876837922?lang=en`).then((r) => r.text());
    assert.match(page, /<h1>Public toilet in Parc Princesse Antoinette<\/h1>/);
    assert.match(page, /<title>Public toilet in Parc Princesse Antoinette – /);
    const french = await fetch(`${s.url}/t/n1876837922?lang=fr`).then((r) => r.text());
    assert.match(french, /<h1>Toilettes publiques près de Parc Princesse Antoinette<\/h1>/);
  });

  test('built on a thread of their own (as from 100,000 toilets) the levels are the same bytes; a tile asked meanwhile waits for them', async () => {
    const { table } = s.app.catalog.snapshot;
    const input = { count: table.count, lat: table.lat, lon: table.lon, hidden: new Int32Array(0) };
    const bytes = (levels: EncodedLevel[]) => levels.map(({ tiles, offsets, body }) => [[...tiles], [...offsets], body.toString()]);
    const here = buildLevels(input);
    assert.deepEqual(bytes(await buildOnThread(input)), bytes(here));
    const overview = new Overview(s.app.catalog, data.toiletsDb, 0);
    const pending = overview.tile(0, 0, 0);
    assert.ok(pending instanceof Promise, 'asked before the levels exist, the tile waits for their thread');
    const tile = JSON.parse((await pending).body.toString());
    assert.deepEqual(tile, JSON.parse(here[0].body.toString()));
    assert.equal(tile.cells[0][2], 29, 'the whole of Monaco in one cell at level 0');
    assert.ok(!(overview.tile(0, 0, 0) instanceof Promise), 'once built, a tile is answered at once');
  });

  test('a toilet marked gone leaves the counts at the next request', async () => {
    assert.equal((await moderate(data, ['gone', 'n1876837922', '--reason', 'demolished'])).status, 0);
    s.app.catalog.refreshOverlays(null);
    const answer = await s.get('/overview/0/0/0.json');
    assert.equal(answer.json.cells[0][2], 28);
  });
});
