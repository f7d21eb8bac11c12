// The answers must not depend on the server's TZ: child processes with other zones must agree.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { evaluateCases, type HoursCase } from './evaluate-cases.js';
import { ANDORRA_LA_VELLA, BERLIN, KOLKATA, MADRID, NEW_YORK, VADUZ } from './support.js';

const CASES: HoursCase[] = [
  { value: 'Mo-Su 08:00-20:00', place: VADUZ, at: '2026-03-29T06:30:00Z' },
  { value: 'Mo-Su 08:00-20:00', place: VADUZ, at: '2026-10-25T06:30:00Z' },
  { value: 'Mo-Su 08:00-20:00', place: NEW_YORK, at: '2026-03-08T12:30:00Z' },
  { value: 'Mo-Su 08:00-20:00', place: NEW_YORK, at: '2026-11-01T05:30:00Z' },
  { value: 'Mo-Su 01:00-01:30', place: NEW_YORK, at: '2026-11-01T06:10:00Z' },
  { value: 'Mo-Su 22:00-02:00', place: VADUZ, at: '2026-11-21T22:30:00Z' },
  { value: 'Mo-Su 22:00-02:30', place: VADUZ, at: '2026-03-28T22:30:00Z' },
  { value: 'Mo-Fr 09:00-17:00', place: KOLKATA, at: '2026-11-23T04:00:00Z' },
  { value: 'Mo-Fr 08:00-18:00; PH off', place: BERLIN, at: '2026-12-25T10:00:00Z' },
  { value: 'Sa,PH 10:00-12:00', place: ANDORRA_LA_VELLA, at: '2026-12-26T10:00:00Z' },
  { value: 'sunrise-sunset', place: MADRID, at: '2026-06-21T12:00:00Z' },
  { value: 'sunrise-sunset', place: MADRID, at: '2026-12-21T03:00:00Z' },
  { value: '24/7', place: NEW_YORK, at: '2026-11-22T10:00:00Z' },
  { value: 'daylight hours', place: VADUZ, at: '2026-11-22T10:00:00Z' },
];

const MODULE_URL = new URL('./evaluate-cases.js', import.meta.url).href;
const SCRIPT = `import { evaluateCases } from ${JSON.stringify(MODULE_URL)};
process.stdout.write(JSON.stringify(evaluateCases(JSON.parse(process.argv[1]))));`;

function evaluateInChildWithZone(zone: string): { states: unknown; stderr: string } {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, JSON.stringify(CASES)], {
    env: { ...process.env, TZ: zone },
    encoding: 'utf8',
  });
  assert.equal(child.status, 0, child.stderr);
  return { states: JSON.parse(child.stdout), stderr: child.stderr };
}

const here = JSON.parse(JSON.stringify(evaluateCases(CASES)));

test('the cases include open, closed and unparseable answers', () => {
  const opens = here.map((state: { open_now: unknown } | null) => state?.open_now);
  assert.ok(opens.includes(true) && opens.includes(false) && opens.includes(undefined));
});

test('a worker thread that cannot switch the zone to UTC refuses instead of answering wrongly', () => {
  const worker = `import { Worker } from 'node:worker_threads';
new Worker(${JSON.stringify(`import(${JSON.stringify(MODULE_URL)}).then(() => process.stdout.write('loaded'));`)}, { eval: true })
  .on('error', (error) => process.stdout.write('refused: ' + error.message));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', worker], {
    env: { ...process.env, TZ: 'America/New_York' },
    encoding: 'utf8',
  });
  assert.match(child.stdout, /^refused: opening hours need the process time zone to be UTC/);
});

for (const zone of ['America/New_York', 'Asia/Kolkata', 'Europe/Lisbon']) {
  test(`a server in ${zone} gives the same answers, and the library logs nothing`, () => {
    const { states, stderr } = evaluateInChildWithZone(zone);
    assert.deepEqual(states, here);
    assert.equal(stderr, '');
  });
}
