// An import's unfinished files (the new database, a downloaded extract) do not outlive it: an interrupted
// import removes them and exits as the signal would have, and files a killed import left are removed by the
// next import in the same folder, never those of an import still running.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importExtract } from '../../importer/import.js';
import { temporaryFile, discardTemporary } from '../../importer/temporaries.js';
import { generateExtract } from '../../bench/generate/generate.js';
import { osmExtract, REPO_DIR } from '../support/paths.js';
import { importedCopy } from '../support/extracts.js';
import { tempDir } from './support.js';

const CLI = join(REPO_DIR, 'dist', 'importer', 'cli.js');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** The pid of a process that has ended, and of one that runs until `stop` is called. */
async function pids(): Promise<{ dead: number; running: number; stop: () => void }> {
  // coreutils' true and sleep: any process does, and these start for less CPU than node
  const ended = spawn('true');
  await once(ended, 'exit');
  const sleeper = spawn('sleep', ['60']);
  return { dead: ended.pid!, running: sleeper.pid!, stop: () => sleeper.kill() };
}

const dir = tempDir('temporaries');
const extract = join(dir, 'big.osm.pbf');
const live = join(dir, 'toilets.db');
test.before(async () => {
  await generateExtract(extract, { toilets: 60_000, otherNodes: 200_000, seed: 5 });
  await importedCopy('monaco', live);
});

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  test(`an import interrupted by ${signal} removes its unfinished database and exits ${code}; the live one is unchanged`, async () => {
    const before = sha(live);
    const child = spawn(process.execPath, [CLI, extract, '--db', live, '--quiet']);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = once(child, 'exit');
    while (!readdirSync(dir).some((name) => name.endsWith('.importing'))) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill(signal);
    const [status] = await exited;
    assert.equal(status, code, stderr);
    assert.equal(stderr, `import: interrupted (${signal}); its unfinished files are removed\n`);
    assert.deepEqual(readdirSync(dir).sort(), ['big.osm.pbf', 'toilets.db']);
    assert.equal(sha(live), before);
  });
}

test('the server interrupted while it imports TOILETS_EXTRACT at its first start leaves no unfinished file', async () => {
  const first = tempDir('temporaries-first-start');
  const child = spawn(process.execPath, [join(REPO_DIR, 'dist', 'src', 'main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', TOILETS_DB: join(first, 'toilets.db'), TOILETS_EXTRACT: extract },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit');
  while (!readdirSync(first).some((name) => name.endsWith('.importing'))) await new Promise((resolve) => setTimeout(resolve, 5));
  child.kill('SIGTERM');
  const [status] = await exited;
  assert.equal(status, 143, stderr);
  assert.ok(!readdirSync(first).some((name) => name.endsWith('.importing') || name === 'toilets.db'), readdirSync(first).join(', '));
});

test("the next import removes the unfinished database of a dead import, not a running import's", async () => {
  const { dead, running, stop } = await pids();
  try {
    const left = `.toilets.db.${dead}.importing`;
    const busy = `.toilets.db.${running}.importing`;
    for (const name of [left, busy]) writeFileSync(join(dir, name), 'unfinished');
    await importExtract(osmExtract('monaco'), { db: live, threads: 0 });
    const names = readdirSync(dir);
    assert.ok(!names.includes(left), 'the dead one is removed');
    assert.ok(names.includes(busy), 'the running one is kept');
    discardTemporary(join(dir, busy));
  } finally {
    stop();
  }
});

test('a temporary file is named by the process, and the dead ones of its kind go when it is made', async () => {
  const { dead, running, stop } = await pids();
  try {
    const other = tempDir('temporaries-kind');
    const names = [`.download-${dead}.osm.pbf`, `.download-${running}.osm.pbf`, `.download-x.osm.pbf`, `.toilets.db.${dead}.importing`];
    for (const name of names) writeFileSync(join(other, name), '');
    const path = temporaryFile(other, '.download-', '.osm.pbf');
    assert.equal(path, join(other, `.download-${process.pid}.osm.pbf`));
    assert.deepEqual(readdirSync(other).sort(), [`.download-${running}.osm.pbf`, '.download-x.osm.pbf', `.toilets.db.${dead}.importing`].sort());
    writeFileSync(path, 'downloading');
    discardTemporary(path);
    assert.ok(!readdirSync(other).includes(`.download-${process.pid}.osm.pbf`));
  } finally {
    stop();
  }
});
