// Doc §3.3: the source value that counts as one vote per votable attribute.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Tags } from '../../importer/mapping/index.js';
import { formatFeeAmount, sourceVotes } from '../../src/rules/votes.js';
import { mapRow, tagText } from './rows.js';

type Votes = ReturnType<typeof sourceVotes>;

function testRows(rows: readonly { tags: Tags; host?: boolean; country?: string; expect: Votes }[]): void {
  for (const row of rows) {
    test(`${row.host ? 'host ' : ''}${tagText(row.tags)} → ${JSON.stringify(row.expect)}`, () => {
      const facts = mapRow(row);
      assert.deepEqual(sourceVotes(facts, false), row.expect);
    });
  }
}

describe('§3.3 source votes', () => {
  testRows([
    // Inferred access gives no vote; existence always does.
    { tags: { amenity: 'toilets' }, expect: { existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'unknown' }, expect: { existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'staff' }, expect: { existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'yes' }, expect: { access: 'public', existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'permissive' }, expect: { access: 'permissive', existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'customers' }, expect: { access: 'customers', existence: 'yes' } },
    { tags: { amenity: 'toilets', nette_toilette: 'yes' }, expect: { access: 'scheme', existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'yes', fee: 'no' }, expect: { access: 'public', fee: 'free', existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'yes', fee: 'yes' }, expect: { access: 'public', fee: 'paid', existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'yes', charge: '0.50 EUR' }, expect: { access: 'public', fee: 'paid', fee_amount: '0.5 EUR', existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'yes', charge: '1.00 GBP' }, expect: { access: 'public', fee: 'paid', fee_amount: '1 GBP', existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'yes', charge: '100 JPY' }, expect: { access: 'public', fee: 'paid', fee_amount: '100 JPY', existence: 'yes' } },
    { tags: { amenity: 'toilets', access: 'yes', charge: '0 EUR' }, expect: { access: 'public', fee: 'free', fee_amount: '0 EUR', existence: 'yes' } },
    // Amount without a currency: no fee_amount vote.
    { tags: { amenity: 'toilets', access: 'yes', charge: '0.50' }, expect: { access: 'public', fee: 'paid', existence: 'yes' } },
    {
      tags: { amenity: 'toilets', access: 'yes', wheelchair: 'limited', changing_table: 'no', male: 'yes', unisex: 'yes', opening_hours: '24/7', name: 'WC', operator: 'Comu' },
      expect: { access: 'public', wheelchair: 'limited', changing_table: 'no', gender: 'unisex,male', opening_hours: '24/7', name: 'WC', operator: 'Comu', existence: 'yes' },
    },
    { tags: { amenity: 'toilets', access: 'yes', wheelchair: 'unknown', changing_table: 'limited' }, expect: { access: 'public', existence: 'yes' } },
  ]);

  test('the caller can mark access as inferred', () => {
    const facts = mapRow({ tags: { amenity: 'toilets', access: 'yes' } });
    assert.deepEqual(sourceVotes(facts, true), { existence: 'yes' });
  });

  test('an opening_hours value the importer nulled gives no vote', () => {
    const facts = { ...mapRow({ tags: { amenity: 'toilets', opening_hours: 'daylight hours' } }), opening_hours: null };
    assert.equal(sourceVotes(facts, false).opening_hours, undefined);
  });
});

describe('§3.3 canonical fee_amount: minor-unit digits at most, no trailing zeros', () => {
  const rows: [number, string, string][] = [
    [0.5, 'EUR', '0.5 EUR'],
    [0.2, 'GBP', '0.2 GBP'],
    [1, 'CHF', '1 CHF'],
    [10, 'EUR', '10 EUR'],
    [1.25, 'USD', '1.25 USD'],
    [100, 'JPY', '100 JPY'],
    [0.125, 'KWD', '0.125 KWD'],
    [1000.5, 'EUR', '1000.5 EUR'],
  ];
  for (const [amount, currency, expected] of rows) {
    test(`${amount} ${currency} → "${expected}"`, () => assert.equal(formatFeeAmount(amount, currency), expected));
  }
});
