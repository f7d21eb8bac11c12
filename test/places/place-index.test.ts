// Matching and ranking of the embedded index, on rows written by hand from names and positions in the
// extracts of ../shared/data/osm (Liechtenstein, Monaco, Porto) and GeoNames.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { buildPlaceIndex } from '../../src/places/build.js';
import type { PlaceIndex } from '../../src/places/place-index.js';
import type { PlaceRecord } from '../../src/places/record.js';
import { ToiletGrid } from '../../src/places/toilet-nearness.js';
import { PLACE_INDEX_DDL, placeIndexBlobs, readPlaceIndex } from '../../src/places/stored.js';

function place(kind: PlaceRecord['kind'], name: string, lat: number, lon: number, importance: number, city: string | null, country: string, altNames: string[] = []): PlaceRecord {
  return { kind, name, alt_names: altNames.length ? altNames.join('\n') : null, lat, lon, importance, city, country };
}

const EXTRACT: PlaceRecord[] = [
  place('settlement', 'Vaduz', 47.1392862, 9.5227962, 0.603, null, 'LI', ['Vaduts', 'Вадуц', 'ファドゥーツ']),
  place('settlement', 'Schaan', 47.1663398, 9.5103087, 0.554, null, 'LI'),
  place('settlement', 'Triesen', 47.1069943, 9.5274916, 0.553, null, 'LI'),
  place('station', 'Schaan-Vaduz', 47.1685925, 9.5081562, 0.45, 'Schaan', 'LI'),
  place('station', 'Schaan Bahnhof', 47.1683, 9.5085, 0.25, 'Schaan', 'LI'),
  place('street', 'Bahnhofstrasse', 47.1673565, 9.5089328, 0.35, 'Schaan', 'LI'),
  place('street', 'Landstrasse', 47.1367, 9.5233, 0.35, 'Vaduz', 'LI'),
  place('street', 'Landstrasse', 47.1063843, 9.5250831, 0.35, 'Triesen', 'LI'),
  place('street', 'Städtle', 47.1402311, 9.5227274, 0.3, 'Vaduz', 'LI'),
  place('street', 'Dr. Josef Hoop-Straße', 47.2161001, 9.5212157, 0.25, 'Eschen', 'LI'),
  place('landmark', 'Schloss Vaduz', 47.1395724, 9.5243503, 0.45, 'Vaduz', 'LI'),
  place('landmark', 'Kunstmuseum Liechtenstein', 47.1395028, 9.522099, 0.45, 'Vaduz', 'LI'),
  place('settlement', 'Monaco', 43.7311424, 7.4197576, 1, null, 'MC', ['Munegu', 'Monako']),
  place('station', 'Monaco - Monte Carlo', 43.738234, 7.4195921, 0.65, 'Monaco', 'MC', ['Monaco-Monte-Carlo']),
  place('settlement', 'Monte-Carlo', 43.7402961, 7.426559, 0.66, 'Monaco', 'MC', ['Monte Carlo']),
  place('landmark', 'Casino de Monte Carlo', 43.7391597, 7.4280195, 0.45, 'Monaco', 'MC'),
  place('street', 'Boulevard des Moulins', 43.7423587, 7.4279126, 0.32, 'Monaco', 'MC'),
  place('station', 'Trindade', 41.1525171, -8.6093526, 0.65, 'Porto', 'PT'),
  place('settlement', 'Porto', 41.1494512, -8.6107884, 1, null, 'PT', ['Oporto']),
  place('street', 'Rua de Santa Catarina', 41.1511297, -8.6053013, 0.3, 'Porto', 'PT'),
];

/** GeoNames towns as world-towns.ts yields them. */
const TOWNS: PlaceRecord[] = [
  place('settlement', 'Vaduz', 47.14151, 9.52154, 0.603, null, 'LI'),
  place('settlement', 'Trindade', -16.64944, -49.48889, 0.811, null, 'BR'),
  place('settlement', 'Vienna', 48.20849, 16.37208, 1, null, 'AT'),
];

/** Toilets in Vaduz, Schaan, Monaco and Porto, as in the extracts. */
const TOILETS = { lat: [47.139, 47.166, 43.736, 41.146], lon: [9.522, 9.509, 7.421, -8.611] };

const index = buildPlaceIndex(EXTRACT, { towns: TOWNS, nearness: ToiletGrid.of(TOILETS).nearness });

