// Enum values are normalised (trim, lower case, inner whitespace collapsed) on every read; the fast path for
// values already in that form, and the codes remembered per raw value, must not change an answer.
import test from 'node:test';
import assert from 'node:assert/strict';
import { codeOf, codeTable, normaliseEnum, UNREADABLE, ABSENT } from '../../importer/mapping/tags.js';

const full = (value: string) => value.trim().toLowerCase().replace(/\s+/g, ' ');

test('normaliseEnum is trim, lower case and collapsed whitespace, for any text', () => {
  const values = ['yes', 'Yes', ' no ', 'no;toilets', 'a  b', 'a\tb', 'x\u00a0y', '\u2003padded\u2003', 'ÄÖÜ', 'İstanbul', 'ǅ', 'already-normal_1:2.3', '', ' ', 'ΣΑΣ', 'straße'];
  for (const value of values) assert.equal(normaliseEnum(value), full(value), JSON.stringify(value));
});

test('codeOf gives the same code for a raw value however often and in whatever order it is asked', () => {
  const table = codeTable({ no: 0, yes: 1, unknown: ABSENT });
  const values = ['yes', 'YES', ' yes ', 'no;yes', 'yes;maybe', 'maybe', 'unknown', '', 'No', 'no ; yes'];
  const first = values.map((value) => codeOf(value, table));
  assert.deepEqual(first, [1, 1, 1, 0, 1, UNREADABLE, ABSENT, ABSENT, 0, 0]);
  for (let round = 0; round < 3; round++) assert.deepEqual([...values].reverse().map((value) => codeOf(value, table)), [...first].reverse());
});
