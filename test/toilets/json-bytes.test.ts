import test from 'node:test';
import assert from 'node:assert/strict';
import { JsonBytes } from '../../src/rules/json-bytes.js';
import { seededRandom } from '../support/random.js';

function written(write: (out: JsonBytes) => void): string {
  const out = new JsonBytes();
  write(out);
  return out.text();
}

test('decimal writes every number exactly as String() does', () => {
  const edges = [0, -0, 1, -1, 180, -180, 90, -90, 0.1, 0.1 + 0.2, 1e-6, 9.99e-7, -1e-7, 1023.999999999999, 1024, 1e21, 123456789.123, 41.1, 41.10000000000001, 47.14, -8.611, 0.000001234, 5e-324, 2 ** 53];
  for (const value of edges) assert.equal(written((out) => out.decimal(value)), String(value), `value ${value}`);
  const random = seededRandom(1);
  for (let i = 0; i < 200_000; i++) {
    // coordinates as people send them (1–15 decimals), rounded ones, and arbitrary doubles
    const digits = 1 + Math.floor(random() * 15);
    const raw = (random() - 0.5) * 360;
    const value = i % 3 === 0 ? raw : i % 3 === 1 ? Number(raw.toFixed(digits)) : Math.round(raw * 1e5) / 1e5;
    assert.equal(written((out) => out.decimal(value)), String(value), `value ${value}`);
  }
});

test('integer writes whole numbers, others as String() does', () => {
  for (const value of [0, 7, 10, 99, 100, 4294967295, 4294967296, -3, 2.5]) assert.equal(written((out) => out.integer(value)), String(value));
});

test('fragments and slices of any length and offset are copied exactly, also while the buffer grows and between sources', () => {
  const random = seededRandom(3);
  const sources = [0, 1].map(() => Buffer.from(Array.from({ length: 5000 }, () => 32 + Math.floor(random() * 95))));
  const out = new JsonBytes();
  const expected: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const source = sources[i % 7 === 0 ? 1 : 0];
    const start = Math.floor(random() * 4900);
    const end = start + Math.floor(random() * 100);
    if (i % 3 === 0) {
      const piece = source.subarray(start, start + Math.floor(random() * 20));
      out.bytes(piece);
      expected.push(...piece);
    } else {
      out.range(source, start, end);
      expected.push(...source.subarray(start, end));
    }
  }
  assert.ok(expected.length > 1 << 16, 'grew past the first buffer');
  assert.deepEqual(out.view(), Buffer.from(expected));
});
