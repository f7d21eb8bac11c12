// What `npm run import` prints: the summary at the end (toilets by element kind, places by kind, skipped
// objects by reason, elements read, elapsed time, data age); nothing with --quiet; and on a terminal a
// progress bar redrawn in place. The command's main() runs in this process with the progress's clock
// injected, so what is drawn does not depend on how fast the machine is; --quiet runs the real script.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { osmExtract, REPO_DIR } from '../support/paths.js';
import { keptStream, runImportCommand } from './command.js';
import { main as importCommand } from '../../importer/cli.js';
import { tempDir } from './support.js';

const CLI = join(REPO_DIR, 'dist', 'importer', 'cli.js');
const dir = tempDir('cli-output');

/** A clock that moves `step` ms each time it is read. */
function steppingClock(step: number): () => number {
  let now = 0;
  return () => (now += step);
}

test('the summary: toilets by element kind, places by kind, skipped by reason, elements read, time and data age', async () => {
  const db = join(dir, 'porto.db');
  // a clock that stands still: the import ends within the first progress interval
  const run = await runImportCommand([osmExtract('porto'), '--db', db], { now: () => 0 });
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

test('--region without a name is a usage error (the next test names one)', async () => {
  const empty = await runImportCommand([osmExtract('porto'), '--db', join(dir, 'porto-region.db'), '--region', ' ']);
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /--region takes the covered region's name, 1 to 100 characters/);
});

test('--quiet prints nothing (the real script, in a process of its own)', () => {
  const run = spawnSync(process.execPath, [CLI, osmExtract('monaco'), '--db', join(dir, 'monaco.db'), '--quiet'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual([run.stdout, run.stderr], ['', '']);
});

// (the progress tests decode on the main thread: the progress is the same with decoder threads, for more CPU)
test('without a terminal: a plain progress line once an interval has passed; --region names the covered region instead of the file name', async () => {
  // 5 s pass between two readings of the clock: every progress sample is a line of its own
  const run = await runImportCommand([osmExtract('monaco'), '--db', join(dir, 'monaco-lines.db'), '--threads', '0', '--region', 'Monaco harbour'], { now: steppingClock(5000) });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /\n {2}covers: Monaco harbour, 7\.409205,43\.72335,7\.448637,43\.75169 \(west,south,east,north; from the extract's header\)\n$/);
  const lines = run.stderr.split('\n').slice(0, -1);
  assert.ok(lines.length >= 2, run.stderr);
  for (const line of lines) assert.match(line, /^import: \d+% of \d+\.\d MB, \d+\.\d MB\/s, [\d,]+ elements, [\d,]+\/s(, ETA \d+:\d\d)?$/);
  assert.ok(!run.stderr.includes('\r'), 'no bar redrawn in place');
});

test('on a terminal: a progress bar redrawn in place, then the summary on a line of its own', async () => {
  // one terminal for both streams, 100 columns wide, as the command sees it under a shell
  const terminal = keptStream(100);
  // 100 ms pass between two readings of the clock: every progress sample is drawn
  const status = await importCommand([osmExtract('porto'), '--db', join(dir, 'porto-bar.db'), '--threads', '0'], { env: process.env, stdout: terminal, stderr: terminal, now: steppingClock(100) });
  assert.equal(status, 0, terminal.text);
  const frames = terminal.text.split('\r').filter((frame) => frame.startsWith('import: [')).map((frame) => frame.split('\n')[0]);
  assert.ok(frames.length >= 2, `redrawn: ${JSON.stringify(terminal.text.slice(0, 400))}`);
  for (const frame of frames) {
    assert.equal(frame.length, 99, 'padded to the terminal width');
    assert.match(frame, /^import: \[[#.]{24}\] \d+% of \d+\.\d MB, \d+\.\d MB\/s, [\d,]+ elements, [\d,]+\/s(, ETA \d+:\d\d)? *$/);
  }
  assert.match(terminal.text, /\r[^\r\n]{99}\nimported into .*porto-bar\.db in \d+\.\d s\n {2}toilets: /, 'the summary starts on a fresh line');
});
