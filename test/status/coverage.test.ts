// Coverage never removes a result, it only explains an empty one: through the real server (uWS on a
// loopback port) over the real Monaco import, REST and the MCP tool (real client SDK). An origin 1 km
// outside the extract's bounds with toilets in range still answers ok with them; an empty answer about a
// position, a resolved place or a box outside the bounds names the region this service covers; an empty
// answer inside it never advises about filters that were not sent.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { readMeta, coverageOf } from '../../src/source/schema.js';
import { coverageOf as importCoverage, extractName, regionFromFileName } from '../../importer/coverage.js';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { BASE_URL, CLIENT_KINDS, FIXED_NOW, importMonaco, serve, SILENT, type Extract, type Served } from '../mcp/support.js';

/** The header bbox of monaco-2020-07-19.osm.pbf: west, south, east, north. */
const MONACO_BOUNDS = [7.409205, 43.72335, 7.448637, 43.75169];
const OUTSIDE_NOTE = /This service has data for Monaco \(longitude 7\.40921 to 7\.44864, latitude 43\.72335 to 43\.75169\) only\. The (position|area) asked about lies outside it/;
/** 1 km west of the bounds' west edge (1° of longitude is ~80.4 km at this latitude). */
const ONE_KM_WEST = { lat: 43.735, lon: 7.409205 - 1 / 80.4 };
const VIENNA = { lat: 48.2082, lon: 16.3738 };

let extract: Extract;
let served: Served;
let tight: Served;

before(async () => {
  extract = await importMonaco();
  served = await serve({ db: extract.db });
  // a search radius of 20 m: empty answers inside the bounds
  tight = await serve({ db: extract.db, env: { NEAREST_MAX_DISTANCE_M: '20' } });
});
after(async () => {
  await served.close();
  await tight.close();
  extract.remove();
});

const get = async (origin: string, path: string) => {
  const response = await fetch(origin + path);
  assert.equal(response.status, 200, path);
  return (await response.json()) as { status: string; results: { id: string }[]; display_note: string };
};

test('the import records the coverage: the header bbox and the region named after the file', () => {
  const db = new Database(extract.db, { readonly: true });
  try {
    const meta = readMeta(db);
    assert.deepEqual(coverageOf(meta), { name: 'Monaco', bounds: MONACO_BOUNDS, from: 'header' });
    assert.equal(meta.demo, 'false');
    assert.equal(meta.source_file, 'monaco-2020-07-19.osm.pbf');
  } finally {
    db.close();
  }
});

test('the region from the file name; bounds from a sane header bbox, else the extent of the toilets and places', () => {
  assert.equal(regionFromFileName('monaco-2020-07-19.osm.pbf'), 'Monaco');
  assert.equal(regionFromFileName('baden-wuerttemberg-latest.osm.pbf'), 'Baden Wuerttemberg');
  assert.equal(regionFromFileName('ile-de-france-200101.osm.pbf'), 'Ile De France');
  assert.equal(extractName('https://download.example.org/europe/monaco-latest.osm.pbf?key=secret'), 'monaco-latest.osm.pbf');
  assert.equal(extractName('/srv/data/porto.osm.pbf'), 'porto.osm.pbf');
  const data = [{ lat: [43.1, 43.3], lon: [7.5, 7.2] }, { lat: [43.0], lon: [7.4] }];
  assert.deepEqual(importCoverage('X', { left: 7, right: 8, top: 44, bottom: 43 }, data), { name: 'X', bounds: [7, 43, 8, 44], from: 'header' });
  assert.deepEqual(importCoverage('X', null, data), { name: 'X', bounds: [7.2, 43.0, 7.5, 43.3], from: 'data' });
  assert.deepEqual(importCoverage('X', { left: 0, right: 0, top: 0, bottom: 0 }, data)?.from, 'data', 'an empty header box is no coverage');
  assert.equal(importCoverage('X', null, [{ lat: [], lon: [] }]), null);
});

test('an origin 1 km outside the bounds with toilets in range answers ok with them, and the usual note', async () => {
  const answer = await get(served.origin, `/api/v1/toilets/nearest?lat=${ONE_KM_WEST.lat}&lon=${ONE_KM_WEST.lon}&limit=3`);
  assert.equal(answer.status, 'ok');
  assert.equal(answer.results.length, 3);
  assert.doesNotMatch(answer.display_note, OUTSIDE_NOTE);
});

