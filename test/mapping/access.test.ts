// Doc §2.2 access, §2.3 access_rule, §2.4 scheme_name and §4 scheme detection.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { detectScheme, SCHEME_PHRASES } from '../../importer/mapping/index.js';
import { testFactsRows } from './rows.js';

describe('§2.2 access from the effective value (standalone: access)', () => {
  testFactsRows([
    ...['yes', 'public', 'designated', 'official'].map((value) => ({ tags: { amenity: 'toilets', access: value }, expect: { access: 'public' as const }, flags: [] })),
    { tags: { amenity: 'toilets', access: 'permissive' }, expect: { access: 'permissive' } },
    ...['customers', 'destination', 'permit', 'passengers', 'members', 'students', 'guests'].map((value) => ({
      tags: { amenity: 'toilets', access: value },
      expect: { access: 'customers' as const, access_rule: 'customers' as const },
    })),
    { tags: { amenity: 'toilets', access: 'key' }, expect: { access: 'permissive', access_rule: 'key' } },
    { tags: { amenity: 'toilets', access: 'fee' }, expect: { access: 'public', access_rule: 'fee', fee: { required: true, amount: null, currency: null } } },
    // Absent or unknown on a standalone toilet: public, inferred (the wiki scopes amenity=toilets to public use).
    { tags: { amenity: 'toilets' }, expect: { access: 'public' }, flags: ['AccessInferred'] },
    { tags: { amenity: 'toilets', access: 'unknown' }, expect: { access: 'public' }, flags: ['AccessInferred'] },
    // Anything else tagged is a statement we cannot read: unknown, not a guess.
    { tags: { amenity: 'toilets', access: 'staff' }, expect: { access: 'unknown' }, flags: [] },
    { tags: { amenity: 'toilets', access: 'YES ' }, expect: { access: 'public' } },
    { tags: { amenity: 'toilets', access: 'yes;customers' }, expect: { access: 'customers' } },
  ]);
});

describe('§2.2 precedence: toilets:access on a standalone toilet, only toilets:access on a host', () => {
  testFactsRows([
    { tags: { amenity: 'toilets', 'toilets:access': 'key' }, expect: { access: 'permissive', access_rule: 'key' } },
    { tags: { amenity: 'toilets', access: 'yes', 'toilets:access': 'customers' }, expect: { access: 'customers' } },
    { tags: { amenity: 'toilets', access: 'customers', 'toilets:access': 'unknown' }, expect: { access: 'customers' } },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'yes' }, expect: { access: 'public' }, flags: [] },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'customers' }, expect: { access: 'customers', access_rule: 'customers' } },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'permissive' }, expect: { access: 'permissive' } },
    // A host without toilets:access is unknown, never inferred.
    { host: true, tags: { railway: 'station', toilets: 'yes' }, expect: { access: 'unknown', access_rule: 'unknown' }, flags: [] },
    { host: true, tags: { railway: 'station', toilets: 'yes', access: 'yes' }, expect: { access: 'unknown' }, flags: [] },
  ]);
});

describe('§2.3 access_rule: first matching row wins', () => {
  testFactsRows([
    // 1 scheme
    { tags: { amenity: 'toilets', 'toilets:scheme': 'nette_toilette', access: 'customers', fee: 'yes' }, expect: { access: 'scheme', access_rule: 'scheme' } },
    // 2 key
    { tags: { amenity: 'toilets', access: 'key', fee: 'no' }, expect: { access_rule: 'key' } },
    { tags: { amenity: 'toilets', 'toilets:access': 'key' }, expect: { access_rule: 'key' } },
    { tags: { amenity: 'toilets', locked: 'yes', fee: 'no' }, expect: { access: 'public', access_rule: 'key' } },
    { tags: { amenity: 'toilets', locked: 'no', fee: 'no' }, expect: { access_rule: 'free' } },
    // 3 central key, unless a segregated block
    ...['radar', 'eurokey', 'nks', 'yes'].map((value) => ({ tags: { amenity: 'toilets', centralkey: value, fee: 'no' }, expect: { access_rule: 'key' as const } })),
    { tags: { amenity: 'toilets', radar_key: 'yes' }, expect: { access_rule: 'key' } },
    { tags: { amenity: 'toilets', centralkey: 'eurokey', unisex: 'yes' }, expect: { access_rule: 'key' } },
    { tags: { amenity: 'toilets', centralkey: 'eurokey', female: 'yes', male: 'yes', fee: 'yes' }, expect: { access_rule: 'fee' } },
    { tags: { amenity: 'toilets', centralkey: 'radar', male: 'yes', fee: 'no' }, expect: { access_rule: 'free' } },
    { tags: { amenity: 'toilets', centralkey: 'radar', gender_segregated: 'yes' }, expect: { access_rule: 'unknown' } },
    { tags: { amenity: 'toilets', centralkey: 'no', fee: 'no' }, expect: { access_rule: 'free' } },
    { tags: { amenity: 'toilets', radar_key: 'no', fee: 'no' }, expect: { access_rule: 'free' } },
    // 4 customers
    { tags: { amenity: 'toilets', access: 'customers', fee: 'no' }, expect: { access_rule: 'customers' } },
    // 5–7 fee
    { tags: { amenity: 'toilets', fee: 'yes' }, expect: { access_rule: 'fee' } },
    { tags: { amenity: 'toilets', fee: 'no' }, expect: { access_rule: 'free' } },
    { tags: { amenity: 'toilets' }, expect: { access_rule: 'unknown' } },
    // The host's own keys say nothing about its toilets.
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'yes', locked: 'yes', fee: 'yes' }, expect: { access_rule: 'unknown' } },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:access': 'yes', 'toilets:centralkey': 'eurokey' }, expect: { access_rule: 'key' } },
  ]);
});

