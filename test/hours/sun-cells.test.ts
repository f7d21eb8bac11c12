// Toilets with sun-time hours share their sun per 0.1° cell: every toilet there gets the sun at the cell's
// centre, whichever toilet of the cell a process happened to compile first.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { HoursCase } from './evaluate-cases.js';
import { placeAt } from './support.js';

// Two places in the cell centred on 60.2° N 25.0° E (Helsinki), 11 km apart: at their own positions the
// library sets the sun a minute apart on both dates (15:12 and 15:11 local on 21 December, 22:49 and
// 22:50 on 21 June), at the centre at 15:12 and 22:50.
const SOUTH_WEST = placeAt(60.151, 24.96);
const NORTH_EAST = placeAt(60.249, 24.99);
const INSTANTS = ['2026-12-21T11:00:00Z', '2026-06-21T11:00:00Z'];
const CENTRE_SUNSETS = ['2026-12-21T15:12:00+02:00', '2026-06-21T22:50:00+03:00'];

const MODULE_URL = new URL('./evaluate-cases.js', import.meta.url).href;
const SCRIPT = `import { evaluateCases } from ${JSON.stringify(MODULE_URL)};
process.stdout.write(JSON.stringify(evaluateCases(JSON.parse(process.argv[1]))));`;

/** Sunsets at each place, evaluated in a fresh process that compiles the places in the order given. */
function sunsetsInFreshProcess(places: ReturnType<typeof placeAt>[]): string[][] {
  const cases: HoursCase[] = places.flatMap((place) => INSTANTS.map((at) => ({ value: 'sunrise-sunset', place, at })));
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, JSON.stringify(cases)], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  const states = JSON.parse(child.stdout) as { closes_at: string | null }[];
  return places.map((_, p) => INSTANTS.map((_, i) => states[p * INSTANTS.length + i].closes_at!));
}

test('toilets of one cell get the sun at its centre, whichever a process compiled first', () => {
  const [southWestFirst, northEastSecond] = sunsetsInFreshProcess([SOUTH_WEST, NORTH_EAST]);
  const [northEastFirst, southWestSecond] = sunsetsInFreshProcess([NORTH_EAST, SOUTH_WEST]);
  for (const sunsets of [southWestFirst, northEastSecond, northEastFirst, southWestSecond]) assert.deepEqual(sunsets, CENTRE_SUNSETS);
});