test('an empty nearest answer about a position outside the bounds names the region this service covers', async () => {
  const answer = await get(served.origin, `/api/v1/toilets/nearest?lat=${VIENNA.lat}&lon=${VIENNA.lon}`);
  assert.equal(answer.status, 'no_results');
  assert.match(answer.display_note, OUTSIDE_NOTE);
  assert.match(answer.display_note, /^Show attribution\.text with these results\./, 'the usual note comes first');
  // inside the bounds an empty answer keeps the usual note
  const inside = await get(tight.origin, '/api/v1/toilets/nearest?lat=43.7384&lon=7.4246');
  assert.equal(inside.status, 'no_results');
  assert.doesNotMatch(inside.display_note, OUTSIDE_NOTE);
});

test('an empty area answer for a box outside the bounds names the region; a box overlapping them does not', async () => {
  const far = await get(served.origin, '/api/v1/toilets?bbox=16.36,48.20,16.38,48.21');
  assert.equal(far.results.length, 0);
  assert.match(far.display_note, /The area asked about lies outside it/);
  const overlapping = await get(served.origin, `/api/v1/toilets?bbox=7.40,43.72,7.4093,43.7236`);
  assert.equal(overlapping.results.length, 0);
  assert.doesNotMatch(overlapping.display_note, OUTSIDE_NOTE);
});

test('a place resolved outside the bounds (the embedded world towns) gets the same note', async () => {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', BASE_URL, HTTP_THREADS: '1', TOILETS_DB: extract.db, RATE_LIMIT_PER_MINUTE: '1000000' });
  const app: App = createApp({ config, log: SILENT, now: () => FIXED_NOW });
  app.catalog.load();
  const port = await app.listen();
  try {
    const answer = (await get(`http://127.0.0.1:${port}`, '/api/v1/toilets/nearest?place=Vienna&country=AT')) as Awaited<ReturnType<typeof get>> & { origin: { source: string } };
    assert.equal(answer.status, 'no_results');
    assert.equal(answer.origin.source, 'place');
    assert.match(answer.display_note, OUTSIDE_NOTE);
  } finally {
    await app.close();
  }
});

for (const kind of CLIENT_KINDS) {
  test(`MCP (${kind.label}): an empty result says why, naming the region outside it and only the filters sent`, async () => {
    const texts = async (origin: Served, args: Record<string, unknown>) => {
      const session = await kind.connect(origin.url);
      try {
        const result = await session.callTool({ name: 'find_toilets_near', arguments: args });
        return { status: result.structuredContent.status as string, texts: (result.content as { text: string }[]).map((c) => c.text) };
      } finally {
        await session.close();
      }
    };
    const near = await texts(served, { ...ONE_KM_WEST, limit: 2 });
    assert.equal(near.status, 'ok');
    assert.equal(near.texts.length, 2, 'the JSON and the credit line, nothing more');

    const vienna = await texts(served, { ...VIENNA, wheelchair: true });
    assert.equal(vienna.status, 'no_results');
    assert.match(vienna.texts[0], OUTSIDE_NOTE, 'the display note in the JSON');
    assert.match(vienna.texts[2], /^No results for 48\.2082, 16\.3738\. This service has data for Monaco/);
    assert.doesNotMatch(vienna.texts[2], /filter/);

    const plain = await texts(tight, { lat: 43.7384, lon: 7.4246 });
    assert.equal(plain.status, 'no_results');
    assert.equal(plain.texts[2], 'No public toilet is mapped within 20 m of 43.7384, 7.4246.');

    const filtered = await texts(tight, { lat: 43.7384, lon: 7.4246, wheelchair: true, free: true });
    assert.equal(filtered.texts[2], 'No toilet within 20 m of 43.7384, 7.4246 matched all of the filters wheelchair, free. Ask the user whether to search without some of them.');
  });
}

test('the tool description no longer advises fewer filters whatever was sent', async () => {
  const session = await CLIENT_KINDS[0].connect(served.url);
  try {
    const { tools } = await session.listTools();
    const find = tools.find((tool) => tool.name === 'find_toilets_near');
    assert.doesNotMatch(find.description, /try fewer filters/);
    assert.match(find.description, /`no_results` means nothing matched nearby; the result ends with a sentence saying why/);
  } finally {
    await session.close();
  }
});
