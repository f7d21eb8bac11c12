// Doc §2.5: fee.required, and amount/currency parsing of charge/fee strings.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCharge } from '../../importer/mapping/index.js';
import { testFactsRows } from './rows.js';

const fee = (required: boolean | null, amount: number | null = null, currency: string | null = null) => ({ fee: { required, amount, currency } });

describe('§2.5 required', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', fee: 'yes' }, expect: fee(true) },
    { tags: { amenity: 'toilets', fee: 'interval' }, expect: fee(true) },
    { tags: { amenity: 'toilets', fee: 'Mo-Fr 08:00-17:00' }, expect: fee(true) },
    { tags: { amenity: 'toilets', fee: 'no' }, expect: fee(false) },
    { tags: { amenity: 'toilets', fee: 'donation' }, expect: fee(false) },
    { tags: { amenity: 'toilets', fee: 'free' }, expect: fee(false) },
    { tags: { amenity: 'toilets', fee: '50p' }, expect: fee(true, 0.5, 'GBP') },
    { tags: { amenity: 'toilets', fee: '30p' }, expect: fee(true, 0.3, 'GBP') },
    { tags: { amenity: 'toilets', fee: '£0.20' }, expect: fee(true, 0.2, 'GBP') },
    { tags: { amenity: 'toilets', fee: '0.50 EUR' }, expect: fee(true, 0.5, 'EUR') },
    { tags: { amenity: 'toilets', charge: '0.50 EUR' }, expect: fee(true, 0.5, 'EUR') },
    { tags: { amenity: 'toilets', charge: '0 EUR' }, expect: fee(false, 0, 'EUR') },
    { tags: { amenity: 'toilets', charge: 'free' }, expect: fee(false, 0, null) },
    { tags: { amenity: 'toilets', fee: 'unknown' }, expect: fee(null) },
    { tags: { amenity: 'toilets' }, expect: fee(null) },
    { tags: { amenity: 'toilets', fee: 'sometimes' }, expect: fee(null) },
    { tags: { amenity: 'toilets', fee: 'unknown', charge: '1 EUR' }, expect: fee(true, 1, 'EUR') },
    // fee:conditional is ignored for required; the plain fee is the default case.
    { tags: { amenity: 'toilets', 'fee:conditional': 'yes @ (Sa,Su)' }, expect: fee(null) },
    { tags: { amenity: 'toilets', fee: 'yes', 'fee:conditional': 'no @ customers' }, expect: fee(true) },
    { tags: { amenity: 'toilets', fee: 'no', 'fee:conditional': 'no @ (event day)' }, expect: fee(false) },
    // payment:* only says how to pay.
    { tags: { amenity: 'toilets', fee: 'yes', 'payment:coins': 'yes', 'payment:notes': 'GBP 0.2' }, expect: fee(true) },
    { tags: { amenity: 'toilets', fee: 'yes;no' }, expect: fee(true) },
  ]);
});

describe('§2.5 access=fee, precedence and host caution', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', access: 'fee' }, expect: fee(true) },
    { tags: { amenity: 'toilets', access: 'fee', charge: '£0.50' }, expect: fee(true, 0.5, 'GBP') },
    // The fee tag is the specific statement; access=fee does not override it.
    { tags: { amenity: 'toilets', access: 'fee', fee: 'no' }, expect: { ...fee(false), access_rule: 'free' } },
    { tags: { amenity: 'toilets', fee: 'yes', 'toilets:fee': 'no' }, expect: fee(false) },
    { tags: { amenity: 'toilets', fee: 'no', 'toilets:fee': 'unknown' }, expect: fee(false) },
    { tags: { amenity: 'toilets', charge: '1 EUR', 'toilets:charge': '0.50 EUR' }, expect: fee(true, 0.5, 'EUR') },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'yes', 'toilets:fee': 'yes', 'toilets:charge': '0.50 EUR' }, expect: fee(true, 0.5, 'EUR') },
    // A host's plain fee/charge is about the host (church or museum entry), never the toilet.
    { host: true, tags: { tourism: 'museum', toilets: 'yes', fee: 'yes', charge: '12 EUR' }, expect: fee(null) },
    { host: true, tags: { tourism: 'museum', toilets: 'yes', fee: 'yes', 'toilets:fee': 'no' }, expect: fee(false) },
  ]);
});