function find(text: string, country: string | null = null, near: { lat: number; lon: number } | null = null, from: PlaceIndex = index) {
  return from.find({ text, country, near });
}

test('a town resolves to itself, labelled with its name only', () => {
  assert.deepEqual(find('Vaduz'), { lat: 47.1392862, lon: 9.5227962, label: 'Vaduz' });
  assert.equal(find('Monaco')?.label, 'Monaco');
  assert.equal(find('Oporto')?.label, 'Porto', 'alternative names match, the display name labels');
});

test('a GeoNames town that is a settlement of the extract is dropped; other towns of the world stay', () => {
  assert.equal(index.size, EXTRACT.length + 2);
  assert.deepEqual(find('vienna'), { lat: 48.20849, lon: 16.37208, label: 'Vienna' });
});

test('a street resolves within its town, words in any order, labelled "<street>, <town>"', () => {
  const expected = { lat: 47.1673565, lon: 9.5089328, label: 'Bahnhofstrasse, Schaan' };
  for (const text of ['Bahnhofstrasse, Schaan', 'Schaan Bahnhofstrasse', 'bahnhofstraße schaan', 'Bahnhofstr. Schaan', 'Bahnhof Strasse Schaan']) {
    assert.deepEqual(find(text), expected, text);
  }
  assert.equal(find('Landstrasse, Triesen')?.label, 'Landstrasse, Triesen');
  assert.equal(find('Triesen Landstraße')?.label, 'Landstrasse, Triesen');
  assert.equal(find('Landstrasse Vaduz')?.label, 'Landstrasse, Vaduz');
  assert.equal(find('Josef Hoop Str, Eschen')?.label, 'Dr. Josef Hoop-Straße, Eschen');
});

test('every word must be found: a street in another town, or a stray word, is no match', () => {
  assert.equal(find('Bahnhofstrasse, Vaduz'), null);
  assert.equal(find('Vaduz Bahnhofstrasse'), null);
  assert.equal(find('Vaduz xylophon'), null);
  assert.deepEqual(find('toilets near Schaan'), find('Schaan'), 'filler words need not be found');
});

test('matching ignores case, accents and punctuation and reads other scripts', () => {
  for (const text of ['Städtle', 'stadtle', 'STÄDTLE, vaduz', 'Städtle (Vaduz)']) assert.equal(find(text)?.label, 'Städtle, Vaduz', text);
  assert.equal(find('Вадуц')?.label, 'Vaduz');
  assert.equal(find('ファドゥーツ')?.label, 'Vaduz');
  assert.equal(find('vaduts')?.label, 'Vaduz');
  assert.equal(find('CASINO-de-monte-carlo!')?.label, 'Casino de Monte Carlo, Monaco');
});

test('query abbreviations stand for the words they abbreviate', () => {
  assert.equal(find('Bd des Moulins')?.label, 'Boulevard des Moulins, Monaco');
  assert.equal(find('Blvd. des Moulins, Monaco')?.label, 'Boulevard des Moulins, Monaco');
});

test('a word asking for a station finds the station even when its name lacks the word', () => {
  assert.equal(find('station Monaco')?.label, 'Monaco - Monte Carlo, Monaco');
  assert.equal(find('Monaco train station')?.label, 'Monaco - Monte Carlo, Monaco');
  assert.equal(find('gare monaco')?.label, 'Monaco - Monte Carlo, Monaco');
  assert.equal(find('station Schaan')?.label, 'Schaan-Vaduz, Schaan', 'not the town, and the railway station before the bus stop');
  assert.equal(find('Schaan Bahnhof')?.label, 'Schaan Bahnhof, Schaan', 'a whole name matched comes first');
  assert.equal(find('Bahnhof')?.label, 'Schaan Bahnhof, Schaan', 'alone, a kind word is matched like a name');
});

test('a whole name matched beats a name that has more words', () => {
  assert.equal(find('Monte Carlo')?.label, 'Monte-Carlo, Monaco');
  assert.equal(find('Casino Monte Carlo')?.label, 'Casino de Monte Carlo, Monaco');
  assert.equal(find('Schloss')?.label, 'Schloss Vaduz, Vaduz');
});

test('city and country names narrow the match', () => {
  assert.equal(find('Vaduz, Liechtenstein')?.label, 'Vaduz');
  assert.equal(find('Trindade, Portugal')?.label, 'Trindade, Porto');
  assert.equal(find('Rua de Santa Catarina Porto Portugal')?.label, 'Rua de Santa Catarina, Porto');
  assert.equal(find('Trindade Brazil')?.label, 'Trindade');
  assert.equal(find('Schloss Vaduz Portugal'), null);
});

