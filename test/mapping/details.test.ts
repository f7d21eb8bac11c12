// docs/DETAILS.md: each tag a toilet's details come from, its values, the host rule, and the odd values
// mappers write (door widths in three units, systems named in free text, lists, junk).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { doorWidthCm, readDetails } from '../../importer/mapping/index.js';
import { lookupTags } from '../../importer/mapping/tags.js';
import type { ToiletDetails } from '../../src/rules/details.js';

interface Row {
  tags: Record<string, string>;
  host?: boolean;
  expect: ToiletDetails | null;
}

function rows(cases: Row[]): void {
  for (const { tags, host = false, expect } of cases) {
    test(`${host ? 'host ' : ''}${JSON.stringify(tags)}`, () => assert.deepEqual(readDetails(lookupTags(tags), host), expect));
  }
}

const T = { amenity: 'toilets' };
const HOST = { amenity: 'cafe', toilets: 'yes' };

describe('nothing to say', () => {
  rows([
    { tags: T, expect: null },
    { tags: { ...T, wheelchair: 'yes', changing_table: 'yes', fee: 'no' }, expect: null }, // the item's own facts
    { tags: { ...T, centralkey: 'no', 'toilets:position': 'throne', level: 'ground floor', shower: 'maybe' }, expect: null },
  ]);
});

describe('key systems', () => {
  rows([
    { tags: { ...T, centralkey: 'radar' }, expect: { key_systems: ['radar'] } },
    { tags: { ...T, centralkey: 'RADAR' }, expect: { key_systems: ['radar'] } },
    { tags: { ...T, centralkey: 'eurokey' }, expect: { key_systems: ['eurokey'] } },
    { tags: { ...T, centralkey: 'Euroschlüssel' }, expect: { key_systems: ['eurokey'] } },
    { tags: { ...T, centralkey: 'yes' }, expect: { key_systems: ['other'] } },
    { tags: { ...T, centralkey: 'nks' }, expect: { key_systems: ['other'] } },
    { tags: { ...T, centralkey: 'yes', radar_key: 'yes' }, expect: { key_systems: ['radar'] } },
    { tags: { ...T, centralkey: 'eurokey;radar' }, expect: { key_systems: ['radar', 'eurokey'] } },
    { tags: { ...T, radar_key: 'yes' }, expect: { key_systems: ['radar'] } },
    { tags: { ...T, 'toilets:access': 'RADAR key' }, expect: { key_systems: ['radar'] } },
    { tags: { ...T, access: 'key', operator: 'Stadt Zürich (Eurokey)' }, expect: { key_systems: ['eurokey'] } },
    { tags: { ...T, 'toilets:scheme': 'Euro-Key' }, expect: { key_systems: ['eurokey'] } },
    { tags: { ...T, operator: 'Radarweg Services' }, expect: null }, // a word that only contains "radar"
    { host: true, tags: { ...HOST, centralkey: 'radar' }, expect: null }, // the café's own door
    { host: true, tags: { ...HOST, 'toilets:centralkey': 'radar' }, expect: { key_systems: ['radar'] } },
  ]);
});

describe('Changing Places and the changing table', () => {
  rows([
    { tags: { ...T, changing_places: 'yes' }, expect: { changing_places: true } },
    { tags: { ...T, changing_places: 'no' }, expect: { changing_places: false } },
    { tags: { ...T, 'changing_table:location': 'female_toilet;male_toilet' }, expect: { changing_table: { locations: ['female_toilet', 'male_toilet'] } } },
    { tags: { ...T, 'changing_table:location': 'Dedicated_Room; bench' }, expect: { changing_table: { locations: ['dedicated_room'] } } },
    { tags: { ...T, 'changing_table:count': '3', 'changing_table:fee': 'yes', 'changing_table:adult': 'no' }, expect: { changing_table: { count: 3, fee: true, adult: false } } },
    { tags: { ...T, 'changing_table:count': '0' }, expect: null },
    { tags: { ...T, 'changing_table:count': 'two' }, expect: null },
    { tags: { ...T, 'changing_table:location': 'sales_area', 'toilets:changing_table:location': 'room' }, expect: { changing_table: { locations: ['room'] } } },
    { host: true, tags: { ...HOST, 'changing_table:location': 'sales_area' }, expect: null },
    { host: true, tags: { ...HOST, 'toilets:changing_places': 'yes' }, expect: { changing_places: true } },
  ]);
});