describe('§2.5 step 7 and the reverse contradiction', () => {
  testFactsRows([
    // fee=no with a positive charge: trust fee, drop the amount.
    { tags: { amenity: 'toilets', fee: 'no', charge: '0.50 EUR' }, expect: { ...fee(false), access_rule: 'free' } },
    // Decision: fee=yes with a zero charge keeps required=true and drops the amount.
    { tags: { amenity: 'toilets', fee: 'yes', charge: '0' }, expect: fee(true) },
    { tags: { amenity: 'toilets', fee: 'yes', charge: 'bananas' }, expect: fee(true) },
  ]);
});

describe('§2.5 currency from the country (steps 3–4)', () => {
  testFactsRows([
    { country: 'DE', tags: { amenity: 'toilets', charge: '0.50' }, expect: fee(true, 0.5, 'EUR'), flags: ['AccessInferred', 'CurrencyInferred'] },
    { country: null, tags: { amenity: 'toilets', charge: '0.50' }, expect: fee(true, 0.5, null), flags: ['AccessInferred'] },
    { country: null, tags: { amenity: 'toilets', charge: '0.50', 'addr:country': 'at' }, expect: fee(true, 0.5, 'EUR'), flags: ['AccessInferred', 'CurrencyInferred'] },
    { country: 'US', tags: { amenity: 'toilets', charge: '$1' }, expect: fee(true, 1, 'USD'), flags: ['AccessInferred'] },
    { country: null, tags: { amenity: 'toilets', charge: '$1' }, expect: fee(true, 1, null) },
    { country: 'DE', tags: { amenity: 'toilets', charge: '$1' }, expect: fee(true, 1, null) },
  ]);
});

type ChargeRow = readonly [value: string, country: string | null, expected: ReturnType<typeof parseCharge>];
const charge = (amount: number, currency: string | null, currencyInferred = false) => ({ amount, currency, currencyInferred });

