// Doc §5: tricky real-world values, one row each, in the order the doc lists them.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classify, parseCharge } from '../../importer/mapping/index.js';
import { testFactsRows } from './rows.js';

describe('§5 fees in the wrong key, charges, payment notes, fee:conditional', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', fee: '50p' }, expect: { fee: { required: true, amount: 0.5, currency: 'GBP' }, access_rule: 'fee' } },
    { tags: { amenity: 'toilets', fee: '30p' }, expect: { fee: { required: true, amount: 0.3, currency: 'GBP' } } },
    { tags: { amenity: 'toilets', fee: '£0.20' }, expect: { fee: { required: true, amount: 0.2, currency: 'GBP' } } },
    { tags: { amenity: 'toilets', charge: '£0.20' }, expect: { fee: { required: true, amount: 0.2, currency: 'GBP' } } },
    { tags: { amenity: 'toilets', charge: '0.20 GBP' }, expect: { fee: { required: true, amount: 0.2, currency: 'GBP' } } },
    { tags: { amenity: 'toilets', 'payment:notes': 'GBP 0.2' }, expect: { fee: { required: null, amount: null, currency: null } } },
    { tags: { amenity: 'toilets', fee: 'no', 'fee:conditional': 'no @ (event day)' }, expect: { fee: { required: false, amount: null, currency: null } } },
  ]);
});

describe('§5 access values', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', access: 'public' }, expect: { access: 'public' }, flags: [] },
    { tags: { amenity: 'toilets', access: 'fee' }, expect: { access: 'public', fee: { required: true, amount: null, currency: null } } },
    { tags: { amenity: 'toilets', access: 'passengers' }, expect: { access: 'customers', access_rule: 'customers' } },
    { tags: { amenity: 'toilets', access: 'permit' }, expect: { access: 'customers' } },
    { tags: { amenity: 'toilets', access: 'unknown' }, expect: { access: 'public' }, flags: ['AccessInferred'] },
    { tags: { amenity: 'toilets', 'toilets:access': 'key' }, expect: { access: 'permissive', access_rule: 'key' } },
    // Andorra: the key hint lives in a note, which is free text and not parsed.
    { tags: { amenity: 'toilets', note: 'key available at the counter of the café' }, expect: { access: 'public', access_rule: 'unknown' } },
  ]);
});

describe('§5 wheelchair values', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', wheelchair: 'only' }, expect: { wheelchair: 'yes' } },
    { tags: { amenity: 'toilets', wheelchair: 'designated' }, expect: { wheelchair: 'yes' } },
    { tags: { amenity: 'toilets', disabled: 'designated' }, expect: { wheelchair: 'yes' } },
    { host: true, tags: { amenity: 'bar', toilets: 'yes', 'toilets:access': 'customers', wheelchair: 'limited', 'toilets:wheelchair': 'yes' }, expect: { wheelchair: 'yes' } },
  ]);
});

describe('§5 gender values', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', female: 'only' }, expect: { gender: ['female'] } },
    { tags: { amenity: 'toilets', child: 'only' }, expect: { gender: [] } },
    { tags: { amenity: 'toilets', gender: 'segregated' }, expect: { gender: ['female', 'male'] } },
    { tags: { amenity: 'toilets', women: 'yes', men: 'yes' }, expect: { gender: ['female', 'male'] } },
    { tags: { amenity: 'toilets', unisex: 'yes', male: 'yes', female: 'yes' }, expect: { gender: ['unisex', 'female', 'male'] } },
  ]);
});

describe('§5 changing table values', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', changing_table: 'limited' }, expect: { changing_table: 'unknown' } },
    { tags: { amenity: 'toilets', 'not:changing_table': 'yes' }, expect: { changing_table: 'no' } },
    { tags: { amenity: 'toilets', baby_changing: 'yes' }, expect: { changing_table: 'yes' } },
    { tags: { amenity: 'toilets', diaper: 'yes' }, expect: { changing_table: 'yes' } },
    { tags: { amenity: 'toilets', 'changing_table:adult': 'yes' }, expect: { changing_table: 'unknown' } },
  ]);
});

describe('§5 keys and locks', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', centralkey: 'yes' }, expect: { access_rule: 'key' } },
    { tags: { amenity: 'toilets', radar_key: 'yes' }, expect: { access_rule: 'key' } },
    { tags: { amenity: 'toilets', locked: 'yes' }, expect: { access_rule: 'key' } },
  ]);
});

