import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { ACCESS, ACCESS_RULE, CHANGING_TABLE, GENDER, WHEELCHAIR } from '../../src/rules/facts.js';
import { NearestToiletItem, ToiletItem, type SchemaName } from '../../src/schemas/resources.js';
import { selfContainedSchema } from '../../src/schemas/catalogue.js';
import { SCHEMAS } from '../../src/resources.js';
import { SCHEMA_ID_PREFIX } from '../../src/schemas/refs.js';
import { findInvalid } from '../../src/schemas/validate.js';

/** A complete, valid toilet result item, built by hand. */
function toiletItem(): Record<string, unknown> {
  return {
    id: 'n1234567',
    name: 'Praça da Liberdade',
    lat: 41.1466,
    lon: -8.6111,
    access: 'public',
    access_rule: 'fee',
    scheme_name: null,
    fee: { required: true, amount: 0.5, currency: 'EUR' },
    opening_hours: 'Mo-Su 08:00-20:00',
    open_now: true,
    closes_at: '2026-11-20T20:00:00+00:00',
    wheelchair: 'limited',
    changing_table: 'unknown',
    gender: ['female', 'male'],
    operator: 'Câmara Municipal do Porto',
    last_confirmed_at: '2026-10-02T09:15:00Z',
    verification_state: 'community_confirmed',
    confirmations: 3,
    cleanliness: { average: 3.5, count: 4 },
    confidence: 'high',
    source: 'openstreetmap',
    partner: null,
    provenance: {
      source: 'openstreetmap',
      checked: '2025-06',
      decided: { wheelchair: { by: 'votes', votes_for: 3, votes_total: 4, as_of: '2026-11-01' } },
    },
    url: 'https://toilets.example.org/t/n1234567',
    directions: {
      google_maps: 'https://www.google.com/maps/dir/?api=1&destination=41.1466,-8.6111',
      apple_maps: 'https://maps.apple.com/?daddr=41.1466,-8.6111',
    },
    geo: 'geo:41.1466,-8.6111',
  };
}

const nearestItem = () => ({ ...toiletItem(), distance_m: 120, walk_min: 2, bearing: 359 });
const attribution = () => ({
  text: '© OpenStreetMap contributors',
  license: 'ODbL-1.0',
  url: 'https://www.openstreetmap.org/copyright',
  license_notice_url: 'https://toilets.example.org/licences',
});

function names(schema: SchemaName, data: unknown): string[] {
  return findInvalid(schema, data).map((entry) => entry.name);
}

describe('resource schemas', () => {
  it('name each schema after its $id', () => {
    for (const [name, schema] of Object.entries(SCHEMAS)) assert.equal(schema.$id, `${SCHEMA_ID_PREFIX}${name}`);
  });

  it('take the toilet fact enums from facts.ts', () => {
    assert.equal(ToiletItem.properties.access.enum, ACCESS);
    assert.equal(ToiletItem.properties.access_rule.enum, ACCESS_RULE);
    assert.equal(ToiletItem.properties.wheelchair.enum, WHEELCHAIR);
    assert.equal(ToiletItem.properties.changing_table.enum, CHANGING_TABLE);
    assert.equal(ToiletItem.properties.gender.items.enum, GENDER);
  });

  it('build the nearest item from the toilet item table plus three required fields', () => {
    assert.deepEqual(Object.keys(NearestToiletItem.properties), [...Object.keys(ToiletItem.properties), 'distance_m', 'walk_min', 'bearing']);
    assert.deepEqual(NearestToiletItem.required, Object.keys(NearestToiletItem.properties));
    assert.deepEqual(ToiletItem.required, Object.keys(ToiletItem.properties));
  });
});

