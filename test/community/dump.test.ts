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

describe('open data dump', () => {
  let data: Data;
  let s: Service;
  let dumpDir: string;
  let env: Record<string, string>;

  before(async () => {
    data = await importedData('porto');
    dumpDir = join(data.dir, 'dumps');
    env = { DUMP_DIR: dumpDir };
    s = await startService(data, new Clock(Date.parse('2026-06-15T10:00:00Z')), env);
    for (const [device, ip] of [[1, '192.0.2.1'], [2, '192.0.2.2']] as const) {
      const votes = [{ attribute: 'changing_table', value: 'yes' }, { attribute: 'name', value: 'Jardim WC' }];
      assert.equal((await s.post(`/api/v1/toilets/${VOTED}/votes`, { votes, device_id: deviceId(device) }, { ip })).status, 201);
      assert.equal((await s.post(`/api/v1/toilets/${VOTED}/ratings`, { rating: 3 + device, device_id: deviceId(device) }, { ip })).status, 201);
    }
    assert.equal(moderate(data, ['gone', GONE, '--reason', 'demolished'], env).status, 0);
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
    assert.equal(run.stdout.trim(), `wrote ${total - 1} toilets to ${dumpDir}`);

    const geojsonFile = readFileSync(join(dumpDir, 'toilets.geojson.gz'));
    const geojson = JSON.parse(gunzipSync(geojsonFile).toString('utf8'));
    assert.equal(geojson.type, 'FeatureCollection');
    assert.equal(geojson.license, 'ODbL-1.0');
    assert.match(geojson.notice, /Open Database\s+License \(ODbL\) 1\.0/);
    assert.equal(geojson.features.length, total - 1);
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
    assert.equal(lines.length, total);
    const header = lines[0].split(',');
    assert.deepEqual(header.slice(0, 4), ['id', 'lat', 'lon', 'name']);
    const row = Object.fromEntries(lines.find((line) => line.startsWith(`${VOTED},`))!.split(',').map((value, i) => [header[i], value]));
    assert.deepEqual([row.name, row.changing_table, row.cleanliness_average, row.cleanliness_count, row.decided], ['Jardim WC', 'yes', '4.5', '2', 'changing_table:votes;name:votes']);

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
