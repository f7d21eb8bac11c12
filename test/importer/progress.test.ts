// The import's progress: a bar redrawn in place on a terminal, a plain line every few seconds otherwise
// (cron, logs), nothing with --quiet; each with bytes and elements per second and the time left.
import test from 'node:test';
import assert from 'node:assert/strict';
import { ProgressReporter } from '../../importer/progress.js';

/** A stream that keeps what is written; `isTTY` and `columns` as a terminal (or a pipe) reports them. */
function stream(isTTY: boolean, columns?: number) {
  const written: string[] = [];
  return { written, isTTY, columns, write: (text: string) => written.push(text) > 0 };
}

const MB = 1048576;

test('on a terminal: a bar redrawn in place at most every 100 ms, with rates and time left, ended by finish()', () => {
  const out = stream(true, 120);
  let now = 1_000_000;
  const progress = new ProgressReporter(out, false, () => now);
  const sample = (done: number, elements: number) => ({ label: 'import', done, total: 100 * MB, count: { name: 'elements', value: elements } });
  progress.update(sample(1 * MB, 1000));
  assert.deepEqual(out.written, [], 'no 0% line at the start');
  now += 2000;
  progress.update(sample(25 * MB, 500_000));
  now += 50;
  progress.update(sample(26 * MB, 510_000));
  assert.equal(out.written.length, 1, 'not redrawn within 100 ms');
  assert.equal(out.written[0], `\r${'import: [######..................] 25% of 100.0 MB, 12.5 MB/s, 500,000 elements, 250,000/s, ETA 0:06'.padEnd(119)}`);
  now += 100;
  progress.update(sample(50 * MB, 1_000_000));
  assert.match(out.written[1], /^\rimport: \[#{12}\.{12}\] 50% of 100\.0 MB, 23\.3 MB\/s, 1,000,000 elements, 465,116\/s, ETA 0:02 *$/);
  progress.finish();
  progress.finish();
  assert.deepEqual(out.written.slice(2), ['\n'], 'the line ended once');
});

test('no time left is guessed in the first second', () => {
  const out = stream(true, 80);
  let now = 0;
  const progress = new ProgressReporter(out, false, () => now);
  now = 100;
  progress.update({ label: 'import', done: 4096, total: 10 * MB });
  now = 1000;
  progress.update({ label: 'import', done: MB, total: 10 * MB });
  assert.doesNotMatch(out.written[0], /ETA/);
  assert.match(out.written[1], /10% of 10\.0 MB, 1\.0 MB\/s, ETA 0:09 *$/);
});

test('without a terminal: a plain line every 5 s, no bar; an unknown size shows what has come so far', () => {
  const out = stream(false);
  let now = 0;
  const progress = new ProgressReporter(out, false, () => now);
  now = 4999;
  progress.update({ label: 'download', done: 10 * MB, total: null });
  assert.deepEqual(out.written, []);
  now = 5000;
  progress.update({ label: 'download', done: 10 * MB, total: null });
  now = 10_000;
  progress.update({ label: 'download', done: 30 * MB, total: null });
  progress.finish();
  assert.deepEqual(out.written, ['download: 10.0 MB, 2.0 MB/s\n', 'download: 30.0 MB, 3.0 MB/s\n'], 'no line ending needed after plain lines');
});

test('--quiet: nothing at all', () => {
  for (const isTTY of [true, false]) {
    const out = stream(isTTY, 80);
    let now = 0;
    const progress = new ProgressReporter(out, true, () => now);
    now = 60_000;
    progress.update({ label: 'import', done: MB, total: 2 * MB });
    progress.finish();
    assert.deepEqual(out.written, []);
  }
});