function testCharges(rows: readonly ChargeRow[]): void {
  for (const [value, country, expected] of rows) {
    test(`parseCharge(${JSON.stringify(value)}, ${country}) → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(parseCharge(value, country), expected);
    });
  }
}

describe('§2.5 parseCharge shapes (steps 1–3)', () => {
  testCharges([
    ['0.50 EUR', null, charge(0.5, 'EUR')],
    ['0.50EUR', null, charge(0.5, 'EUR')],
    ['0.50 eur', null, charge(0.5, 'EUR')],
    ['EUR 0.50', null, charge(0.5, 'EUR')],
    ['GBP 0.2', null, charge(0.2, 'GBP')],
    ['€0.50', null, charge(0.5, 'EUR')],
    ['€ 0,50', null, charge(0.5, 'EUR')],
    ['0.50€', null, charge(0.5, 'EUR')],
    ['0,50 €', null, charge(0.5, 'EUR')],
    ['£0.20', null, charge(0.2, 'GBP')],
    ['1 CHF', null, charge(1, 'CHF')],
    ['Fr. 1.50', 'CH', charge(1.5, 'CHF')],
    ['2 zł', null, charge(2, 'PLN')],
    ['10 Kč', null, charge(10, 'CZK')],
    ['200 Ft', 'HU', charge(200, 'HUF')],
    ['2 lei', null, charge(2, 'RON')],
    ['10 ₹', null, charge(10, 'INR')],
    ['₺5', null, charge(5, 'TRY')],
    ['50 ₽', null, charge(50, 'RUB')],
    ['100 ¥', 'JP', charge(100, 'JPY')],
    ['¥1', 'CN', charge(1, 'CNY')],
    ['50p', null, charge(0.5, 'GBP')],
    ['50 p', 'GB', charge(0.5, 'GBP')],
    ['50 ct', 'DE', charge(0.5, 'EUR')],
    ['50 cents', 'IE', charge(0.5, 'EUR')],
    ['25c', 'US', charge(0.25, 'USD')],
    ['25c', 'CA', charge(0.25, 'CAD')],
    // Decision: cents in an unknown country are euro cents; in a country without cents, no currency.
    ['50c', null, charge(0.5, 'EUR')],
    ['50c', 'GB', charge(0.5, null)],
    ['$1', 'US', charge(1, 'USD')],
    ['$1', 'AU', charge(1, 'AUD')],
    ['$1', null, charge(1, null)],
    ['$1', 'FR', charge(1, null)],
    ['US$1', null, charge(1, 'USD')],
    ['5 kr', 'SE', charge(5, 'SEK')],
    ['5 kr.', 'DK', charge(5, 'DKK')],
    ['5 kr', 'NO', charge(5, 'NOK')],
    ['5 kr', null, charge(5, null)],
  ]);
});

describe('§2.5 numbers, bare amounts, rounding (steps 1, 4, 6)', () => {
  testCharges([
    ['0.50', 'PT', charge(0.5, 'EUR', true)],
    ['0.50', 'GB', charge(0.5, 'GBP', true)],
    ['0.50', null, charge(0.5, null)],
    ['0', 'DE', charge(0, null)],
    ['.50 EUR', null, charge(0.5, 'EUR')],
    ['1.000,50 EUR', null, charge(1000.5, 'EUR')],
    ['1,000.50 USD', null, charge(1000.5, 'USD')],
    // One separator before three digits is a thousands mark only in a currency without minor units.
    ['1.000 HUF', null, charge(1000, 'HUF')],
    ['1,000 JPY', null, charge(1000, 'JPY')],
    ['1.500 EUR', null, charge(1.5, 'EUR')],
    ['1.005 EUR', null, charge(1.01, 'EUR')],
    ['100.6 JPY', null, charge(101, 'JPY')],
    ['0.125 KWD', null, charge(0.125, 'KWD')],
    ['free', null, charge(0, null)],
    ['Free', 'DE', charge(0, null)],
  ]);
});

describe('§2.5 several values, units, ranges, conditions (step 5)', () => {
  testCharges([
    ['0.50 EUR/person; 0.20 EUR/child', null, charge(0.5, 'EUR')],
    ['0.20 EUR/child; 0.50 EUR/person', null, charge(0.5, 'EUR')],
    ['1 EUR per visit', null, charge(1, 'EUR')],
    ['1 EUR/use; 0.70 EUR/use', null, charge(0.7, 'EUR')],
    ['3 EUR/shower', null, null],
    ['1 EUR/hour', null, null],
    ['0.50 EUR; 2 EUR/car', null, charge(0.5, 'EUR')],
    ['£0.20; 0.20 GBP', null, charge(0.2, 'GBP')],
    ['0.50 EUR; 0.40 CHF', null, charge(0.4, null)],
    ['1 EUR; 0.50', 'DE', charge(0.5, 'EUR', true)],
    ['0.50-1.00 EUR', null, charge(0.5, 'EUR')],
    ['0.50 - 1.00 EUR', null, charge(0.5, 'EUR')],
    ['€1-€0.50', null, charge(0.5, 'EUR')],
    ['20p-50p', null, charge(0.2, 'GBP')],
    ['May-Oct 1.50 EUR', null, charge(1.5, 'EUR')],
    ['May-Oct 1.50 EUR; 1 EUR', null, charge(1, 'EUR')],
    ['May-Oct 2 EUR; Nov-Apr 1 EUR', null, charge(1, 'EUR')],
    ['Mo-Fr 08:00-18:00 0.50 EUR; 0.70 EUR', null, charge(0.7, 'EUR')],
    ['0.50 EUR @ (May-Oct); 1 EUR', null, charge(1, 'EUR')],
  ]);
});

describe('§2.5 garbage is null, never a guess', () => {
  testCharges([
    ['yes', null, null],
    ['bananas', null, null],
    ['', null, null],
    ['0.50 bananas', null, null],
    ['1.50 EUR (summer)', null, null],
    ['$1 EUR', 'US', null],
    ['0.50 EUR - 1 USD', null, null],
    ['Mo-Fr 08:00-17:00', null, null],
  ]);
});
