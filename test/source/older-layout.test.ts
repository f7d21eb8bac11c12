// The new release starting on a source database the previous release wrote (layout 4, before details:
// test/fixtures/source-layout-4-monaco.sql, made by that release's own importer with
// test/fixtures/make-source-layout-4.sh). It serves it, without details, rather than refusing to start:
// its log, /status and the toilet page say a re-import adds what is missing; the nightly import over that
// file (which reads its id moves) then writes the current layout, and the reload serves the details.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { jsonLogger } from '../../src/log.js';
import { serve } from '../../src/serve.js';
import { firstImport } from '../../src/first-import.js';
import { importExtract } from '../../importer/import.js';
import { placeIndexBlobs } from '../../src/places/stored.js';
import { findInvalid } from '../../src/schemas/validate.js';
import { loadPlaceIndex } from '../support/place-index.js';
import { osmExtract, REPO_DIR } from '../support/paths.js';
import { tempDir } from '../support/extracts.js';

const FIXTURE = join(REPO_DIR, 'test', 'fixtures', 'source-layout-4-monaco.sql');
/** A Monaco toilet with details in the current layout (level, indoor, description). */
const WITH_DETAILS = 'n2088725211';
const dir = tempDir('toilet-older-layout');
test.after(() => dir.remove());

/** The fixture as a database file; its place index written again from its places (see the fixture's script). */
function previousReleaseDatabase(path: string): void {
  const db = new Database(path);
  try {
    db.exec(readFileSync(FIXTURE, 'utf8'));
    const insert = db.prepare('INSERT INTO place_index (name, data) VALUES (?, ?)');
    for (const [name, data] of placeIndexBlobs(loadPlaceIndex(db, { worldTowns: false }))) insert.run(name, data);
  } finally {
    db.close();
  }
}

function logSink(): Writable & { messages(): string[] } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return Object.assign(stream, { messages: () => text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { message: string }).message) });
}

test('the fixture is what the previous release wrote: layout 4, no details anywhere', () => {
  const path = join(dir.path, 'check.db');
  previousReleaseDatabase(path);
  const db = new Database(path, { readonly: true });
  try {
    assert.equal(db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).pluck().get(), '4');
    assert.ok(!(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('toilets') as string[]).includes('details'));
    assert.equal(db.prepare(`SELECT count(*) FROM toilet_columns WHERE name LIKE 'details%'`).pluck().get(), 0);
    assert.equal(db.prepare('SELECT count(*) FROM toilets').pluck().get(), 29);
  } finally {
    db.close();
  }
});

test('an operator’s file of the previous layout is served as it is at start (no import first); the demo data is imported again', () => {
  const path = join(dir.path, 'first.db');
  previousReleaseDatabase(path);
  assert.equal(firstImport(path, null), null);
  assert.equal(firstImport(path, osmExtract('monaco')), null, 'TOILETS_EXTRACT does not delay the start: the nightly import brings the details');
  const demo = new Database(path);
  demo.prepare(`UPDATE meta SET value = 'true' WHERE key = 'demo'`).run();
  demo.close();
  assert.match(firstImport(path, null)?.reason ?? '', /^the demo data has layout version 4, without details/);
});

test('the new release serves a file the previous release wrote, says a re-import adds the details, and serves them after it', async () => {
  const db = join(dir.path, 'toilets.db');
  previousReleaseDatabase(db);
  const out = logSink();
  const started = await serve(
    { TOILETS_DB: db, OVERLAY_DB: join(dir.path, 'overlay.db'), ACCOUNTS_DB: join(dir.path, 'accounts.db'), TOILETS_EXTRACT: '', PORT: '0', HOST: '127.0.0.1', HTTP_THREADS: '1' },
    () => jsonLogger(out, out),
  );
  const get = async (path: string) => {
    const response = await fetch(`http://127.0.0.1:${started.port}${path}`);
    return { status: response.status, text: await response.text() };
  };
  try {
    assert.ok(out.messages().some((m) => /earlier release and lacks the toilets' details .*a re-import .*adds what is missing/.test(m)), out.messages().join(' | '));

    const toilet = await get(`/api/v1/toilets/${WITH_DETAILS}`);
    assert.equal(toilet.status, 200);
    const answer = JSON.parse(toilet.text);
    assert.deepEqual(findInvalid('ToiletAnswer', answer), []);
    assert.equal(answer.details, undefined, 'no details before the import that writes them');
    assert.equal(answer.toilet.id, WITH_DETAILS);
    const near = await get('/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=3');
    assert.deepEqual(findInvalid('FindResult', JSON.parse(near.text)), []);

    const status = JSON.parse((await get('/status')).text);
    assert.deepEqual(status.source_layout.missing, ['details']);
    assert.match(status.source_layout.note, /re-import/);
    const page = await get(`/t/${WITH_DETAILS}?lang=en`);
    assert.match(page.text, /arrive with the next import of the map data/);
    assert.match((await get(`/t/${WITH_DETAILS}?lang=de`)).text, /kommen mit dem nächsten Import der Kartendaten/);

    // The nightly import writes the current layout over it (reading the old file's id moves) and the server reloads.
    await importExtract(osmExtract('monaco'), { db, threads: 0 });
    started.app.catalog.reload('file changed');
    const after = JSON.parse((await get(`/api/v1/toilets/${WITH_DETAILS}`)).text);
    assert.deepEqual(after.details, { level: '0', indoor: true, description: 'toilette dans la galerie commercante' });
    assert.deepEqual(JSON.parse((await get('/status')).text).source_layout, { missing: [], note: null });
    const pageAfter = await get(`/t/${WITH_DETAILS}?lang=en`);
    assert.doesNotMatch(pageAfter.text, /arrive with the next import/);
    assert.match(pageAfter.text, /On the ground floor\./);
  } finally {
    await started.app.close();
  }
});