describe('§4 scheme detection → access scheme, access_rule scheme, scheme_name', () => {
  const scheme = (name: string | null) => ({ access: 'scheme' as const, access_rule: 'scheme' as const, scheme_name: name });
  testFactsRows([
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:scheme': 'nette_toilette' }, expect: scheme('Nette Toilette'), flags: ['Scheme'] },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:scheme': 'Nette Toilette' }, expect: scheme('Nette Toilette') },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:scheme': 'Die Nette-Toilette' }, expect: scheme('Nette Toilette') },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:scheme': 'Toilets4London' }, expect: scheme('Toilets4London') },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:scheme': 'yes' }, expect: scheme(null) },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:scheme': 'no', 'toilets:access': 'customers' }, expect: { access: 'customers', scheme_name: null }, flags: [] },
    { host: true, tags: { amenity: 'restaurant', toilets: 'yes', nette_toilette: 'yes' }, expect: scheme('Nette Toilette') },
    { host: true, tags: { amenity: 'pub', toilets: 'yes', network: 'Community Toilet Scheme' }, expect: scheme('Community Toilet Scheme') },
    { host: true, tags: { amenity: 'pub', toilets: 'yes', network: 'Brighton Toilets Network' }, expect: scheme('Brighton Toilets Network') },
    { host: true, tags: { amenity: 'pub', toilets: 'yes', network: 'VRR', 'toilets:access': 'customers' }, expect: { access: 'customers', scheme_name: null } },
    { host: true, tags: { amenity: 'pub', toilets: 'yes', operator: 'Richmond Community Toilet Scheme' }, expect: scheme('Community Toilet Scheme') },
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', name: 'Café Rosa – Nette Toilette' }, expect: scheme('Nette Toilette') },
    { host: true, tags: { shop: 'bakery', toilets: 'yes', operator: 'Highland Comfort Scheme' }, expect: scheme('Comfort Scheme') },
    { host: true, tags: { shop: 'bakery', toilets: 'yes', operator: 'Use Our Loos' }, expect: scheme('Use Our Loos') },
    // First non-empty source wins.
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', 'toilets:scheme': 'Toilets4London', nette_toilette: 'yes' }, expect: scheme('Toilets4London') },
    // A separate amenity=toilets node for a Nette Toilette.
    { tags: { amenity: 'toilets', nette_toilette: 'yes', access: 'customers' }, expect: scheme('Nette Toilette'), flags: ['Scheme'] },
    // Scheme toilets follow the business's hours.
    { host: true, tags: { amenity: 'cafe', toilets: 'yes', nette_toilette: 'yes', opening_hours: 'Mo-Sa 08:00-18:00' }, expect: { opening_hours: 'Mo-Sa 08:00-18:00' } },
    { tags: { amenity: 'toilets', operator: 'City Council' }, expect: { access: 'public', scheme_name: null } },
  ]);

  for (const { phrase, label } of SCHEME_PHRASES) {
    test(`configured phrase "${phrase}" in operator → ${label}`, () => {
      assert.deepEqual(detectScheme({ operator: `Town ${phrase.toUpperCase()} partner` }), { name: label });
    });
  }
});
