// `npm run import -- --tiles` when things go wrong: without tilemaker the toilets are imported and one line
// says how to install it (exit 0, even with --quiet); tilemaker killed half-way (as the out-of-memory
// killer would) leaves the toilet data imported, the previous tiles file as it was and no temporaries
// (exit 6); an interrupt during the tiles stops tilemaker too and removes its files (exit 143).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { osmExtract } from '../support/paths.js';
import { IMPORT_CLI, noTilemaker, temporariesIn } from '../support/tilemaker.js';
import { rows, tempDir } from './support.js';

const INSTALL_LINE = 'import: tiles not built: tilemaker is not installed; install it with `sudo apt-get install tilemaker` (Debian/Ubuntu), then import again with --tiles\n';
/** Stands in for whatever tiles the previous night built: the import must leave them byte for byte. */
const PREVIOUS_TILES = 'the previous tiles file';

/** A PATH holding node and the usual tools, but no tilemaker. */
function pathWithoutTilemaker(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

test('without tilemaker: the toilets are imported, one line says how to install it, exit 0', () => {
  const dir = tempDir('tiles-missing');
  const db = join(dir, 'toilets.db');
  const env = { ...process.env, PATH: pathWithoutTilemaker(dir) };
  for (const [how, args, extraEnv] of [['--tiles', ['--tiles'], {}], ['BUILD_TILES=1', [], { BUILD_TILES: '1' }]] as const) {
    const run = spawnSync(process.execPath, [IMPORT_CLI, osmExtract('monaco'), '--db', db, ...args], { encoding: 'utf8', env: { ...env, ...extraEnv } });
    assert.equal(run.status, 0, `${how}: ${run.stderr}`);
    assert.equal(run.stderr, INSTALL_LINE, how);
    assert.match(run.stdout, /^imported into .*\n {2}toilets: 29 /, how);
  }
  assert.equal(rows<{ n: number }>(db, 'SELECT count(*) AS n FROM toilets')[0].n, 29);
  assert.equal(existsSync(join(dir, 'tiles.mbtiles')), false);
  assert.deepEqual(temporariesIn(dir), []);

  const quiet = spawnSync(process.execPath, [IMPORT_CLI, osmExtract('monaco'), '--db', db, '--tiles', '--quiet'], { encoding: 'utf8', env });
  assert.deepEqual([quiet.status, quiet.stdout, quiet.stderr], [0, '', INSTALL_LINE], 'asked-for tiles that cannot be built are said even with --quiet');
});

/** The pid of the import's tilemaker once it runs (the toilets are imported by then), or null if it ended first. */
async function tilemakerOf(importPid: number): Promise<number | null> {
  while (isRunning(importPid)) {
    for (const task of readdirSync(`/proc/${importPid}/task`, { withFileTypes: false }).map(String)) {
      const children = readFileSync(`/proc/${importPid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      const tilemaker = children.find((pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'tilemaker');
      if (tilemaker !== undefined) return tilemaker;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return null;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '); // a zombie has ended
  } catch {
    return false;
  }
}

/** Starts an import with --tiles over a previous tiles file, and sends `signal` to tilemaker or the import once tilemaker runs. */
async function importInterrupted(target: 'tilemaker' | 'import', signal: NodeJS.Signals) {
  const dir = tempDir(`tiles-${target}-${signal}`);
  const db = join(dir, 'toilets.db');
  writeFileSync(join(dir, 'tiles.mbtiles'), PREVIOUS_TILES);
  const child = spawn(process.execPath, [IMPORT_CLI, osmExtract('monaco'), '--db', db, '--tiles'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close': exited, and its output read to the end
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const tilemaker = await tilemakerOf(child.pid!);
  assert.ok(tilemaker !== null, 'tilemaker ran');
  process.kill(target === 'tilemaker' ? tilemaker : child.pid!, signal);
  const status = await exited;
  return { dir, db, tilemaker, status, stdout, stderr };
}

test('tilemaker killed half-way: exit 6, the toilets imported, the previous tiles kept, no temporaries', { skip: noTilemaker }, async () => {
  const run = await importInterrupted('tilemaker', 'SIGKILL');
  assert.equal(run.status, 6, run.stderr);
  assert.match(run.stdout, /^imported into /, 'the toilets summary');
  assert.match(run.stderr, /^import: tiles not built: tilemaker was killed by SIGKILL \(out of memory\?\).*\. The toilet data is imported; the previous tiles file, if any, is kept\n$/m);
  assert.equal(rows<{ n: number }>(run.db, 'SELECT count(*) AS n FROM toilets')[0].n, 29);
  assert.equal(readFileSync(join(run.dir, 'tiles.mbtiles'), 'utf8'), PREVIOUS_TILES);
  assert.deepEqual(temporariesIn(run.dir), []);
});

test('an interrupt while the tiles are built stops tilemaker and removes its files (exit 143)', { skip: noTilemaker, timeout: 120_000 }, async () => {
  const run = await importInterrupted('import', 'SIGTERM');
  assert.equal(run.status, 143, run.stderr);
  assert.match(run.stderr, /import: interrupted \(SIGTERM\); its unfinished files are removed/);
  // tilemaker was stopped with the import: it ends (however long that takes on a loaded machine; one that
  // keeps running fails the test at its timeout)
  while (isRunning(run.tilemaker)) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.equal(readFileSync(join(run.dir, 'tiles.mbtiles'), 'utf8'), PREVIOUS_TILES);
  assert.equal(rows<{ n: number }>(run.db, 'SELECT count(*) AS n FROM toilets')[0].n, 29, 'the toilets were imported before the tiles');
  assert.deepEqual(temporariesIn(run.dir), []);
});