describe('ToiletItem', () => {
  it('accepts a valid item, with and without partner and cleanliness', () => {
    assert.deepEqual(findInvalid('ToiletItem', toiletItem()), []);
    const partner = { name: 'Café Central', tier: 'plus', conditions: 'customers', opening_hours: 'Mo-Fr 09:00-18:00', open_now: 'unknown', closes_at: null };
    assert.deepEqual(findInvalid('ToiletItem', { ...toiletItem(), partner, cleanliness: null, gender: [], open_now: 'unknown' }), []);
    assert.deepEqual(findInvalid('ToiletItem', { ...toiletItem(), partner: { ...partner, conditions: null, open_now: false } }), []);
  });

  it('rejects an extra field, naming it', () => {
    assert.deepEqual(findInvalid('ToiletItem', { ...toiletItem(), colour: 'blue' }), [{ name: 'colour', reason: 'unknown field; known fields are ' + listOf(ToiletItem) }]);
    assert.deepEqual(names('ToiletItem', nearestItem()), ['distance_m', 'walk_min', 'bearing']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), fee: { required: false, amount: null, currency: null, note: 'x' } }), ['fee.note']);
  });

  it('rejects a missing field, naming it', () => {
    for (const field of Object.keys(toiletItem())) {
      const item = toiletItem();
      delete item[field];
      assert.deepEqual(findInvalid('ToiletItem', item), [{ name: field, reason: 'is required' }], field);
    }
  });

  it('rejects values outside the enums', () => {
    assert.deepEqual(findInvalid('ToiletItem', { ...toiletItem(), access: 'private' }), [
      { name: 'access', reason: 'must be one of public, permissive, customers, scheme or unknown' },
    ]);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), wheelchair: 'partial', confidence: 'certain', verification_state: 'verified' }), [
      'wheelchair',
      'verification_state',
      'confidence',
    ]);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), gender: ['unisex', 'other'] }), ['gender[1]']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), gender: ['male', 'male'] }), ['gender']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), open_now: 'maybe' }), ['open_now']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), open_now: null }), ['open_now']);
  });

  it('checks nested objects and their bounds', () => {
    assert.deepEqual(findInvalid('ToiletItem', { ...toiletItem(), cleanliness: { average: 5.5, count: 1 } }), [
      { name: 'cleanliness.average', reason: 'must be a number between 1 and 5' },
    ]);
    assert.deepEqual(findInvalid('ToiletItem', { ...toiletItem(), cleanliness: 'dirty' }), [{ name: 'cleanliness', reason: 'must be an object or null' }]);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), cleanliness: { average: 3, count: 0 } }), ['cleanliness.count']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), partner: { name: 'x', tier: 'gold', conditions: null, opening_hours: null, open_now: true, closes_at: null } }), [
      'partner.tier',
    ]);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), confirmations: -1 }), ['confirmations']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), confirmations: 1.5 }), ['confirmations']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), lat: 90.5, lon: -181 }), ['lat', 'lon']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), id: 'way/123' }), ['id']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), id: 'a'.repeat(65) }), ['id']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), geo: 'https://example.org' }), ['geo']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), last_confirmed_at: '2026-10-02' }), ['last_confirmed_at']);
  });

  it('wants exactly the two directions links, each a URI', () => {
    const directions = toiletItem().directions as Record<string, string>;
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), directions: { ...directions, osmand: 'https://osmand.net/' } }), ['directions.osmand']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), directions: { google_maps: directions.google_maps } }), ['directions.apple_maps']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), directions: { ...directions, apple_maps: 'not a uri' } }), ['directions.apple_maps']);
  });

  it('checks provenance: year-month, decided keys and entries', () => {
    const provenance = toiletItem().provenance as Record<string, unknown>;
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), provenance: { ...provenance, checked: '2025-13' } }), ['provenance.checked']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), provenance: { ...provenance, checked: null, decided: {} } }), []);
    const moderator = { by: 'moderator', votes_for: null, votes_total: null, as_of: '2026-01-31' };
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), provenance: { ...provenance, decided: { existence: moderator, colour: moderator } } }), ['provenance.decided.colour']);
    assert.deepEqual(names('ToiletItem', { ...toiletItem(), provenance: { ...provenance, decided: { name: { ...moderator, by: 'admin' } } } }), [
      'provenance.decided.name.by',
    ]);
  });
});

function listOf(schema: { properties: object }): string {
  const keys = Object.keys(schema.properties);
  return `${keys.slice(0, -1).join(', ')} and ${keys[keys.length - 1]}`;
}