describe('wheelchair details', () => {
  rows([
    { tags: { ...T, 'door:width': '0.9' }, expect: { wheelchair: { door_width_cm: 90 } } },
    { tags: { ...T, handrail: 'yes', step_count: '0' }, expect: { wheelchair: { grab_rails: true, step_free: true } } },
    { tags: { ...T, handrail: 'no', step_count: '2' }, expect: { wheelchair: { grab_rails: false, step_free: false } } },
    { tags: { ...T, step_count: '2', 'ramp:wheelchair': 'yes' }, expect: { wheelchair: { step_free: true } } },
    { tags: { ...T, 'wheelchair:description': '  Door opens  outwards. ' }, expect: { wheelchair: { description: 'Door opens outwards.' } } },
    { host: true, tags: { ...HOST, step_count: '0', 'toilets:handrail': 'yes' }, expect: { wheelchair: { grab_rails: true } } },
  ]);
  test('door:width in metres, centimetres, millimetres; ambiguous or impossible widths dropped', () => {
    const cases: [string, number | null][] = [
      ['0.9', 90], ['0,85', 85], ['1', 100], ['.9', null], ['90 cm', 90], ['90cm', 90], ['900 mm', 90], ['0.9 m', 90],
      ['90', null], ['0.2', null], ['4 m', null], ['wide', null], ['', null], ['80-90 cm', null],
    ];
    for (const [value, cm] of cases) assert.equal(doorWidthCm(value), cm, value);
  });
});

describe('washroom and whereabouts', () => {
  rows([
    { tags: { ...T, 'toilets:position': 'urinal;seated;squat;seated' }, expect: { positions: ['seated', 'squat', 'urinal'] } },
    { tags: { ...T, 'toilets:disposal': 'pitlatrine' }, expect: { disposal: ['pitlatrine'] } },
    { tags: { ...T, 'toilets:handwashing': 'no', soap: 'no', 'toilets:paper_supplied': 'yes' }, expect: { handwashing: false, soap: false, paper: true } },
    { tags: { ...T, 'handwashing:soap': 'yes', 'toilets:hands_drying': 'paper_towel;electric_hand_dryer' }, expect: { soap: true, hand_drying: ['electric_hand_dryer', 'paper_towel'] } },
    { tags: { ...T, drinking_water: 'yes', shower: 'cold' }, expect: { drinking_water: true, shower: true } },
    { tags: { ...T, shower: 'no', indoor: 'room' }, expect: { shower: false, indoor: true } },
    { tags: { ...T, level: '-1;0' }, expect: { level: '-1;0' } },
    { tags: { ...T, level: ' 1 ' }, expect: { level: '1' } },
    { tags: { ...T, level: 'UG' }, expect: null },
    { tags: { ...T, description: 'Behind the church' }, expect: { description: 'Behind the church' } },
    { host: true, tags: { ...HOST, level: '2', description: 'Best coffee', 'toilets:level': '-1', 'toilets:description': 'Down the stairs' }, expect: { level: '-1', description: 'Down the stairs' } },
  ]);
  test('a long description is cut at a character, with an ellipsis', () => {
    const long = `${'é'.repeat(498)}😀😀😀`;
    const details = readDetails(lookupTags({ ...T, description: long }), false)!;
    assert.equal(Array.from(details.description!).length, 500);
    assert.ok(details.description!.endsWith('😀…'), details.description!.slice(-4));
  });
});
