import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nameTokens } from '../../src/places/fold.js';

const folded = (text: string) => nameTokens(text).join(' ');

test('folding drops case, accents and punctuation and transliterates other scripts', () => {
  assert.equal(folded('Sant Julià de Lòria'), 'sant julia de loria');
  assert.equal(folded('Städtle'), 'stadtle');
  assert.equal(folded('Bahnhofstraße'), 'bahnhofstrasse');
  assert.equal(folded('Ørestad Æbeltoft'), 'orestad aebeltoft');
  assert.equal(folded('Вадуц'), 'vaduts');
  assert.equal(folded('  Monaco - Monte Carlo  '), 'monaco monte carlo');
  assert.equal(folded("Estació Nacional d'Autobussos"), 'estacio nacional d autobussos');
  assert.equal(folded('TaK (Theater am Kirchplatz)'), 'tak theater am kirchplatz');
});

test('strings without letters or digits fold to nothing', () => {
  assert.equal(folded(''), '');
  assert.equal(folded(' ,.;-!?() '), '');
  assert.deepEqual(nameTokens('!!! --- ...'), []);
});

test('street abbreviations are written out and German street words joined to the word before', () => {
  assert.deepEqual(nameTokens('Bahnhofstr. 5'), ['bahnhofstrasse', '5']);
  assert.deepEqual(nameTokens('Bahnhof Str.'), ['bahnhofstrasse']);
  assert.deepEqual(nameTokens('Liechtensteiner Straße'), ['liechtensteinerstrasse']);
  assert.deepEqual(nameTokens('Dr. Josef Hoop-Straße'), ['dr', 'josef', 'hoopstrasse']);
  assert.deepEqual(nameTokens('Straße des 17. Juni'), ['strasse', 'des', '17', 'juni']);
  assert.deepEqual(nameTokens('Nendeln Bhf'), ['nendeln', 'bahnhof']);
  assert.deepEqual(nameTokens('Zürich HBF'), ['zurich', 'hauptbahnhof']);
});

test('a name spelt differently gives the same tokens, and repeated words count once', () => {
  assert.deepEqual(nameTokens('LANDSTRASSE'), nameTokens('Landstraße'));
  assert.deepEqual(nameTokens('Porto, Porto'), ['porto']);
});

test('a street word joins the last token kept, and a joined token that repeats one is dropped with its parts', () => {
  assert.deepEqual(nameTokens('A B A Straße'), ['a', 'bstrasse']);
  assert.deepEqual(nameTokens('Hoopstrasse Hoop Straße Kirche'), ['hoopstrasse', 'kirche']);
  assert.deepEqual(nameTokens('Gasse Gasse'), ['gassegasse']);
  assert.deepEqual(nameTokens(`${'x'.repeat(300)} hbf`), ['x'.repeat(300), 'hauptbahnhof']);
});

test('characters outside the Basic Multilingual Plane are transliterated whole, a lone surrogate dropped', () => {
  assert.deepEqual(nameTokens('Café😀Straße'), ['cafe', 'grinningstrasse']); // any-ascii: 😀 → ":grinning:"
  assert.deepEqual(nameTokens('𠀋 Bhf'), ['jo', 'bahnhof']);
  assert.deepEqual(nameTokens('a\ud800b'), ['ab']);
});
