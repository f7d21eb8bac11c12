import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkHours, compileHours } from '../../src/hours/index.js';
import { parseForPlace } from '../../src/hours/parse.js';
import { ANDORRA_LA_VELLA, BERLIN, KOLKATA, LONDON, MADRID, MONACO, NEW_YORK, VADUZ, placeAt, stateAt } from './support.js';

const UNPARSEABLE = [
  '08:00-20:00 (summer)',
  'daylight hours',
  'Segunda a Sexta 09:00-18:00',
  'Mo-Fr 08:00-18:00; feiertags geschlossen',
  'Mo-Fr 08h00-18h00',
  '24/24',
  '',
  '   ',
];

test('unparseable values: ok=false with the library\'s message on one line, and no compiled hours', () => {
  for (const value of UNPARSEABLE) {
    const result = checkHours(value, VADUZ);
    assert.equal(result.ok, false, value);
    if (result.ok) continue;
    assert.ok(result.reason.length > 0 && !/[\r\n]/.test(result.reason), `${value}: ${result.reason}`);
    assert.equal(compileHours(value, VADUZ), null, value);
  }
});

test('the reason names what the library could not read', () => {
  const daylight = checkHours('daylight hours', VADUZ);
  assert.ok(!daylight.ok && daylight.reason.includes('daylight'));
  const summer = checkHours('08:00-20:00 (summer)', VADUZ);
  assert.ok(!summer.ok && summer.reason.includes('summer'));
});

test('values the library reads with mere formatting warnings are valid', () => {
  for (const value of ['Mo-Fr 8-18', 'Mo-Fr 08:00 - 18:00', 'mo-fr 08:00-18:00', ' Mo-Fr 08:00-18:00 ', 'Mo-Fr 08:00-18:00;']) {
    assert.deepEqual(checkHours(value, VADUZ), { ok: true, holidaysUnresolved: false }, value);
  }
  assert.equal(stateAt(' Mo-Fr 8-18 ', VADUZ, '2026-11-23T16:30:00Z').closes_at, '2026-11-23T18:00:00+01:00');
});

test('PH off with German holiday data: closed on Christmas Day', () => {
  const value = 'Mo-Fr 08:00-18:00; PH off';
  assert.deepEqual(checkHours(value, BERLIN), { ok: true, holidaysUnresolved: false });
  assert.equal(stateAt(value, BERLIN, '2026-12-25T10:00:00Z').open_now, false); // a Friday
  assert.equal(stateAt(value, BERLIN, '2026-12-23T10:00:00Z').closes_at, '2026-12-23T18:00:00+01:00');
  // Christmas Eve is no public holiday in Germany.
  assert.equal(stateAt(value, BERLIN, '2026-12-24T10:00:00Z').open_now, true);
});

test('PH resolves from the country at the coordinates (US Thanksgiving)', () => {
  const value = 'Mo-Fr 09:00-17:00; PH off';
  assert.equal(stateAt(value, NEW_YORK, '2026-11-26T15:00:00Z').open_now, false);
  assert.equal(stateAt(value, NEW_YORK, '2026-11-25T15:00:00Z').open_now, true);
});

test('PH resolves from the subdivision where the library needs one (England: Boxing Day substitute)', () => {
  const value = 'Mo-Fr 09:00-17:00; PH off';
  assert.deepEqual(checkHours(value, LONDON), { ok: true, holidaysUnresolved: false });
  // 26 Dec 2026 is a Saturday; England's substitute bank holiday is Monday 28 Dec.
  assert.equal(stateAt(value, LONDON, '2026-12-28T12:00:00Z').open_now, false);
  assert.equal(stateAt(value, LONDON, '2026-12-29T12:00:00Z').open_now, true);
});

test('PH without holiday data (Liechtenstein): valid, flagged, and PH matches no day', () => {
  const value = 'Mo-Fr 08:00-18:00; PH off';
  assert.deepEqual(checkHours(value, VADUZ), { ok: true, holidaysUnresolved: true });
  assert.deepEqual(stateAt(value, VADUZ, '2026-12-25T10:00:00Z'), {
    open_now: true,
    closes_at: '2026-12-25T18:00:00+01:00',
    validUntil: Date.parse('2026-12-25T17:00:00Z'),
  });
  assert.equal(stateAt('PH off', VADUZ, '2026-12-25T10:00:00Z').open_now, false);
});

test('PH in day lists and holiday-only rules without holiday data (Andorra)', () => {
  // 26 Dec 2026 is a Saturday, 25 Dec a Friday.
  assert.equal(stateAt('Sa,PH 10:00-12:00', ANDORRA_LA_VELLA, '2026-12-26T10:00:00Z').open_now, true);
  assert.equal(stateAt('PH,Sa 10:00-12:00', ANDORRA_LA_VELLA, '2026-12-26T10:00:00Z').open_now, true);
  assert.equal(stateAt('Sa,PH 10:00-12:00', ANDORRA_LA_VELLA, '2026-12-25T10:00:00Z').open_now, false);
  const withHolidayService = 'Mo-Fr 08:00-18:00, PH 10:00-12:00 "holiday service" || "call us"';
  assert.deepEqual(checkHours(withHolidayService, ANDORRA_LA_VELLA), { ok: true, holidaysUnresolved: true });
  // Friday 25 Dec: the Mo-Fr rule holds; at 18:00 the fallback's "call us" (unknown) takes over.
  assert.deepEqual(stateAt(withHolidayService, ANDORRA_LA_VELLA, '2026-12-25T12:00:00Z'), {
    open_now: true,
    closes_at: null,
    validUntil: Date.parse('2026-12-25T17:00:00Z'),
  });
  assert.equal(stateAt(withHolidayService, ANDORRA_LA_VELLA, '2026-12-26T12:00:00Z').open_now, 'unknown');
  const holidaySplit = 'Mo-Fr 08:00-18:00; PH 10:00-12:00 "holiday service"; Su off "closed on Sundays"';
  assert.equal(stateAt(holidaySplit, ANDORRA_LA_VELLA, '2026-12-25T12:00:00Z').closes_at, '2026-12-25T18:00:00+01:00');
  assert.equal(stateAt(holidaySplit, ANDORRA_LA_VELLA, '2026-12-27T10:00:00Z').open_now, false);
});