test('a place with toilets within reach outranks a more important one without', () => {
  assert.equal(find('Trindade')?.label, 'Trindade, Porto');
  const noToilets = buildPlaceIndex(EXTRACT, { towns: TOWNS });
  assert.deepEqual(find('Trindade', null, null, noToilets), { lat: -16.64944, lon: -49.48889, label: 'Trindade' });
});

test('the country keeps only its places; a country without places matches nothing', () => {
  assert.equal(find('Trindade', 'BR')?.label, 'Trindade');
  assert.equal(find('Trindade', 'br')?.label, 'Trindade');
  assert.equal(find('Trindade', 'PT')?.label, 'Trindade, Porto');
  assert.equal(find('Vaduz', 'LI')?.label, 'Vaduz');
  assert.equal(find('Vaduz', 'MC'), null);
  assert.equal(find('Vaduz', 'FR'), null);
});

test('with a position, the nearest of equally good matches wins', () => {
  assert.equal(find('Landstrasse', null, { lat: 47.107, lon: 9.527 })?.label, 'Landstrasse, Triesen');
  assert.equal(find('Landstrasse', null, { lat: 47.139, lon: 9.523 })?.label, 'Landstrasse, Vaduz');
  assert.equal(find('Monaco', null, { lat: 47.107, lon: 9.527 })?.label, 'Monaco', 'a position does not outweigh the match');
});

test('a misspelling by one letter matches when nothing exact does, in words of five letters or more', () => {
  assert.equal(find('Vadzu')?.label, 'Vaduz');
  assert.equal(find('Schan')?.label, 'Schaan');
  assert.equal(find('Schlos Vaduz')?.label, 'Schloss Vaduz, Vaduz');
  assert.equal(find('Kunstmusem')?.label, 'Kunstmuseum Liechtenstein, Vaduz');
  assert.equal(find('Bahnhofstrase, Schaan')?.label, 'Bahnhofstrasse, Schaan');
  assert.equal(find('Trindde', 'PT')?.label, 'Trindade, Porto');
  assert.equal(find('Vadu'), null, 'four letters');
  assert.equal(find('Vazdu'), null, 'two letters away');
});

