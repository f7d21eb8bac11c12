import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TupleNumbers } from '../../importer/tuple-numbers.js';
import { seededRandom } from '../support/random.js';

test('tuples are numbered from 1 in order of first appearance, as a Map of their texts would', () => {
  const random = seededRandom(7);
  // Few values per position, so tuples repeat; more distinct tuples than the table's first 4,096 slots.
  const values = [0, 1, 2, 3, 7, 2.5, -1, 65536, 4294967295, Number.NaN];
  const width = 6;
  const numbers = new TupleNumbers(width);
  const reference = new Map<string, number>();
  const tuple = new Float64Array(width);
  for (let i = 0; i < 60_000; i++) {
    for (let p = 0; p < width; p++) tuple[p] = values[Math.floor(random() ** 2 * values.length)];
    const text = Array.from(tuple, String).join(' ');
    if (!reference.has(text)) reference.set(text, reference.size + 1);
    assert.equal(numbers.numberOf(tuple, 0), reference.get(text), text);
  }
  assert.ok(reference.size > 10_000, `only ${reference.size} distinct tuples`);
  assert.equal(numbers.count, reference.size);
});

test('NaN equals NaN whatever its bits, -0 equals 0, and a tuple is read at its offset', () => {
  const numbers = new TupleNumbers(2);
  const otherNaN = new Float64Array(new Uint32Array([1, 0x7ff80000]).buffer)[0];
  assert.equal(numbers.numberOf([Number.NaN, 0], 0), 1);
  assert.equal(numbers.numberOf([otherNaN, -0], 0), 1);
  assert.equal(numbers.numberOf([9, 9, Number.NaN, 1], 2), 2);
  assert.equal(numbers.numberOf([Number.NaN, 1], 0), 2);
});
