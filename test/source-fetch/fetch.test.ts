// A replica's server (the real app on loopback) following TOILETS_DB_URL on a real HTTP server: a new
// publish is fetched, checked and swapped in; a 304 or an unchanged checksum downloads nothing; and every
// fault (a body cut short, a wrong checksum, a file that is not SQLite, a newer layout, a 500, a transfer
// that stops) keeps the old data in service, shows the error on /status, logs it once and leaves no
// temporary file. The checks are run by the test (checkNow) and their scheduling recorded, never waited for.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../src/log.js';
import { importedCopy, serve, tempDir, type Served } from '../api/support.js';
import { Publisher, sha256Of } from './publisher.js';
import { fetchLeftovers, ManualTimers, mbtilesFile, variantOf } from './support.js';

const NEAREST = '/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=3';
const V1 = '2026-01-01T00:00:00.000Z';
const V2 = '2026-01-02T00:00:00.000Z';
const V3 = '2026-01-03T00:00:00.000Z';

interface Line {
  level: 'info' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

function recordingLog(lines: Line[]): Logger {
  return { info: (message, fields) => lines.push({ level: 'info', message, fields }), error: (message, fields) => lines.push({ level: 'error', message, fields }) };
}

describe('a replica following TOILETS_DB_URL', () => {
  const dir = tempDir('source-fetch');
  const live = join(dir.path, 'toilets.db');
  const lines: Line[] = [];
  const timers = new ManualTimers();
  const versions: Record<string, Buffer> = {};
  let publisher: Publisher;
  let s: Served;

  before(async () => {
    const imported = join(dir.path, 'imported.db');
    await importedCopy('monaco', imported);
    for (const [name, at] of [['v1', V1], ['v2', V2], ['v3', V3]]) versions[name] = variantOf(imported, dir.path, `${name}.db`, { imported_at: at });
    versions.newer = variantOf(imported, dir.path, 'newer.db', { imported_at: V3, schema_version: '99' });
    for (const name of ['imported.db', 'v1.db', 'v2.db', 'v3.db', 'newer.db']) if (name !== 'v1.db') rmSync(join(dir.path, name));
    publisher = await Publisher.start();
    publisher.publish('toilets.db', versions.v1);
    // the local copy in service: what was published when the replica last ran
    rmSync(live, { force: true });
    await import('node:fs').then((fs) => fs.renameSync(join(dir.path, 'v1.db'), live));
    s = await serve({ db: live, watch: true, log: recordingLog(lines), sourceFetchTimers: timers, env: { TOILETS_DB_URL: publisher.url('toilets.db'), SOURCE_FETCH_TIMEOUT_MS: '2000' } });
  });
  after(async () => {
    await s?.close();
    await publisher?.close();
    dir.remove();
  });

  const status = async () => (await s.call('/status')).json;
  const check = () => s.app.sourceFetch.checkNow().then(() => s.app.sourceFetch.toilets!.status());

  test('at start the local copy matching the published checksum is not downloaded again', async () => {
    await check();
    assert.equal(publisher.downloads('toilets.db'), 0);
    const fetch = (await status()).source_fetch;
    assert.equal(fetch.tiles, null);
    assert.equal(fetch.toilets.sha256, sha256Of(versions.v1));
    assert.equal(fetch.toilets.host, new URL(publisher.url('')).host);
    assert.equal(fetch.toilets.last_error, null);
    assert.equal((await status()).imported_at, V1);
  });

  test('a new publish is fetched, checked and swapped in; the next checks are 304s that download nothing', async () => {
    publisher.publish('toilets.db', versions.v2);
    const after = await check();
    assert.equal(after.sha256, sha256Of(versions.v2));
    assert.notEqual(after.fetched_at, null);
    assert.equal((await status()).imported_at, V2);
    assert.equal((await s.call(NEAREST)).status, 200);
    assert.deepEqual(readFileSync(live), versions.v2, 'the local copy is the published file');
    assert.equal(publisher.downloads('toilets.db'), 1);
    assert.ok(lines.some((l) => l.message === 'fetched the source database from TOILETS_DB_URL'));
    for (let i = 0; i < 2; i++) await check();
    assert.equal(publisher.downloads('toilets.db'), 1, 'no download after the swap');
    const asked = publisher.seen.filter((seen) => seen.path === '/toilets.db.sha256').slice(-2);
    assert.deepEqual(asked.map((a) => a.status), [304, 304]);
    assert.ok(asked.every((a) => a.ifNoneMatch !== null));
    assert.deepEqual(fetchLeftovers(dir.path), []);
  });

  const faults: { name: string; publish(): void; error: RegExp }[] = [
    { name: 'a body cut short', publish: () => (publisher.publish('toilets.db', versions.v3), publisher.fault('toilets.db', 'truncate')), error: /transfer of http:\/\/127\.0\.0\.1:\d+\/toilets\.db (broke off|is incomplete)/ },
    { name: 'a wrong checksum', publish: () => publisher.publish('toilets.db', versions.v3, sha256Of(Buffer.from('another file'))), error: /has SHA-256 [0-9a-f]{64}, its checksum file says/ },
    { name: 'a file that is not SQLite', publish: () => publisher.publish('toilets.db', randomBytes(64 * 1024)), error: /is refused: it is not a SQLite database/ },
    { name: 'a newer source layout', publish: () => publisher.publish('toilets.db', versions.newer), error: /is refused: it has source schema version 99, this release reads 4 and 5/ },
    { name: 'a 500 for the file', publish: () => (publisher.publish('toilets.db', versions.v3), publisher.fault('toilets.db', 'error500')), error: /answered 500/ },
    { name: 'a 500 for the checksum', publish: () => (publisher.publish('toilets.db', versions.v3), publisher.fault('toilets.db.sha256', 'error500')), error: /toilets\.db\.sha256 answered 500/ },
    { name: 'a transfer that stops sending', publish: () => (publisher.publish('toilets.db', versions.v3), publisher.fault('toilets.db', 'hang')), error: /nothing arrived for 2 s \(SOURCE_FETCH_TIMEOUT_MS\)/ },
  ];
  for (const fault of faults) {
    test(`${fault.name}: the old data keeps serving, /status says why, no file is left, the error is logged once`, async () => {
      publisher.fault('toilets.db', null);
      publisher.fault('toilets.db.sha256', null);
      fault.publish();
      const errorsBefore = lines.filter((l) => l.level === 'error').length;
      for (let i = 0; i < 2; i++) {
        const state = await check();
        assert.match(state.last_error ?? '', fault.error);
        assert.equal(state.failures_in_a_row, i + 1);
      }
      const shown = await status();
      assert.equal(shown.imported_at, V2, 'the data in service is unchanged');
      assert.match(shown.source_fetch.toilets.last_error, fault.error);
      assert.notEqual(shown.source_fetch.toilets.last_failure_at, null);
      assert.equal(shown.source_fetch.toilets.sha256, sha256Of(versions.v2));
      assert.equal((await s.call(NEAREST)).status, 200);
      assert.deepEqual(readFileSync(live), versions.v2, 'the local copy is untouched');
      assert.deepEqual(fetchLeftovers(dir.path), []);
      const errors = lines.filter((l) => l.level === 'error').slice(errorsBefore);
      assert.equal(errors.length, 1, 'a failure repeated is logged once');
      assert.match(errors[0].message, /^fetching the source database from TOILETS_DB_URL failed: .*; the local copy stays in service$/);
      // the publisher mends it: the next check fetches, and the error is gone
      publisher.fault('toilets.db', null);
      publisher.fault('toilets.db.sha256', null);
      publisher.publish('toilets.db', versions.v2);
      const mended = await check();
      assert.equal(mended.last_error, null);
      assert.equal(mended.failures_in_a_row, 0);
      assert.ok(lines.at(-1)!.message === 'fetching the source database from TOILETS_DB_URL works again');
    });
  }

  test('checks come on the interval, spread; after failures sooner, then backing off', async () => {
    const delays = timers.delays;
    const last = delays.at(-1)!;
    assert.ok(last >= 54_000 && last <= 66_000, `after a good check: the interval ±10 % (${last})`);
    publisher.fault('toilets.db.sha256', 'error500');
    const retries: number[] = [];
    for (let i = 0; i < 3; i++) {
      await check();
      retries.push(delays.at(-1)!);
    }
    publisher.fault('toilets.db.sha256', null);
    for (const [i, base] of [5_000, 10_000, 20_000].entries()) assert.ok(retries[i] >= base * 0.9 && retries[i] <= base * 1.1, `retry ${i + 1}: ${retries.join(', ')}`);
    await check();
    assert.equal(timers.waiting, 1, 'one check is scheduled at a time');
  });
});

describe('TILES_DB_URL, and a URL with credentials and a token', () => {
  const dir = tempDir('source-fetch-tiles');
  const lines: Line[] = [];
  let publisher: Publisher;
  let s: Served;

  before(async () => {
    const db = join(dir.path, 'toilets.db');
    await importedCopy('monaco', db);
    publisher = await Publisher.start();
    publisher.requireAuthorization = `Basic ${Buffer.from('replica:s3cret').toString('base64')}`;
    const url = new URL(publisher.url('tiles.mbtiles'));
    url.username = 'replica';
    url.password = 's3cret';
    url.search = '?token=s3cret';
    s = await serve({ db, log: recordingLog(lines), sourceFetchTimers: new ManualTimers(), env: { TILES_DB_URL: url.href } });
  });
  after(async () => {
    await s?.close();
    await publisher?.close();
    dir.remove();
  });

  test('a published tiles file is fetched and served; one the server cannot serve is refused and the old one stays', async () => {
    publisher.publish('tiles.mbtiles', mbtilesFile(dir.path, 'vector.mbtiles', 'pbf', 'first'));
    await s.app.sourceFetch.checkNow();
    const tile = await s.call('/tiles/0/0/0.pbf', { headers: { 'Accept-Encoding': 'identity' } });
    assert.equal(tile.status, 200);
    assert.equal(tile.text, 'first');
    publisher.publish('tiles.mbtiles', mbtilesFile(dir.path, 'raster.mbtiles', 'png', 'raster'));
    await s.app.sourceFetch.checkNow();
    const state = (await s.call('/status')).json.source_fetch;
    assert.equal(state.toilets, null);
    assert.match(state.tiles.last_error, /tiles\.mbtiles is refused: it is not a vector MBTiles file the server can serve \(it holds png, not vector tiles/);
    assert.equal((await s.call('/tiles/0/0/0.pbf', { headers: { 'Accept-Encoding': 'identity' } })).text, 'first');
    assert.deepEqual(fetchLeftovers(dir.path), []);
  });

  test('the credentials reach the publisher as Basic authorization, the token as the query; neither is logged or shown', async () => {
    assert.ok(publisher.seen.length > 0 && publisher.seen.every((seen) => seen.status !== 401), 'every request carried the credentials');
    assert.ok(publisher.seen.every((seen) => seen.query === '?token=s3cret'), 'the file and its checksum were asked for with the query');
    const shown = JSON.stringify(lines) + (await s.call('/status')).text + (await s.call('/readyz')).text;
    assert.ok(shown.includes('tiles.mbtiles'), 'the address is shown');
    assert.ok(!shown.includes('s3cret') && !shown.includes('replica:'), shown);
  });
});

describe('the size bound, and a shutdown during a transfer', () => {
  const dir = tempDir('source-fetch-bounds');
  const live = join(dir.path, 'toilets.db');
  let publisher: Publisher;
  let s: Served;
  let database: Buffer;
  let closed = false;

  before(async () => {
    await importedCopy('monaco', live);
    database = readFileSync(live);
    publisher = await Publisher.start();
    publisher.publish('toilets.db', database);
    s = await serve({ db: live, sourceFetchTimers: new ManualTimers(), env: { TOILETS_DB_URL: publisher.url('toilets.db'), SOURCE_FETCH_MAX_MB: '1' } });
    await s.app.sourceFetch.checkNow(); // the local copy is the published one
  });
  after(async () => {
    if (!closed) await s?.close();
    await publisher?.close();
    dir.remove();
  });

  test('a file over SOURCE_FETCH_MAX_MB is refused: by its Content-Length before the download, else as it arrives', async () => {
    const larger = variantOf(live, dir.path, 'larger.db', { imported_at: V3 });
    assert.ok(larger.length > 1_048_576);
    publisher.publish('toilets.db', larger);
    await s.app.sourceFetch.checkNow();
    assert.match(s.app.sourceFetch.toilets!.status().last_error ?? '', /toilets\.db is \d+\.\d MB, over the limit of 1\.0 MB \(SOURCE_FETCH_MAX_MB\)$/);
    publisher.fault('toilets.db', 'chunked');
    await s.app.sourceFetch.checkNow();
    assert.match(s.app.sourceFetch.toilets!.status().last_error ?? '', /broke off after \d+ bytes: it is over the limit of 1\.0 MB \(SOURCE_FETCH_MAX_MB\)$/);
    publisher.fault('toilets.db', null);
    assert.deepEqual(readFileSync(live), database);
    assert.deepEqual(fetchLeftovers(dir.path), []);
  });

  test('a shutdown while a transfer hangs ends it and removes its temporary file', async () => {
    publisher.publish('toilets.db', randomBytes(256 * 1024));
    publisher.fault('toilets.db', 'hang');
    const downloads = publisher.downloads('toilets.db');
    const checking = s.app.sourceFetch.checkNow();
    while (publisher.downloads('toilets.db') === downloads || fetchLeftovers(dir.path).length === 0) await new Promise((resolve) => setImmediate(resolve));
    await s.close();
    closed = true;
    assert.equal(await checking, undefined);
    assert.deepEqual(fetchLeftovers(dir.path), []);
    assert.deepEqual(readFileSync(live), database);
  });
});
