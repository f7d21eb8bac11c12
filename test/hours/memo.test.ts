import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileHours } from '../../src/hours/index.js';
import { VADUZ } from './support.js';

function compiled(value: string) {
  const hours = compileHours(value, VADUZ);
  assert.ok(hours !== null);
  return hours;
}

test('the same state object is returned until validUntil, a fresh one from then on', () => {
  const hours = compiled('Tu-Su 08:30-13:00,14:30-17:30');
  const first = hours.stateAt(Date.parse('2026-11-22T09:00:00Z'));
  assert.equal(first.validUntil, Date.parse('2026-11-22T12:00:00Z'));
  assert.equal(hours.stateAt(Date.parse('2026-11-22T10:00:00Z')), first);
  assert.equal(hours.stateAt(first.validUntil - 1), first);
  const next = hours.stateAt(first.validUntil);
  assert.notEqual(next, first);
  assert.deepEqual(next, { open_now: false, closes_at: null, validUntil: Date.parse('2026-11-22T13:30:00Z') });
});

test('an earlier instant is evaluated afresh, never answered from a later state', () => {
  const hours = compiled('Tu-Su 08:30-13:00,14:30-17:30');
  assert.equal(hours.stateAt(Date.parse('2026-11-22T09:00:00Z')).open_now, true);
  assert.equal(hours.stateAt(Date.parse('2026-11-22T07:00:00Z')).open_now, false);
});

test('a state that never changes is still re-evaluated within a day', () => {
  const hours = compiled('24/7');
  const now = Date.parse('2026-11-22T09:00:00Z');
  const state = hours.stateAt(now);
  assert.equal(state.validUntil, now + 86_400_000);
  assert.notEqual(hours.stateAt(state.validUntil), state);
});