test('SH with PH at sea (no country, so no calendars), and PH with a day offset (Andorra)', () => {
  const ship = placeAt(30, -40);
  assert.deepEqual(checkHours('Mo-Fr 08:00-18:00; SH,PH off', ship), { ok: true, holidaysUnresolved: true });
  assert.equal(stateAt('Mo-Fr 08:00-18:00; SH,PH off', ship, '2026-12-25T12:00:00Z').open_now, true);
  // 27 Dec 2026 is a Sunday, 26 Dec a Saturday.
  const offsetHoliday = 'Su,PH -1 day 10:00-12:00';
  assert.equal(stateAt(offsetHoliday, ANDORRA_LA_VELLA, '2026-12-27T10:00:00Z').open_now, true);
  assert.equal(stateAt(offsetHoliday, ANDORRA_LA_VELLA, '2026-12-26T10:00:00Z').open_now, false);
});

test('PH named only in a comment needs no calendar', () => {
  assert.deepEqual(checkHours('Mo-Fr 08:00-18:00 "closed on PH"', VADUZ), { ok: true, holidaysUnresolved: false });
});

test('school holidays from the library\'s data (Liechtenstein winter holidays 2026/27)', () => {
  const value = 'Mo-Fr 08:00-18:00; SH off';
  assert.deepEqual(checkHours(value, VADUZ), { ok: true, holidaysUnresolved: false });
  assert.equal(stateAt(value, VADUZ, '2026-12-28T10:00:00Z').open_now, false);
  assert.equal(stateAt(value, VADUZ, '2026-12-22T10:00:00Z').open_now, true);
});

test('school holidays past the years the library lists: SH matches no day instead of failing', () => {
  assert.deepEqual(stateAt('Mo-Fr 08:00-18:00; SH off', VADUZ, '2027-07-20T10:00:00Z'), {
    open_now: true,
    closes_at: '2027-07-20T18:00:00+02:00',
    validUntil: Date.parse('2027-07-20T16:00:00Z'),
  });
});

test('school holidays needing a region the coordinates do not give (Germany has SH per state)', () => {
  assert.deepEqual(checkHours('Mo-Fr 08:00-18:00; SH off', BERLIN), { ok: true, holidaysUnresolved: true });
});

test('a check without a parse per region (the value\'s calendars all in the region) answers as the parse there does', () => {
  // checkHours skips the library's parse where the region has every calendar a value names (parse.ts,
  // checkWithItsCalendars): the answers must be those of the full parse, in regions with and without calendars.
  const values = [
    'Mo-Fr 08:00-18:00; PH off',
    'Mo-Sa 07:00-21:00; Su,PH 09:00-18:00',
    'PH off',
    'Mo-Fr 08:00-18:00; SH off',
    'Mo-Fr 08:00-18:00; SH,PH off',
    'PH,SH 10:00-12:00',
    'Su,PH -1 day 10:00-12:00',
    'Mo-Fr 08:00-18:00 "closed on PH"',
    'Mo-Fr 08:00-18:00; PH off; feiertags geschlossen',
    'sunrise-sunset; PH off',
    'Mo-Fr 08:00-18:00; PH',
  ];
  const places = [
    BERLIN, placeAt(48.137, 11.575), placeAt(53.551, 9.994), placeAt(48.208, 16.373), placeAt(47.377, 8.541), placeAt(48.857, 2.352),
    LONDON, placeAt(55.953, -3.188), MADRID, placeAt(41.903, 12.496), placeAt(52.370, 4.895), placeAt(50.850, 4.352), placeAt(59.329, 18.069),
    NEW_YORK, placeAt(34.052, -118.244), placeAt(43.653, -79.383), placeAt(-23.550, -46.633), placeAt(-33.869, 151.209), placeAt(35.690, 139.692),
    KOLKATA, VADUZ, ANDORRA_LA_VELLA, MONACO, placeAt(-33.925, 18.424), placeAt(19.433, -99.133), placeAt(30, -40),
  ];
  for (const value of values) {
    for (const place of places) {
      const parsed = parseForPlace(value, place);
      const expected = 'reason' in parsed ? { ok: false, reason: parsed.reason } : { ok: true, holidaysUnresolved: parsed.holidaysUnresolved };
      assert.deepEqual(checkHours(value, place), expected, `${value} at ${place.lat},${place.lon} (${place.country})`);
    }
  }
});
