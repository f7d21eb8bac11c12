// Doc §2.1 name/operator, §2.6 opening_hours candidate, §2.7 wheelchair, §2.8 changing_table, §2.9 gender.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mapToiletTags } from '../../importer/mapping/index.js';
import { testFactsRows } from './rows.js';

describe('§2.1 name and operator', () => {
  testFactsRows([
    { tags: { amenity: 'toilets' }, expect: { name: null, operator: null } },
    { tags: { amenity: 'toilets', name: 'Toiletten' }, expect: { name: 'Toiletten' } },
    { tags: { amenity: 'toilets', name: 'WC' }, expect: { name: 'WC' } },
    { tags: { amenity: 'toilets', name: 'Public toilets', noname: 'yes' }, expect: { name: null } },
    { tags: { amenity: 'toilets', name: 'WC', 'name:signed': 'no' }, expect: { name: null } },
    { tags: { amenity: 'toilets', name: '  ' }, expect: { name: null } },
    { host: true, tags: { amenity: 'cafe', name: 'Café Central', toilets: 'yes', 'toilets:access': 'customers' }, expect: { name: 'Café Central' } },
    { tags: { amenity: 'toilets', operator: 'municipal' }, expect: { operator: 'municipal' } },
    { tags: { amenity: 'toilets', operator: 'Comu' }, expect: { operator: 'Comu' } },
    { tags: { amenity: 'toilets', operator: 'Câmara Municipal;Águas do Porto' }, expect: { operator: 'Câmara Municipal' } },
    { tags: { amenity: 'toilets', brand: 'Sanifair' }, expect: { operator: null } },
    { host: true, tags: { amenity: 'fuel', toilets: 'yes', 'toilets:access': 'customers', brand: 'Shell' }, expect: { operator: 'Shell' } },
    { host: true, tags: { amenity: 'fuel', toilets: 'yes', 'toilets:access': 'customers', operator: 'Tank & Rast', brand: 'Shell' }, expect: { operator: 'Tank & Rast' } },
  ]);
});

describe('§2.6 opening_hours candidate (validated later by the importer)', () => {
  testFactsRows([
    { tags: { amenity: 'toilets' }, expect: { opening_hours: null } },
    { tags: { amenity: 'toilets', opening_hours: ' 24/7 ' }, expect: { opening_hours: '24/7' } },
    { tags: { amenity: 'toilets', opening_hours: 'Mo-Fr  08:00-20:00;\tSa 09:00-12:00' }, expect: { opening_hours: 'Mo-Fr 08:00-20:00; Sa 09:00-12:00' } },
    { tags: { amenity: 'toilets', opening_hours: 'Mo 09:00-24:00; Dec 25 off; Jan 1 off' }, expect: { opening_hours: 'Mo 09:00-24:00; Dec 25 off; Jan 1 off' } },
    // Not validated here: the importer nulls unparseable values and sets HoursUnparseable.
    { tags: { amenity: 'toilets', opening_hours: 'daylight hours' }, expect: { opening_hours: 'daylight hours' } },
    { tags: { amenity: 'toilets', opening_hours: 'Mo-Fr 08:00-20:00', 'toilets:opening_hours': '24/7' }, expect: { opening_hours: '24/7' } },
    { tags: { amenity: 'toilets', 'opening_hours:covid19': 'restricted', 'opening_hours:signed': 'no' }, expect: { opening_hours: null } },
    { host: true, tags: { railway: 'station', toilets: 'yes', opening_hours: '05:00-01:00' }, expect: { opening_hours: '05:00-01:00' } },
    { host: true, tags: { railway: 'station', toilets: 'yes', opening_hours: '05:00-01:00', 'toilets:opening_hours': '06:00-22:00' }, expect: { opening_hours: '06:00-22:00' } },
    { host: true, tags: { railway: 'station', toilets: 'yes', opening_hours: '05:00-01:00', 'toilets:opening_hours': ' ' }, expect: { opening_hours: '05:00-01:00' } },
    // off/closed only: kept (open_now=false), flagged as likely gone.
    { tags: { amenity: 'toilets', opening_hours: 'off' }, expect: { opening_hours: 'off' }, flags: ['AccessInferred', 'LikelyClosed'] },
    { tags: { amenity: 'toilets', opening_hours: 'closed' }, expect: { opening_hours: 'closed' }, flags: ['AccessInferred', 'LikelyClosed'] },
    { tags: { amenity: 'toilets', operational_status: 'closed' }, flags: ['AccessInferred', 'LikelyClosed'], expect: {} },
    { tags: { amenity: 'toilets', opening_hours: 'Dec 25 off' }, flags: ['AccessInferred'], expect: {} },
  ]);
});

