import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zoneClock } from '../../src/hours/zone-clock.js';

const HOUR = 3_600_000;
const wall = (iso: string) => Date.parse(iso + 'Z');

test('offsets of zones east, west, half-hour and zero', () => {
  assert.equal(zoneClock('Europe/Vaduz').offsetAt(Date.parse('2026-01-15T12:00:00Z')), HOUR);
  assert.equal(zoneClock('Europe/Vaduz').offsetAt(Date.parse('2026-07-15T12:00:00Z')), 2 * HOUR);
  assert.equal(zoneClock('America/New_York').offsetAt(Date.parse('2026-01-15T12:00:00Z')), -5 * HOUR);
  assert.equal(zoneClock('Asia/Kolkata').offsetAt(Date.parse('2026-01-15T12:00:00Z')), 5.5 * HOUR);
  assert.equal(zoneClock('Europe/Lisbon').offsetAt(Date.parse('2026-01-15T12:00:00Z')), 0);
});

test('clocks are shared per zone', () => {
  assert.equal(zoneClock('Europe/Monaco'), zoneClock('Europe/Monaco'));
});

test('the next offset change is found to the second', () => {
  const change = (zone: string, from: string, to: string) => zoneClock(zone).nextOffsetChange(Date.parse(from), Date.parse(to));
  assert.equal(change('Europe/Vaduz', '2026-03-28T12:34:56.789Z', '2026-03-29T12:00:00Z'), Date.parse('2026-03-29T01:00:00Z'));
  assert.equal(change('Europe/Vaduz', '2026-03-27T12:00:00Z', '2026-03-28T12:00:00Z'), undefined);
  assert.equal(change('Asia/Tokyo', '2026-03-28T12:00:00Z', '2026-03-29T12:00:00Z'), undefined);
});

test('wall time to instant: ordinary, skipped and repeated', () => {
  const newYork = zoneClock('America/New_York');
  const before = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(newYork.instantOfWall(wall('2026-07-01T12:00:00'), before), Date.parse('2026-07-01T16:00:00Z'));
  // 02:30 on 8 Mar 2026 does not exist: the clock passes it when it jumps to 03:00 EDT (07:00Z).
  assert.equal(newYork.instantOfWall(wall('2026-03-08T02:30:00'), before), Date.parse('2026-03-08T07:00:00Z'));
  // 01:30 on 1 Nov 2026 happens twice: first EDT, then EST for instants after the first.
  assert.equal(newYork.instantOfWall(wall('2026-11-01T01:30:00'), before), Date.parse('2026-11-01T05:30:00Z'));
  const secondPass = newYork.instantOfWall(wall('2026-11-01T01:30:00'), Date.parse('2026-11-01T06:00:00Z'));
  assert.equal(secondPass, Date.parse('2026-11-01T06:30:00Z'));
});

test('local ISO 8601 with the offset at that instant', () => {
  assert.equal(zoneClock('Europe/Vaduz').localIso(Date.parse('2026-11-22T17:00:00Z')), '2026-11-22T18:00:00+01:00');
  assert.equal(zoneClock('America/New_York').localIso(Date.parse('2026-07-01T16:00:05Z')), '2026-07-01T12:00:05-04:00');
  assert.equal(zoneClock('Asia/Kolkata').localIso(Date.parse('2026-11-22T00:00:00Z')), '2026-11-22T05:30:00+05:30');
  assert.equal(zoneClock('UTC').localIso(Date.parse('2026-11-22T00:00:00Z')), '2026-11-22T00:00:00+00:00');
});
