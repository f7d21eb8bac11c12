// The import checks opening_hours per toilet through checkHours, whose answers are shared per value and
// holiday region. Sun-time values are checked as syntax: where or when the sun does not rise, they are still
// valid opening_hours (the library's own check would fail there, depending on the import date).
import test from 'node:test';
import assert from 'node:assert/strict';
import { checkHours } from '../../src/hours/index.js';

const TROMSO = { lat: 69.65, lon: 18.96, country: 'NO', timeZone: 'Europe/Oslo' };
const LISBON = { lat: 38.72, lon: -9.14, country: 'PT', timeZone: 'Europe/Lisbon' };
const MCMURDO = { lat: -77.85, lon: 166.67, country: null, timeZone: 'Antarctica/McMurdo' };

test('a sun-time value is valid whatever the latitude', () => {
  for (const place of [TROMSO, LISBON, MCMURDO]) {
    assert.deepEqual(checkHours('sunrise-sunset', place), { ok: true, holidaysUnresolved: false });
    assert.deepEqual(checkHours('Mo-Su (sunrise+01:00)-(sunset-00:30)', place), { ok: true, holidaysUnresolved: false });
  }
  assert.equal(checkHours('dawn to dusk', TROMSO).ok, false, 'words the library only guesses still fail');
});

test('the same value in another holiday region is checked for that region', () => {
  assert.deepEqual(checkHours('Mo-Fr 08:00-18:00; PH off', LISBON), { ok: true, holidaysUnresolved: false });
  assert.deepEqual(checkHours('Mo-Fr 08:00-18:00; PH off', { ...LISBON, lat: 47.14, lon: 9.52, country: 'LI' }), { ok: true, holidaysUnresolved: true });
  assert.deepEqual(checkHours('Mo-Fr 08:00-18:00; PH off', LISBON), { ok: true, holidaysUnresolved: false });
});
