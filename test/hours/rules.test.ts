import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LONDON, MADRID, MONACO, VADUZ, placeAt, stateAt } from './support.js';

test('24/7: open, never closes', () => {
  const state = stateAt('24/7', VADUZ, '2026-11-22T10:00:00Z');
  assert.equal(state.open_now, true);
  assert.equal(state.closes_at, null);
  assert.ok(state.validUntil > Date.parse('2026-11-22T10:00:00Z'));
});

test('off and closed alone: closed, no closing time', () => {
  for (const value of ['off', 'closed']) {
    assert.deepEqual(stateAt(value, VADUZ, '2026-11-22T10:00:00Z'), {
      open_now: false,
      closes_at: null,
      validUntil: Date.parse('2026-11-23T10:00:00Z'),
    });
  }
});

test('open end (18:00+): open after 18:00 with no closing time', () => {
  assert.equal(stateAt('18:00+', VADUZ, '2026-11-22T16:00:00Z').open_now, false);
  assert.deepEqual(
    { ...stateAt('18:00+', VADUZ, '2026-11-22T18:00:00Z'), validUntil: 0 },
    { open_now: true, closes_at: null, validUntil: 0 },
  );
  assert.equal(stateAt('18:00+ "last call"', VADUZ, '2026-11-22T18:00:00Z').open_now, true);
});

test('open now with an open end later: closes_at null (the closing time is only guessed)', () => {
  assert.deepEqual(
    { ...stateAt('Mo-Su 08:00-18:00+', VADUZ, '2026-11-22T10:00:00Z') },
    { open_now: true, closes_at: null, validUntil: Date.parse('2026-11-22T17:00:00Z') },
  );
});

test('unknown state or only a comment: unknown', () => {
  assert.equal(stateAt('"by appointment"', VADUZ, '2026-11-22T10:00:00Z').open_now, 'unknown');
  assert.equal(stateAt('Mo-Su unknown', VADUZ, '2026-11-22T10:00:00Z').open_now, 'unknown');
  assert.equal(stateAt('Mo-Fr 08:00-18:00; Su unknown "call"', VADUZ, '2026-11-22T10:00:00Z').open_now, 'unknown');
});

test('open now, next change to unknown: closes_at null', () => {
  const state = stateAt('Mo-Su 08:00-12:00, Mo-Su 12:00-14:00 unknown', VADUZ, '2026-11-22T09:00:00Z');
  assert.equal(state.open_now, true);
  assert.equal(state.closes_at, null);
  assert.equal(state.validUntil, Date.parse('2026-11-22T11:00:00Z'));
});

test('open to open with another comment is not a closing', () => {
  const state = stateAt('Mo-Su 08:00-12:00 open "staffed", 12:00-14:00 open "self-service"', VADUZ, '2026-11-22T08:00:00Z');
  assert.equal(state.closes_at, '2026-11-22T14:00:00+01:00');
});

test('Monaco: Mo 09:00-24:00; Dec 25 off; Jan 1 off', () => {
  const value = 'Mo 09:00-24:00; Dec 25 off; Jan 1 off';
  assert.deepEqual(stateAt(value, MONACO, '2026-11-23T10:00:00Z'), {
    open_now: true,
    closes_at: '2026-11-24T00:00:00+01:00',
    validUntil: Date.parse('2026-11-23T23:00:00Z'),
  });
  assert.equal(stateAt(value, MONACO, '2026-11-24T10:00:00Z').open_now, false);
  // 1 Jan 2029 and 25 Dec 2028 are Mondays.
  assert.equal(stateAt(value, MONACO, '2029-01-01T10:00:00Z').open_now, false);
  assert.equal(stateAt(value, MONACO, '2028-12-25T10:00:00Z').open_now, false);
  assert.equal(stateAt(value, MONACO, '2028-12-18T10:00:00Z').open_now, true);
});

test('Liechtenstein: Tu-Su 08:30-13:00,14:30-17:30 (split day)', () => {
  const value = 'Tu-Su 08:30-13:00,14:30-17:30';
  assert.equal(stateAt(value, VADUZ, '2026-11-22T10:00:00Z').closes_at, '2026-11-22T13:00:00+01:00');
  assert.deepEqual(stateAt(value, VADUZ, '2026-11-22T12:30:00Z'), {
    open_now: false,
    closes_at: null,
    validUntil: Date.parse('2026-11-22T13:30:00Z'),
  });
  assert.equal(stateAt(value, VADUZ, '2026-11-23T10:00:00Z').open_now, false); // Monday
});

test('sunrise-sunset follows the toilet\'s sun in summer and winter time (Madrid)', () => {
  // Published times for Madrid: sunset 21 Jun 2026 21:48 CEST, sunrise 21 Dec 2026 08:34 CET.
  assert.equal(stateAt('sunrise-sunset', MADRID, '2026-06-21T12:00:00Z').closes_at, '2026-06-21T21:48:00+02:00');
  const winterNight = stateAt('sunrise-sunset', MADRID, '2026-12-21T03:00:00Z');
  assert.equal(winterNight.open_now, false);
  assert.equal(winterNight.validUntil, Date.parse('2026-12-21T07:34:00Z'));
});

test('sunset-bound hours far west of the zone meridian (London, winter)', () => {
  // Published sunset for London on 21 Dec 2026: 15:53 GMT.
  assert.equal(stateAt('08:00-sunset', LONDON, '2026-12-21T12:00:00Z').closes_at, '2026-12-21T15:53:00+00:00');
});

test('no sunrise in polar night or polar day: unknown, retried within the hour', () => {
  const tromso = placeAt(69.6492, 18.9553);
  for (const at of ['2026-12-21T12:00:00Z', '2026-06-21T12:00:00Z']) {
    assert.deepEqual(stateAt('sunrise-sunset', tromso, at), {
      open_now: 'unknown',
      closes_at: null,
      validUntil: Date.parse(at) + 3_600_000,
    });
  }
  assert.equal(stateAt('sunrise-sunset', tromso, '2026-03-21T12:00:00Z').open_now, true);
});
