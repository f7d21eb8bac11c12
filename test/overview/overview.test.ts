// The site's overview (src/overview) on the real Monaco import and server: every toilet counted once at
// every level and none at its exact position, its own rate limit and ETag, the places document, the
// titles of unnamed toilets (the API's name stays null), the toilet page's title, and a toilet marked
// gone leaving the counts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildLevels, MAX_ZOOM } from '../../src/overview/clusters.js';
import { Trait } from '../../src/toilets/table.js';
import { Clock, importedData, moderate, readSourceToilets, startService, type Data, type Service } from '../community/support.js';

describe('overview levels', () => {
  test('count each toilet once per level, leave out toilets marked gone, and never give an exact position', () => {
    const lat = Float64Array.from([43.7311234, 43.7311345, 43.7400456, -33.9012345]);
    const lon = Float64Array.from([7.4197321, 7.4197432, 7.4300543, 18.4012345]);
    const traits = Uint8Array.from([0, 0, 0, Trait.Hidden]);
    const levels = buildLevels({ count: 4, lat, lon, traits });
    assert.equal(levels.length, MAX_ZOOM + 1);
    for (const cells of levels) assert.equal(cells.reduce((n, cell) => n + cell[2], 0), 3);
    assert.deepEqual(levels[0].map((cell) => cell[2]), [3]);
    const deepest = levels[MAX_ZOOM];
    assert.deepEqual(deepest.map((cell) => cell[2]), [2, 1]);
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

  test('every level counts the 29 toilets, with its own rate limit and an ETag', async () => {
    const source = readSourceToilets(data.toiletsDb);
    const exact = new Set(source.map((t) => `${t.lon},${t.lat}`));
    for (const z of [0, 6, MAX_ZOOM]) {
      const answer = await s.get(`/overview/${z}.json`);
      assert.equal(answer.status, 200);
      assert.equal(answer.json.zoom, z);
      assert.equal(answer.json.toilets, source.length);
      assert.equal(answer.json.cells.reduce((n: number, cell: number[]) => n + cell[2], 0), source.length);
      for (const [lon, lat] of answer.json.cells) assert.ok(!exact.has(`${lon},${lat}`));
      assert.match(answer.headers.get('ratelimit-policy') ?? '', /"overview-per-ip";q=40;w=60/);
    }
    const first = await s.get('/overview/3.json');
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${s.url}/overview/3.json`, { headers: { 'If-None-Match': etag, 'X-Forwarded-For': '198.51.100.1' } });
    assert.equal(again.status, 304);
  });

  test('unknown documents and bad ids are refused with what to ask instead', async () => {
    const deep = await s.get(`/overview/${MAX_ZOOM + 1}.json`);
    assert.equal(deep.status, 404);
    assert.match(deep.json.detail, /z from 0 to 12/);
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

  test('a toilet marked gone leaves the counts at the next request', async () => {
    assert.equal(moderate(data, ['gone', 'n1876837922', '--reason', 'demolished']).status, 0);
    s.app.catalog.refreshOverlays(null);
    const answer = await s.get('/overview/0.json');
    assert.equal(answer.json.toilets, 28);
  });
});
