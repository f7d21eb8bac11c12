import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldName, nameTokens } from '../../src/places/fold.js';

test('folding drops case, accents and punctuation and transliterates other scripts', () => {
  assert.equal(foldName('Sant Julià de Lòria'), 'sant julia de loria');
  assert.equal(foldName('Städtle'), 'stadtle');
  assert.equal(foldName('Bahnhofstraße'), 'bahnhofstrasse');
  assert.equal(foldName('Ørestad Æbeltoft'), 'orestad aebeltoft');
  assert.equal(foldName('Вадуц'), 'vaduts');
  assert.equal(foldName('  Monaco - Monte Carlo  '), 'monaco monte carlo');
  assert.equal(foldName("Estació Nacional d'Autobussos"), 'estacio nacional d autobussos');
  assert.equal(foldName('TaK (Theater am Kirchplatz)'), 'tak theater am kirchplatz');
});

test('strings without letters or digits fold to nothing', () => {
  assert.equal(foldName(''), '');
  assert.equal(foldName(' ,.;-!?() '), '');
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