describe('§2.7 wheelchair', () => {
  testFactsRows([
    ...['yes', 'designated', 'only'].map((value) => ({ tags: { amenity: 'toilets', wheelchair: value }, expect: { wheelchair: 'yes' as const } })),
    { tags: { amenity: 'toilets', wheelchair: 'limited' }, expect: { wheelchair: 'limited' } },
    { tags: { amenity: 'toilets', wheelchair: 'no' }, expect: { wheelchair: 'no' } },
    { tags: { amenity: 'toilets', wheelchair: 'unknown' }, expect: { wheelchair: 'unknown' } },
    { tags: { amenity: 'toilets', wheelchair: 'bumpy' }, expect: { wheelchair: 'unknown' } },
    { tags: { amenity: 'toilets' }, expect: { wheelchair: 'unknown' } },
    { tags: { amenity: 'toilets', wheelchair: 'yes;limited' }, expect: { wheelchair: 'limited' } },
    { tags: { amenity: 'toilets', disabled: 'designated' }, expect: { wheelchair: 'yes' } },
    { tags: { amenity: 'toilets', disabled: 'yes' }, expect: { wheelchair: 'yes' } },
    { tags: { amenity: 'toilets', wheelchair: 'no', disabled: 'yes' }, expect: { wheelchair: 'no' } },
    { tags: { amenity: 'toilets', wheelchair: 'limited', 'toilets:wheelchair': 'yes' }, expect: { wheelchair: 'yes' } },
    { tags: { amenity: 'toilets', wheelchair: 'yes', 'toilets:wheelchair': 'unknown' }, expect: { wheelchair: 'yes' } },
    // Decision: a central key does not infer wheelchair=yes.
    { tags: { amenity: 'toilets', centralkey: 'radar' }, expect: { wheelchair: 'unknown' } },
    // Porto bar: the host's wheelchair describes the bar, toilets:wheelchair the toilet.
    { host: true, tags: { amenity: 'bar', toilets: 'yes', 'toilets:access': 'customers', wheelchair: 'limited', 'toilets:wheelchair': 'yes' }, expect: { wheelchair: 'yes' } },
    { host: true, tags: { amenity: 'bar', toilets: 'yes', 'toilets:access': 'customers', wheelchair: 'yes' }, expect: { wheelchair: 'unknown' } },
    { host: true, tags: { amenity: 'bar', toilets: 'yes', 'toilets:access': 'customers', disabled: 'yes' }, expect: { wheelchair: 'unknown' } },
  ]);
});

describe('§2.8 changing_table', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', changing_table: 'yes' }, expect: { changing_table: 'yes' } },
    { tags: { amenity: 'toilets', changing_table: 'no' }, expect: { changing_table: 'no' } },
    { tags: { amenity: 'toilets', changing_table: 'limited' }, expect: { changing_table: 'unknown' } },
    { tags: { amenity: 'toilets', changing_table: 'limited', diaper: 'yes' }, expect: { changing_table: 'yes' } },
    { tags: { amenity: 'toilets' }, expect: { changing_table: 'unknown' } },
    { tags: { amenity: 'toilets', changing_table: 'maybe' }, expect: { changing_table: 'unknown' } },
    { tags: { amenity: 'toilets', diaper: 'yes' }, expect: { changing_table: 'yes' } },
    { tags: { amenity: 'toilets', diaper: '2' }, expect: { changing_table: 'yes' } },
    { tags: { amenity: 'toilets', diaper: 'no' }, expect: { changing_table: 'no' } },
    { tags: { amenity: 'toilets', diaper: '0' }, expect: { changing_table: 'no' } },
    { tags: { amenity: 'toilets', baby_changing: 'yes' }, expect: { changing_table: 'yes' } },
    { tags: { amenity: 'toilets', 'not:changing_table': 'yes' }, expect: { changing_table: 'no' } },
    { tags: { amenity: 'toilets', 'changing_table:count': '0' }, expect: { changing_table: 'no' } },
    { tags: { amenity: 'toilets', 'changing_table:count': '1' }, expect: { changing_table: 'yes' } },
    { tags: { amenity: 'toilets', changing_table: 'yes', diaper: 'no' }, expect: { changing_table: 'yes' } },
    // Location and adult (Changing Places) tables have no spec field.
    { tags: { amenity: 'toilets', 'changing_table:adult': 'yes' }, expect: { changing_table: 'unknown' } },
    { tags: { amenity: 'toilets', changing_table: 'yes', 'changing_table:location': 'female_toilet' }, expect: { changing_table: 'yes' } },
    { host: true, tags: { shop: 'mall', toilets: 'yes', 'toilets:changing_table': 'yes' }, expect: { changing_table: 'yes' } },
    { host: true, tags: { shop: 'mall', toilets: 'yes', changing_table: 'yes' }, expect: { changing_table: 'unknown' } },
  ]);
});