test('empty, punctuation-only, overlong and absurd queries match nothing', () => {
  assert.equal(find(''), null);
  assert.equal(find('  '), null);
  assert.equal(find('.,;!?-()'), null);
  assert.equal(find('x'.repeat(200)), null);
  assert.equal(find(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')), null);
  assert.equal(find('Vaduz '.repeat(33))?.label, 'Vaduz', 'repeated words count once');
});

test('an index without places answers nothing', () => {
  assert.equal(find('Vaduz', null, null, buildPlaceIndex([])), null);
});

test('a GeoNames town is the extract settlement when one of its names is the same within 10 km', () => {
  const wien = place('settlement', 'Wien', 48.2083537, 16.3725042, 1, null, 'AT', ['Vienna', 'Vienne']);
  const towns = [
    place('settlement', 'Vienna', 48.20849, 16.37208, 1, null, 'AT'),
    place('settlement', 'Vienna', 38.90122, -77.26526, 0.84, null, 'US'),
    place('settlement', 'Wien', 48.4, 16.6, 0.5, null, 'AT'), // 28 km away: another place of that name
  ];
  const merged = buildPlaceIndex([wien], { towns });
  assert.equal(merged.size, 3);
  assert.deepEqual(find('Vienna', 'AT', null, merged), { lat: 48.2083537, lon: 16.3725042, label: 'Wien' });
  assert.equal(find('Vienna', 'US', null, merged)?.lat, 38.90122);
});

test('a place whose name has no letter or digit is left out; an unknown kind is an error', () => {
  assert.equal(buildPlaceIndex([place('landmark', '???', 47.1, 9.5, 0.4, null, 'LI')]).size, 0);
  assert.throws(() => buildPlaceIndex([{ ...place('landmark', 'Tower', 47.1, 9.5, 0.4, null, 'LI'), kind: 'tower' as PlaceRecord['kind'] }]), /unknown place kind "tower"/);
});

// Landstrasse in every municipality of Liechtenstein, at the municipality's centre.
const MUNICIPALITIES: [string, number, number][] = [
  ['Balzers', 47.0667, 9.5], ['Triesen', 47.107, 9.5275], ['Triesenberg', 47.1186, 9.5434], ['Vaduz', 47.1393, 9.5228],
  ['Schaan', 47.1663, 9.5103], ['Planken', 47.1859, 9.5452], ['Eschen', 47.2126, 9.5233], ['Mauren', 47.2197, 9.5418],
  ['Gamprin', 47.2191, 9.5103], ['Ruggell', 47.2398, 9.5263], ['Schellenberg', 47.2312, 9.5458],
];

test('among many equally good matches the best ranked one wins, and with a position the nearest', () => {
  const streets = MUNICIPALITIES.map(([town, lat, lon], i) => place('street', 'Landstrasse', lat, lon, i === 6 ? 0.35 : 0.32, town, 'LI'));
  const alike = buildPlaceIndex([...streets, ...EXTRACT], { nearness: ToiletGrid.of(TOILETS).nearness });
  assert.equal(find('Landstrasse', null, null, alike)?.label, 'Landstrasse, Eschen', 'the most important');
  for (const [town, lat, lon] of MUNICIPALITIES) {
    assert.equal(find('Landstrasse', null, { lat: lat + 0.001, lon }, alike)?.label, `Landstrasse, ${town}`);
  }
});

test('with a position, a match of a higher tier still beats a nearer one of a lower tier', () => {
  // "Museum Vaduz" matches the museum in Vaduz by name and city, and one by that name far from any toilet;
  // the museums elsewhere make "vaduz" the rarer word, so the far one is found first.
  const museums = buildPlaceIndex(
    [
      place('landmark', 'Museum', 47.1389, 9.5228, 0.45, 'Vaduz', 'LI'),
      place('landmark', 'Museum Vaduz', -33.9, 18.4, 0.45, null, 'ZA'),
      place('landmark', 'Museum', 47.166, 9.51, 0.45, 'Schaan', 'LI'),
      place('landmark', 'Museum', 47.107, 9.527, 0.45, 'Triesen', 'LI'),
    ],
    { nearness: ToiletGrid.of(TOILETS).nearness },
  );
  assert.equal(find('Museum Vaduz', null, { lat: -33.9, lon: 18.4 }, museums)?.label, 'Museum, Vaduz');
  assert.equal(find('Museum Vaduz', null, null, museums)?.label, 'Museum, Vaduz');
});

test('a stored index reads back as built, also with its city lists in the order of first use (databases before 2026-11-26)', () => {
  const stored = (blobs: [string, Buffer][]) => {
    const db = new Database(':memory:');
    db.exec(PLACE_INDEX_DDL);
    const insert = db.prepare('INSERT INTO place_index (name, data) VALUES (?, ?)');
    for (const [name, data] of blobs) insert.run(name, data);
    return readPlaceIndex(db);
  };
  const blobs = placeIndexBlobs(index);
  const blob = (name: string) => {
    const data = blobs.find(([n]) => n === name)![1];
    return new Uint32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  };
  // The same lists, last token first, as a Map in order of first use would have stored them.
  const tokens = blob('context.tokens');
  const starts = blob('context.starts');
  const entries = blob('context.entries');
  assert.ok(tokens.length > 1, 'several city-name tokens');
  const oldTokens = tokens.slice().reverse();
  const oldStarts = new Uint32Array(starts.length);
  const oldEntries = new Uint32Array(entries.length);
  for (let i = 0, at = 0; i < oldTokens.length; i++) {
    const from = starts[tokens.length - 1 - i];
    const to = starts[tokens.length - i];
    oldEntries.set(entries.subarray(from, to), at);
    oldStarts[i] = at;
    at += to - from;
    oldStarts[i + 1] = at;
  }
  const older = blobs.map(([name, data]): [string, Buffer] => {
    const replaced = { 'context.tokens': oldTokens, 'context.starts': oldStarts, 'context.entries': oldEntries }[name];
    return [name, replaced ? Buffer.from(replaced.buffer) : data];
  });
  for (const read of [stored(blobs), stored(older)]) {
    for (const part of ['contextStarts', 'contextEntries', 'postingStarts', 'postings'] as const) {
      assert.deepEqual([...read.parts[part]], [...index.parts[part]], part);
    }
    assert.equal(find('Bahnhofstrasse Schaan', null, null, read)?.label, 'Bahnhofstrasse, Schaan');
    assert.equal(find('Landstrasse Triesen', null, null, read)?.label, 'Landstrasse, Triesen');
  }
});
