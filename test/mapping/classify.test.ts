// Doc §1: which OSM objects become toilet records.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classify, LIFECYCLE_PREFIXES, WALK_IN_HOSTS, type Classification, type Tags } from '../../importer/mapping/index.js';
import { tagText } from './rows.js';

const TOILET: Classification = { kind: 'toilet' };
const HOST: Classification = { kind: 'host_toilet' };
const skip = (reason: Extract<Classification, { kind: 'skip' }>['reason']): Classification => ({ kind: 'skip', reason });

function testRows(rows: readonly (readonly [Tags, Classification])[]): void {
  for (const [tags, expected] of rows) {
    test(`${tagText(tags)} → ${JSON.stringify(expected)}`, () => assert.deepEqual(classify(tags), expected));
  }
}

describe('§1 standalone toilets', () => {
  testRows([
    [{ amenity: 'toilets' }, TOILET],
    [{ amenity: 'toilets', building: 'toilets' }, TOILET],
    [{ type: 'multipolygon', amenity: 'toilets' }, TOILET],
    [{ amenity: 'toilet' }, TOILET],
    [{ amenity: ' Toilets ' }, TOILET],
    [{ amenity: 'toilets;drinking_water' }, TOILET],
    [{ amenity: 'toilets', 'toilets:disposal': 'pitlatrine' }, TOILET],
    [{ amenity: 'toilets', 'toilets:disposal': 'chemical' }, TOILET],
    [{ amenity: 'toilets', opening_hours: 'off' }, TOILET],
    [{ amenity: 'toilets', opening_hours: 'closed' }, TOILET],
    [{ amenity: 'toilets', access: 'customers' }, TOILET],
    [{ amenity: 'toilets', access: 'staff' }, TOILET],
  ]);
});

describe('§1 host toilets (toilets=yes)', () => {
  const publicish = ['yes', 'public', 'designated', 'official', 'permissive', 'key', 'fee'];
  testRows(publicish.map((value) => [{ amenity: 'cafe', toilets: 'yes', 'toilets:access': value }, HOST] as const));
  testRows([
    // Decision: an explicit customers statement is a record (access customers); no_purchase_needed filters it.
    [{ amenity: 'cafe', toilets: 'yes', 'toilets:access': 'customers' }, HOST],
    [{ amenity: 'fuel', toilets: 'yes', 'toilets:access': 'destination' }, HOST],
    [{ amenity: 'cafe', toilet: 'yes', 'toilets:access': 'yes' }, HOST],
    [{ amenity: 'restaurant', toilets: 'yes', 'toilets:scheme': 'nette_toilette' }, HOST],
    [{ amenity: 'pub', toilets: 'yes', nette_toilette: 'yes' }, HOST],
    [{ amenity: 'pub', toilets: 'yes', network: 'Community Toilet Scheme' }, HOST],
    [{ amenity: 'cafe', toilets: 'yes', operator: 'Die Nette Toilette' }, HOST],
    // Porto: a former church, now a museum, with toilet=yes and an entry fee.
    [{ building: 'church', tourism: 'museum', toilet: 'yes', fee: 'yes' }, HOST],
  ]);
});

describe('§1 hosts without toilets:access: walk-in types only', () => {
  const walkIn = Object.entries(WALK_IN_HOSTS).flatMap(([key, values]) => values.map((value) => [{ [key]: value, toilets: 'yes' }, HOST] as const));
  testRows(walkIn);
  testRows([
    [{ railway: 'station', toilets: 'yes', 'toilets:access': 'unknown' }, HOST],
    [{ shop: 'mall', toilets: 'yes', 'toilets:access': 'staff' }, HOST],
    [{ amenity: 'restaurant', toilets: 'yes' }, skip('host_without_access')],
    [{ amenity: 'cafe', toilets: 'yes' }, skip('host_without_access')],
    [{ amenity: 'bar', toilets: 'yes' }, skip('host_without_access')],
    [{ amenity: 'cafe', toilets: 'yes', 'toilets:access': 'unknown' }, skip('host_without_access')],
    [{ amenity: 'cafe', toilets: 'yes', wheelchair: 'yes', 'toilets:wheelchair': 'yes' }, skip('host_without_access')],
    // A value no row names (staff only) is not a public statement.
    [{ amenity: 'cafe', toilets: 'yes', 'toilets:access': 'staff' }, skip('host_not_public')],
    // The host's own access=yes is about the café, not its toilets.
    [{ amenity: 'cafe', toilets: 'yes', access: 'yes' }, skip('host_without_access')],
  ]);
});