describe('§2.9 gender', () => {
  const gender = (...values: ('unisex' | 'female' | 'male')[]) => ({ gender: values });
  testFactsRows([
    { tags: { amenity: 'toilets' }, expect: gender() },
    { tags: { amenity: 'toilets', unisex: 'yes' }, expect: gender('unisex') },
    { tags: { amenity: 'toilets', gender_segregated: 'no' }, expect: gender('unisex') },
    { tags: { amenity: 'toilets', gender: 'unisex' }, expect: gender('unisex') },
    { tags: { amenity: 'toilets', female: 'yes' }, expect: gender('female') },
    { tags: { amenity: 'toilets', female: 'only' }, expect: gender('female') },
    { tags: { amenity: 'toilets', women: 'yes' }, expect: gender('female') },
    { tags: { amenity: 'toilets', male: 'yes' }, expect: gender('male') },
    { tags: { amenity: 'toilets', male: 'only' }, expect: gender('male') },
    { tags: { amenity: 'toilets', men: 'yes' }, expect: gender('male') },
    { tags: { amenity: 'toilets', women: 'yes', men: 'yes' }, expect: gender('female', 'male') },
    { tags: { amenity: 'toilets', gender_segregated: 'yes' }, expect: gender('female', 'male') },
    { tags: { amenity: 'toilets', gender: 'segregated' }, expect: gender('female', 'male') },
    { tags: { amenity: 'toilets', gender_segregated: 'yes', male: 'no' }, expect: gender('female') },
    { tags: { amenity: 'toilets', gender_segregated: 'yes', female: 'yes' }, expect: gender('female') },
    { tags: { amenity: 'toilets', male: 'yes', female: 'yes', unisex: 'yes' }, expect: gender('unisex', 'female', 'male') },
    { tags: { amenity: 'toilets', female: 'no', male: 'no', unisex: 'no' }, expect: gender() },
    { tags: { amenity: 'toilets', women: 'yes', female: 'no' }, expect: gender() },
    { tags: { amenity: 'toilets', child: 'only' }, expect: gender() },
    { tags: { amenity: 'toilets', 'toilets:position': 'urinal' }, expect: gender() },
    { tags: { amenity: 'toilets', 'toilets:position': 'urinal', male: 'yes' }, expect: gender('male') },
    { tags: { amenity: 'toilets', male: 'yes', 'toilets:male': 'no', female: 'yes' }, expect: gender('female') },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'customers', 'toilets:unisex': 'yes', male: 'yes' }, expect: gender('unisex') },
  ]);

  test('the gender arrays are frozen, so a shared array cannot be changed by one record', () => {
    const facts = mapToiletTags({ amenity: 'toilets', female: 'yes' }, { country: null, host: false });
    assert.throws(() => facts.gender.push('male'), TypeError);
  });
});

describe('quality flags from tags', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', access: 'yes', fixme: 'position?' }, flags: ['Fixme'], expect: {} },
    { tags: { amenity: 'toilets', access: 'yes', FIXME: 'check hours' }, flags: ['Fixme'], expect: {} },
    // Free text is never parsed for facts.
    { tags: { amenity: 'toilets', access: 'yes', note: 'Closed when I was there in 07/2016' }, flags: [], expect: { opening_hours: null } },
    { tags: { amenity: 'toilets', access: 'yes', description: 'key at the counter' }, flags: [], expect: { access_rule: 'unknown' } },
  ]);
});