describe('answer schemas', () => {
  it('accept a nearest-search answer and reject a short bbox or an item without distance', () => {
    const answer = {
      status: 'ok',
      origin: { lat: 41.15, lon: -8.61, label: 'Aliados, Porto', source: 'place' },
      results: [nearestItem()],
      bbox: [-8.62, 41.14, -8.6, 41.16],
      attribution: attribution(),
      display_note: 'Data © OpenStreetMap contributors',
    };
    assert.deepEqual(findInvalid('FindResult', answer), []);
    assert.deepEqual(names('FindResult', { ...answer, bbox: [-8.62, 41.14, -8.6] }), ['bbox']);
    assert.deepEqual(names('FindResult', { ...answer, bbox: [-8.62, 41.14, -8.6, 41.16, 0] }), ['bbox']);
    assert.deepEqual(names('FindResult', { ...answer, results: [toiletItem()] }), ['results[0].distance_m', 'results[0].walk_min', 'results[0].bearing']);
    assert.deepEqual(names('FindResult', { ...answer, results: [{ ...nearestItem(), bearing: 360, walk_min: 0 }] }), ['results[0].walk_min', 'results[0].bearing']);
    assert.deepEqual(names('FindResult', { ...answer, origin: { lat: 0, lon: 0, label: 'x', source: 'gps' } }), ['origin.source']);
  });

  it('accept needs_location with a question and no origin', () => {
    const answer = { status: 'needs_location', origin: null, results: [], ask_user: 'Where are you?', attribution: attribution(), display_note: '' };
    assert.deepEqual(findInvalid('FindResult', answer), []);
    assert.deepEqual(names('FindResult', { ...answer, status: 'error' }), ['status']);
    assert.deepEqual(names('FindResult', { ...answer, next: 1 }), ['next']);
  });

  it('accept an area answer with a boolean truncated', () => {
    const answer = { results: [toiletItem()], truncated: false, attribution: attribution(), display_note: 'note' };
    assert.deepEqual(findInvalid('AreaResult', answer), []);
    assert.deepEqual(names('AreaResult', { ...answer, truncated: 'no' }), ['truncated']);
    assert.deepEqual(names('AreaResult', { ...answer, results: [nearestItem()] }), ['results[0].distance_m', 'results[0].walk_min', 'results[0].bearing']);
    assert.deepEqual(names('AreaResult', { ...answer, attribution: { ...attribution(), url: 'copyright' } }), ['attribution.url']);
  });

  it('accept a getToilet answer', () => {
    assert.deepEqual(findInvalid('ToiletAnswer', { toilet: toiletItem(), attribution: attribution(), display_note: 'note' }), []);
    assert.deepEqual(names('ToiletAnswer', { toilet: toiletItem(), attribution: attribution() }), ['display_note']);
  });

  it('accept problems with and without the optional members', () => {
    const problem = { type: 'https://toilets.example.org/problems/invalid-parameters', title: 'Invalid parameters', status: 400, detail: 'Correct lat.' };
    assert.deepEqual(findInvalid('Problem', problem), []);
    assert.deepEqual(findInvalid('Problem', { ...problem, invalid_params: [{ name: 'lat', reason: 'must be a number between -90 and 90' }], instance: '/api/v1/toilets/nearest?lat=100' }), []);
    assert.deepEqual(findInvalid('Problem', { ...problem, status: 429, retry_after_seconds: 17 }), []);
    assert.deepEqual(names('Problem', { ...problem, invalid_params: [] }), ['invalid_params']);
    assert.deepEqual(names('Problem', { ...problem, invalid_params: [{ name: 'lat' }] }), ['invalid_params[0].reason']);
    assert.deepEqual(names('Problem', { title: 'x', status: 500 }), ['type', 'detail']);
    assert.deepEqual(names('Problem', { ...problem, status: 200 }), ['status']);
  });
});

describe('selfContainedSchema', () => {
  it('bundles everything a schema reaches, for MCP tools that cannot fetch $refs', () => {
    const bundled = selfContainedSchema('FindResult');
    const text = JSON.stringify(bundled);
    assert.ok(!text.includes(SCHEMA_ID_PREFIX), 'no reference leaves the bundle');
    const defs = bundled.$defs as Record<string, unknown>;
    assert.deepEqual(Object.keys(defs).sort(), ['Attribution', 'Cleanliness', 'DecidedEntry', 'Fee', 'NearestToiletItem', 'Origin', 'Partner', 'Provenance']);
    for (const [, target] of text.matchAll(/"\$ref":"#\/\$defs\/([A-Za-z]+)"/g)) assert.ok(target in defs, target);

    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    formats.default(ajv);
    const validate = ajv.compile(bundled);
    const answer = { status: 'ok', origin: null, results: [nearestItem()], attribution: attribution(), display_note: '' };
    assert.equal(validate(answer), true);
    assert.equal(validate({ ...answer, results: [{ ...nearestItem(), access: 'private' }] }), false);
  });

  it('leaves schemas without references self-contained as they are, minus the $id', () => {
    const bundled = selfContainedSchema('Attribution');
    assert.equal(bundled.$defs, undefined);
    assert.equal(bundled.$id, undefined);
    assert.deepEqual(bundled.properties, SCHEMAS.Attribution.properties);
  });
});