describe('§1 never a record', () => {
  testRows([
    [{ amenity: 'cafe', toilets: 'no' }, skip('no_toilets')],
    [{ amenity: 'toilets', toilets: 'no' }, skip('no_toilets')],
    [{ amenity: 'cafe', toilets: 'yes', 'toilets:access': 'no' }, skip('private')],
    [{ amenity: 'cafe', toilets: 'yes', 'toilets:access': 'private' }, skip('private')],
    [{ amenity: 'cafe', toilets: 'yes', 'toilets:access': 'private', nette_toilette: 'yes' }, skip('private')],
    [{ building: 'toilets' }, skip('building_only')],
    [{ amenity: 'toilets', access: 'private' }, skip('private')],
    [{ amenity: 'toilets', access: 'no' }, skip('private')],
    [{ amenity: 'toilets', access: 'Private' }, skip('private')],
    [{ amenity: 'toilets', 'toilets:access': 'private' }, skip('private')],
    // Lists resolve to their most cautious item.
    [{ amenity: 'toilets', access: 'customers;private' }, skip('private')],
    // A host nobody may enter, with no statement about its toilets.
    [{ railway: 'station', access: 'private', toilets: 'yes' }, skip('private')],
    [{ amenity: 'cafe' }, skip('not_a_toilet')],
    [{}, skip('not_a_toilet')],
  ]);
});

describe('§1 toilets: key wins over plain access on a standalone toilet', () => {
  testRows([
    [{ amenity: 'toilets', access: 'private', 'toilets:access': 'yes' }, TOILET],
    [{ amenity: 'toilets', access: 'yes', 'toilets:access': 'private' }, skip('private')],
    [{ amenity: 'toilets', access: 'private', 'toilets:access': 'unknown' }, skip('private')],
    [{ railway: 'station', access: 'private', toilets: 'yes', 'toilets:access': 'yes' }, HOST],
  ]);
});

describe('§1 lifecycle prefixes', () => {
  testRows(LIFECYCLE_PREFIXES.map((prefix) => [{ [`${prefix}:amenity`]: 'toilets' }, skip('lifecycle')] as const));
  testRows([
    [{ 'was:amenity': 'toilet' }, skip('lifecycle')],
    [{ 'disused:amenity': 'toilets', building: 'toilets' }, skip('lifecycle')],
    [{ amenity: 'cafe', 'disused:toilets': 'yes' }, skip('lifecycle')],
    [{ amenity: 'toilets', disused: 'yes' }, skip('lifecycle')],
    [{ amenity: 'toilets', abandoned: 'yes' }, skip('lifecycle')],
    [{ shop: 'mall', toilets: 'yes', disused: 'yes' }, skip('lifecycle')],
    [{ amenity: 'toilets', disused: 'no' }, TOILET],
    [{ 'disused:amenity': 'cafe' }, skip('not_a_toilet')],
  ]);
});

describe('§1 segregated blocks mapped as two nodes stay two records', () => {
  testRows([
    [{ amenity: 'toilets', male: 'yes', operator: 'Câmara Municipal do Porto' }, TOILET],
    [{ amenity: 'toilets', female: 'yes', operator: 'Câmara Municipal do Porto' }, TOILET],
  ]);
});

test('classify returns shared objects, not one allocation per call', () => {
  assert.equal(classify({ amenity: 'toilets' }), classify({ amenity: 'toilet' }));
  assert.ok(Object.isFrozen(classify({ amenity: 'toilets' })));
});
