// What `npm run import` prints: the summary at the end (toilets by element kind, places by kind, skipped
// objects by reason, elements read, elapsed time, data age); nothing with --quiet; and on a terminal a
// progress bar redrawn in place (run under `script`, which gives the command a pseudo-terminal).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { generateExtract } from '../../bench/generate/generate.js';
import { osmExtract, REPO_DIR } from '../support/paths.js';
import { tempDir } from './support.js';

const CLI = join(REPO_DIR, 'dist', 'importer', 'cli.js');
const dir = tempDir('cli-output');

function runImport(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
}

test('the summary: toilets by element kind, places by kind, skipped by reason, elements read, time and data age', () => {
  const db = join(dir, 'porto.db');
  const run = runImport(osmExtract('porto'), '--db', db);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stderr, '', 'no progress lines for an import shorter than their interval');
  const lines = run.stdout.split('\n');
  assert.match(lines[0], new RegExp(`^imported into ${db} in \\d+\\.\\d s$`));
  assert.deepEqual(lines.slice(1), [
    '  toilets: 24 (nodes 18, ways 3, relations 0, host features 3)',
    '  places: 1174 (settlement 56, station 227, street 621, landmark 270)',
    '  skipped: host_without_access 1',
    '  elements read: nodes 85149, ways 22606, relations 344',
    '  id moves carried: 0',
    '  data as of: 2020-07-20T10:27:03.000Z',
    "  covers: Porto, -8.6212353,41.1247318,-8.5936815,41.1560755 (west,south,east,north; from the extract's header)",
    '',
  ]);
});

test('--region names the covered region instead of the file name', () => {
  const run = runImport(osmExtract('porto'), '--db', join(dir, 'porto-region.db'), '--region', 'Porto city centre');
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /\n {2}covers: Porto city centre, -8\.6212353,41\.1247318,-8\.5936815,41\.1560755 /);
  const empty = runImport(osmExtract('porto'), '--db', join(dir, 'porto-region.db'), '--region', ' ');
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /--region takes the covered region's name, 1 to 100 characters/);
});

test('--quiet prints nothing', () => {
  const run = runImport(osmExtract('monaco'), '--db', join(dir, 'monaco.db'), '--quiet');
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual([run.stdout, run.stderr], ['', '']);
});

const noScript = spawnSync('script', ['--version']).status === 0 ? false : 'no `script` command (util-linux) to give the import a terminal';

test('on a terminal: a progress bar redrawn in place, then the summary on a line of its own', { skip: noScript }, async () => {
  // big enough to take well over the 100 ms between redraws
  const extract = await generateExtract(join(dir, 'big.osm.pbf'), { toilets: 60_000, otherNodes: 200_000, seed: 7 }).then(() => join(dir, 'big.osm.pbf'));
  const command = [process.execPath, CLI, extract, '--db', join(dir, 'big.db')].map((word) => `'${word}'`).join(' ');
  const run = spawnSync('script', ['--quiet', '--return', '--command', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '100' } });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const frames = run.stdout.split('\r').filter((frame) => frame.startsWith('import: ['));
  assert.ok(frames.length >= 2, `redrawn: ${JSON.stringify(run.stdout.slice(0, 400))}`);
  for (const frame of frames) {
    assert.match(frame, /^import: \[[#.]{24}\] \d+% of \d+\.\d MB, \d+\.\d MB\/s, [\d,]+ elements, [\d,]+\/s(, ETA \d+:\d\d)? *$/);
  }
  assert.match(run.stdout, /\n(\r)?imported into .*big\.db in \d+\.\d s\r?\n {2}toilets: /, 'the summary starts on a fresh line');
});
