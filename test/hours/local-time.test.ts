import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KOLKATA, MONACO, NEW_YORK, VADUZ, placeAt, stateAt } from './support.js';

const DAILY = 'Mo-Su 08:00-20:00';

test('Europe, DST starts (Vaduz, 29 Mar 2026, 02:00 CET -> 03:00 CEST)', () => {
  // 06:30Z is 08:30 CEST; with the winter offset it would still be 07:30.
  assert.deepEqual(stateAt(DAILY, VADUZ, '2026-03-29T06:30:00Z'), {
    open_now: true,
    closes_at: '2026-03-29T20:00:00+02:00',
    validUntil: Date.parse('2026-03-29T18:00:00Z'),
  });
  assert.equal(stateAt(DAILY, VADUZ, '2026-03-29T05:59:00Z').open_now, false);
  assert.equal(stateAt(DAILY, VADUZ, '2026-03-28T12:00:00Z').closes_at, '2026-03-28T20:00:00+01:00');
});

test('Europe, DST ends (Vaduz, 25 Oct 2026, 03:00 CEST -> 02:00 CET)', () => {
  // 06:30Z is 07:30 CET; with the summer offset it would be 08:30.
  assert.equal(stateAt(DAILY, VADUZ, '2026-10-25T06:30:00Z').open_now, false);
  assert.deepEqual(stateAt(DAILY, VADUZ, '2026-10-25T07:00:00Z'), {
    open_now: true,
    closes_at: '2026-10-25T20:00:00+01:00',
    validUntil: Date.parse('2026-10-25T19:00:00Z'),
  });
});

test('US, DST starts (New York, 8 Mar 2026) and ends (1 Nov 2026)', () => {
  assert.deepEqual(stateAt(DAILY, NEW_YORK, '2026-03-08T12:30:00Z'), {
    open_now: true,
    closes_at: '2026-03-08T20:00:00-04:00',
    validUntil: Date.parse('2026-03-09T00:00:00Z'),
  });
  assert.equal(stateAt(DAILY, NEW_YORK, '2026-11-01T12:30:00Z').open_now, false);
  assert.equal(stateAt(DAILY, NEW_YORK, '2026-11-01T13:00:00Z').closes_at, '2026-11-01T20:00:00-05:00');
});

test('a state never outlives an offset change', () => {
  // 00:30Z is 01:30 CET, closed; the next re-evaluation is due at the switch, not at 08:00.
  assert.equal(stateAt(DAILY, VADUZ, '2026-03-29T00:30:00Z').validUntil, Date.parse('2026-03-29T01:00:00Z'));
  assert.equal(stateAt(DAILY, NEW_YORK, '2026-11-01T05:30:00Z').validUntil, Date.parse('2026-11-01T06:00:00Z'));
});

test('closes_at carries the offset in force at closing time, not now', () => {
  // 21:00 CEST on Saturday; closing at 06:00 on Sunday is after the switch to CET.
  assert.equal(stateAt('Mo-Su 20:00-06:00', VADUZ, '2026-10-24T19:00:00Z').closes_at, '2026-10-25T06:00:00+01:00');
});

test('a range past midnight', () => {
  const night = 'Mo-Su 22:00-02:00';
  assert.deepEqual(stateAt(night, MONACO, '2026-11-21T22:30:00Z'), {
    open_now: true,
    closes_at: '2026-11-22T02:00:00+01:00',
    validUntil: Date.parse('2026-11-22T01:00:00Z'),
  });
  assert.equal(stateAt(night, MONACO, '2026-11-22T00:30:00Z').closes_at, '2026-11-22T02:00:00+01:00');
  assert.equal(stateAt(night, MONACO, '2026-11-22T01:30:00Z').open_now, false);
  assert.equal(stateAt(night, MONACO, '2026-11-22T20:59:00Z').open_now, false);
});

test('closing time skipped by the spring change: closes when the clock jumps past it', () => {
  // 02:00 does not exist on 29 Mar 2026 in Vaduz: clocks go from 01:59:59 CET to 03:00 CEST.
  assert.equal(stateAt('Mo-Su 22:00-02:30', VADUZ, '2026-03-28T22:30:00Z').closes_at, '2026-03-29T03:00:00+02:00');
  assert.equal(stateAt('Mo-Su 22:00-02:30', VADUZ, '2026-03-29T01:00:00Z').open_now, false);
});

test('the hour repeated by the autumn change is evaluated on both passes', () => {
  const rule = 'Mo-Su 01:00-01:30';
  // First pass (EDT): open at 01:10, closes 01:30 EDT.
  assert.deepEqual(stateAt(rule, NEW_YORK, '2026-11-01T05:10:00Z'), {
    open_now: true,
    closes_at: '2026-11-01T01:30:00-04:00',
    validUntil: Date.parse('2026-11-01T05:30:00Z'),
  });
  assert.equal(stateAt(rule, NEW_YORK, '2026-11-01T05:40:00Z').open_now, false);
  // Second pass (EST): the wall clock reads 01:10 again.
  assert.equal(stateAt(rule, NEW_YORK, '2026-11-01T06:10:00Z').closes_at, '2026-11-01T01:30:00-05:00');
});

test('a zone with a half-hour offset and no DST', () => {
  assert.deepEqual(stateAt('Mo-Fr 09:00-17:00', KOLKATA, '2026-11-23T04:00:00Z'), {
    open_now: true,
    closes_at: '2026-11-23T17:00:00+05:30',
    validUntil: Date.parse('2026-11-23T11:30:00Z'),
  });
  assert.equal(stateAt('Mo-Fr 09:00-17:00', KOLKATA, '2026-11-23T03:29:00Z').open_now, false);
});

test('closes_at is ISO 8601 local date-time with seconds and offset', () => {
  const { closes_at } = stateAt('Tu-Su 08:30-13:00,14:30-17:30', VADUZ, '2026-11-22T13:45:00Z');
  assert.match(closes_at ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  assert.equal(closes_at, '2026-11-22T17:30:00+01:00');
  assert.ok(!Number.isNaN(Date.parse(closes_at ?? '')));
});

test('toilets sharing a value in different zones of one country each get their own local time', () => {
  const losAngeles = placeAt(34.0522, -118.2437);
  assert.equal(losAngeles.timeZone, 'America/Los_Angeles');
  // 13:30Z is 08:30 in New York and 05:30 in Los Angeles.
  assert.equal(stateAt(DAILY, NEW_YORK, '2026-11-23T13:30:00Z').closes_at, '2026-11-23T20:00:00-05:00');
  assert.equal(stateAt(DAILY, losAngeles, '2026-11-23T13:30:00Z').open_now, false);
  assert.equal(stateAt(DAILY, losAngeles, '2026-11-23T16:30:00Z').closes_at, '2026-11-23T20:00:00-08:00');
});
