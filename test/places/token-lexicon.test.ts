import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenInterner } from '../../src/places/token-lexicon.js';

test('every interned token is found by string and by bytes, with the id it was given', () => {
  const interner = new TokenInterner();
  const tokens = Array.from({ length: 5000 }, (_, i) => `t${i.toString(36)}x`);
  const ids = tokens.map((token) => interner.intern(token));
  assert.deepEqual(ids, tokens.map((_, i) => i));
  assert.equal(interner.intern(tokens[7]), 7);
  const lexicon = interner.toLexicon();
  assert.equal(lexicon.size, tokens.length);
  tokens.forEach((token, id) => {
    assert.equal(lexicon.idOf(token), id);
    assert.equal(lexicon.idOfBytes(Buffer.from(`${token}zz`), token.length), id);
  });
});

test('tokens that were never interned are not found, prefixes and extensions included', () => {
  const interner = new TokenInterner();
  for (const token of ['vaduz', 'schaan', 'a']) interner.intern(token);
  const lexicon = interner.toLexicon();
  for (const token of ['vadu', 'vaduzz', 'schaa', '', 'b', 'x'.repeat(300)]) assert.equal(lexicon.idOf(token), -1, token);
});

test('the interner takes tokens as byte ranges and looks them up without handing out an id', () => {
  const interner = new TokenInterner();
  const bytes = Buffer.from('..vaduz..schaan..');
  assert.equal(interner.internBytes(bytes, 2, 7), 0);
  assert.equal(interner.intern('schaan'), 1);
  assert.equal(interner.idOfBytes(bytes, 9, 15), 1);
  assert.equal(interner.idOfBytes(bytes, 2, 6), -1);
  assert.equal(interner.size, 2);
  assert.equal(interner.toLexicon().idOf('vaduz'), 0);
});
