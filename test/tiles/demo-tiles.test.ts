// A map on a fresh install (issue 43): the first `npm start` (src/serve.ts) imports the demo data and puts
// its basemap (data/demo/) at TILES_DB, so /tiles/ answers at once; an operator's tiles file is never
// replaced; and once an operator's region replaces the demo data, the demo's Monaco tiles are no longer
// served (the site then draws its plain map of the region until tiles are built for it).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { jsonLogger } from '../../src/log.js';
import { serve } from '../../src/serve.js';
import { DEMO_TILES, installDemoTiles } from '../../src/first-import.js';
import { importExtract } from '../../importer/import.js';
import { osmExtract } from '../support/paths.js';
import { tempDir } from '../support/extracts.js';

const quiet = () => {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  return jsonLogger(sink, sink);
};

test('the demo basemap is small and goes only where there is no tiles file', () => {
  assert.ok(statSync(DEMO_TILES).size < 300_000, 'the shipped basemap stays small');
  const dir = tempDir();
  try {
    const target = join(dir.path, 'nested', 'tiles.mbtiles');
    assert.equal(installDemoTiles(target), true);
    assert.deepEqual(readFileSync(target), readFileSync(DEMO_TILES));
    writeFileSync(target, 'an operator file');
    assert.equal(installDemoTiles(target), false);
    assert.equal(readFileSync(target, 'utf8'), 'an operator file');
  } finally {
    dir.remove();
  }
});

test('a first start serves the demo with its basemap; an operator region imported without tiles gets none of Monaco', async () => {
  const dir = tempDir();
  const db = join(dir.path, 'toilets.db');
  const started = await serve(
    { TOILETS_DB: db, OVERLAY_DB: join(dir.path, 'overlay.db'), ACCOUNTS_DB: join(dir.path, 'accounts.db'), TOILETS_EXTRACT: '', PORT: '0', HOST: '127.0.0.1', HTTP_THREADS: '1' },
    quiet,
  );
  const get = (path: string) => fetch(`http://127.0.0.1:${started.port}${path}`);
  try {
    assert.ok(existsSync(join(dir.path, 'tiles.mbtiles')));
    const tileJson = await get('/tiles/tiles.json');
    assert.equal(tileJson.status, 200);
    assert.deepEqual(((await tileJson.json()) as { bounds: number[] }).bounds, [7.409205, 43.72335, 7.448637, 43.75169]);
    assert.equal((await get('/tiles/14/8530/5974.pbf')).status, 200);

    await importExtract(osmExtract('andorra'), { db, threads: 0 });
    started.app.catalog.reload('file changed');
    assert.equal(started.app.catalog.snapshot.info.demo, false);
    const after = await get('/tiles/tiles.json');
    assert.equal(after.status, 404);
    assert.match(((await after.json()) as { detail: string }).detail, /--tiles/);
  } finally {
    await started.app.close();
    dir.remove();
  }
});
