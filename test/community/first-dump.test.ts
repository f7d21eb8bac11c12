// The first open data dump: a server whose DUMP_DIR has no dump writes one in the background once it serves
// (the licence page links /dumps/ from the start), waits for data when it has none, leaves an existing
// dump alone, and serves on when the dump cannot be written.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import type { Logger } from '../../src/log.js';
import { DUMP_FILES } from '../../src/dumps/dump.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { serve } from '../support/server.js';
import { importedData, readSourceToilets, startMain } from './support.js';

/** A logger that keeps its lines and resolves `next(pattern)` with the first one matching. */
function watchedLog(): Logger & { lines: string[]; next(pattern: RegExp): Promise<string> } {
  const lines: string[] = [];
  const watchers: { pattern: RegExp; found(line: string): void }[] = [];
  const add = (level: string) => (message: string) => {
    const line = `${level}: ${message}`;
    lines.push(line);
    for (const w of watchers.filter((w) => w.pattern.test(line))) {
      watchers.splice(watchers.indexOf(w), 1);
      w.found(line);
    }
  };
  return {
    lines,
    info: add('info'),
    error: add('error'),
    next: (pattern) => new Promise((found) => {
      const line = lines.find((l) => pattern.test(l));
      if (line !== undefined) found(line);
      else watchers.push({ pattern, found });
    }),
  };
}

test('npm start writes the first dump after it serves when DUMP_DIR has none; the server serves it', async () => {
  const data = await importedData('monaco');
  const dumpDir = join(data.dir, 'dumps');
  const server = await startMain(data, { env: { DUMP_DIR: dumpDir } });
  try {
    const line = JSON.parse(await server.logged(/first open data dump/));
    const toilets = readSourceToilets(data.toiletsDb).length;
    assert.deepEqual([line.dir, line.toilets], [dumpDir, toilets]);
    assert.deepEqual(readdirSync(dumpDir).sort(), Object.values(DUMP_FILES).sort(), 'the three files, no temporary left');
    const csv = await fetch(`${server.url}/dumps/${DUMP_FILES.csv}`);
    assert.equal(csv.status, 200);
    assert.equal(gunzipSync(Buffer.from(await csv.arrayBuffer())).toString().trimEnd().split('\r\n').length, toilets + 1);
    assert.match(await (await fetch(`${server.url}/dumps/${DUMP_FILES.notice}`)).text(), /OpenStreetMap contributors/);
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    data.remove();
  }
});

test('with no data yet the first dump waits for the first load; an existing dump is left alone', async () => {
  const dir = tempDir('toilet-first-dump');
  const db = join(dir.path, 'toilets.db');
  const dumpDir = join(dir.path, 'dumps');
  const log = watchedLog();
  const served = await serve({ db, env: { DUMP_DIR: dumpDir }, log });
  try {
    served.app.writeFirstDump();
    assert.equal(served.app.catalog.snapshot.table.count, 0);
    await importedCopy('monaco', db);
    served.app.catalog.reload('test');
    await log.next(/first open data dump/);
    assert.deepEqual(readdirSync(dumpDir).sort(), Object.values(DUMP_FILES).sort());

    // a dump already there (the nightly one) is never replaced by the server
    for (const name of Object.values(DUMP_FILES)) writeFileSync(join(dumpDir, name), 'the operator’s dump');
    served.app.writeFirstDump();
    served.app.catalog.reload('test');
    for (const name of Object.values(DUMP_FILES)) assert.equal(readFileSync(join(dumpDir, name), 'utf8'), 'the operator’s dump');
    assert.equal(log.lines.filter((l) => /first open data dump/.test(l)).length, 1);
  } finally {
    await served.close();
    dir.remove();
  }
});

test('a first dump that cannot be written is logged and the server serves on', async () => {
  const data = await importedData('monaco');
  const blocked = join(data.dir, 'not-a-folder');
  writeFileSync(blocked, 'a file where DUMP_DIR should be');
  const log = watchedLog();
  const served = await serve({ db: data.toiletsDb, env: { DUMP_DIR: join(blocked, 'dumps') }, log });
  try {
    served.app.writeFirstDump();
    const line = await log.next(/first open data dump/);
    assert.match(line, /^error: the first open data dump could not be written to \S+not-a-folder\/dumps: .*; \/dumps\/ answers 404 until `npm run dump` succeeds$/);
    assert.equal((await served.call('/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=1')).status, 200);
    assert.equal((await served.call(`/dumps/${DUMP_FILES.csv}`)).status, 404);
  } finally {
    await served.close();
    data.remove();
  }
});
