import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachEdit, planQuery } from '../../src/places/query-plan.js';
import { TokenInterner } from '../../src/places/token-lexicon.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function editsOf(word: string): Set<string> {
  const seen = new Set<string>();
  forEachEdit(word, (bytes, length) => seen.add(Buffer.from(bytes.subarray(0, length)).toString('latin1')));
  return seen;
}

test('variants one edit away: every deletion, swap, substitution and insertion, never the word itself', () => {
  const variants = editsOf('vaduz');
  for (const expected of ['aduz', 'vadu', 'vauz', 'avduz', 'vadzu', 'vaxuz', 'vaduy', 'xvaduz', 'vaduzx', 'vad0uz']) {
    assert.ok(variants.has(expected), expected);
  }
  assert.ok(!variants.has('vaduz'));
  assert.ok(!variants.has('vdauzz'));
  // 5 deletions, 4 swaps, 5 × 35 substitutions, 6 × 36 insertions, as distinct strings: fewer, since some coincide.
  assert.ok(variants.size <= 5 + 4 + 5 * 35 + 6 * 36);
  for (const variant of variants) assert.match(variant, new RegExp(`^[${ALPHABET}]{4,6}$`));
});

function lexiconOf(...tokens: string[]) {
  const interner = new TokenInterner();
  for (const token of tokens) interner.intern(token);
  return interner.toLexicon();
}

test('a required word no name has makes the plan empty; kind and filler words are optional', () => {
  const lexicon = lexiconOf('monaco', 'street', 'st', 'saint');
  assert.equal(planQuery(['nowhere'], lexicon, false), null);
  const plan = planQuery(['station', 'monaco', 'near'], lexicon, false)!;
  assert.deepEqual(plan.required, [false, true, false]);
  assert.deepEqual(plan.kind.map((k) => k >= 0), [true, false, false]);
  // The optional words have no alternatives in this lexicon; monaco has itself.
  assert.deepEqual([...plan.altStarts], [0, 0, 1, 1]);
  assert.equal(planQuery(['station'], lexicon, false), null, 'alone, an optional word is required');
});

const byNumber = (a: number, b: number) => a - b;

test('synonyms are alternatives; misspellings only on the second pass and only for unknown words', () => {
  const lexicon = lexiconOf('street', 'st', 'saint', 'vaduz', 'vadzum', 'vadus');
  const st = planQuery(['st'], lexicon, false)!;
  assert.deepEqual([...st.altIds].sort(byNumber), [lexicon.idOf('st'), lexicon.idOf('street'), lexicon.idOf('saint')].sort(byNumber));
  assert.equal(planQuery(['vadzu'], lexicon, false), null);
  const fuzzy = planQuery(['vadzu'], lexicon, true)!;
  assert.deepEqual([...fuzzy.altIds].sort(byNumber), [lexicon.idOf('vaduz'), lexicon.idOf('vadzum')].sort(byNumber), 'vadus is two edits away');
  assert.deepEqual([...fuzzy.altFuzzy], [1, 1]);
  assert.equal(fuzzy.unavoidableFuzzy, 1);
  const known = planQuery(['vaduz'], lexicon, true)!;
  assert.deepEqual([...known.altIds], [lexicon.idOf('vaduz')], 'a known word gets no misspelt alternatives');
  assert.equal(planQuery(['vdz'], lexiconOf('vaz'), true), null, 'words under 5 letters are never misspelt');
});