describe('§5 singular amenity=toilet and toilet=yes (Porto church with an entry fee)', () => {
  test('amenity=toilet is a toilet', () => assert.deepEqual(classify({ amenity: 'toilet' }), { kind: 'toilet' }));
  test('toilet=yes on a museum church is a host toilet', () => {
    assert.deepEqual(classify({ building: 'church', tourism: 'museum', toilet: 'yes', fee: 'yes' }), { kind: 'host_toilet' });
  });
  testFactsRows([
    { tags: { amenity: 'toilet', fee: 'no' }, expect: { access: 'public', access_rule: 'free' } },
    { host: true, tags: { building: 'church', tourism: 'museum', toilet: 'yes', fee: 'yes' }, expect: { fee: { required: null, amount: null, currency: null }, access: 'unknown' } },
  ]);
});

describe('§5 names, notes and hours', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', name: 'Toiletten' }, expect: { name: 'Toiletten' } },
    { tags: { amenity: 'toilets', name: 'WC' }, expect: { name: 'WC' } },
    { tags: { amenity: 'toilets', note: 'Aberto das 9h às 18h' }, expect: { opening_hours: null } },
    { tags: { amenity: 'toilets', note: 'Closed when I was there in 07/2016' }, expect: { opening_hours: null }, flags: ['AccessInferred'] },
    { tags: { amenity: 'toilets', 'opening_hours:covid19': 'restricted' }, expect: { opening_hours: null } },
    { tags: { amenity: 'toilets', opening_hours: 'Mo 09:00-24:00; Dec 25 off; Jan 1 off' }, expect: { opening_hours: 'Mo 09:00-24:00; Dec 25 off; Jan 1 off' }, flags: ['AccessInferred'] },
  ]);
});

describe('§5 check dates', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', check_date: '2021-03-04', 'survey:date': '2023-07-08' }, expect: { checked: '2023-07' } },
    { tags: { amenity: 'toilets', 'survey:date': '2014-06' }, expect: { checked: '2014-06' } },
  ]);
});

describe('§5 two nodes a metre apart, one male, one female, same operator', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', male: 'yes', operator: 'Câmara Municipal do Porto' }, expect: { gender: ['male'], operator: 'Câmara Municipal do Porto' } },
    { tags: { amenity: 'toilets', female: 'yes', operator: 'Câmara Municipal do Porto' }, expect: { gender: ['female'], operator: 'Câmara Municipal do Porto' } },
  ]);
});

describe('§5 pit latrines and chemical toilets stay included', () => {
  for (const disposal of ['pitlatrine', 'chemical']) {
    test(`toilets:disposal=${disposal}`, () => assert.deepEqual(classify({ amenity: 'toilets', 'toilets:disposal': disposal }), { kind: 'toilet' }));
  }
});

describe('§5 malformed charges from the brief', () => {
  const rows: [string, string | null, ReturnType<typeof parseCharge>][] = [
    ['50p', null, { amount: 0.5, currency: 'GBP', currencyInferred: false }],
    ['£0.20', null, { amount: 0.2, currency: 'GBP', currencyInferred: false }],
    ['0,50 €', null, { amount: 0.5, currency: 'EUR', currencyInferred: false }],
    ['EUR 0.50', null, { amount: 0.5, currency: 'EUR', currencyInferred: false }],
    ['2 zł', null, { amount: 2, currency: 'PLN', currencyInferred: false }],
    ['10 Kč', null, { amount: 10, currency: 'CZK', currencyInferred: false }],
    ['$1', 'US', { amount: 1, currency: 'USD', currencyInferred: false }],
    ['$1', null, { amount: 1, currency: null, currencyInferred: false }],
    ['0.50 EUR/person; 0.20 EUR/child', null, { amount: 0.5, currency: 'EUR', currencyInferred: false }],
    ['0.50-1.00 EUR', null, { amount: 0.5, currency: 'EUR', currencyInferred: false }],
    ['May-Oct 1.50 EUR', null, { amount: 1.5, currency: 'EUR', currencyInferred: false }],
    ['0.50', 'AT', { amount: 0.5, currency: 'EUR', currencyInferred: true }],
    ['0.50', null, { amount: 0.5, currency: null, currencyInferred: false }],
  ];
  for (const [value, country, expected] of rows) {
    test(`parseCharge(${JSON.stringify(value)}, ${country})`, () => assert.deepEqual(parseCharge(value, country), expected));
  }
});
