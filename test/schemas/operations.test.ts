import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { inputSchemaOf, operationIn, rateLimitPolicyHeader, RATE_LIMIT_POLICIES } from '../../src/schemas/operations.js';
import { OPERATIONS } from '../../src/operations.js';
import { ATTEMPTS_POLICY } from '../../src/accounts/rate-limits.js';

const operationById = (operationId: string) => operationIn(OPERATIONS, operationId);

describe('operations registry', () => {
  it('finds operations by id and refuses others', () => {
    assert.equal(operationById('getToilet').path, '/toilets/{id}');
    assert.equal(operationById('submitToilet').path, '/submissions');
    assert.throws(() => operationById('noSuchOperation'), /noSuchOperation/);
  });

  it('lists fixed paths before the templated path they would otherwise match', () => {
    const paths = OPERATIONS.map((operation) => operation.path);
    assert.ok(paths.indexOf('/toilets/nearest') < paths.indexOf('/toilets/{id}'));
  });

  it('writes the RateLimit-Policy header of each policy', () => {
    assert.equal(rateLimitPolicyHeader(RATE_LIMIT_POLICIES.perIp), '"per-ip";q=60;w=60');
    assert.equal(rateLimitPolicyHeader(RATE_LIMIT_POLICIES.areaPerIp), '"area-per-ip";q=300;w=60');
    assert.equal(rateLimitPolicyHeader(ATTEMPTS_POLICY), '"accounts-per-ip";q=10;w=60');
  });
});

describe('inputSchemaOf', () => {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });

  it('gives the nearest search typed parameters with the same bounds and the lat/lon pairing', () => {
    const validate = ajv.compile(inputSchemaOf(operationById('findToiletsNear')));
    assert.equal(validate({}), true);
    assert.equal(validate({ lat: 52.5, lon: 13.4, limit: 20, wheelchair: true }), true);
    assert.equal(validate({ place: 'Porto', country: 'PT' }), true);
    assert.equal(validate({ lat: 52.5 }), false);
    assert.equal(validate({ lon: 13.4 }), false);
    assert.equal(validate({ lat: 52.5, lon: 13.4, limit: 21 }), false);
    assert.equal(validate({ lat: 52.5, lon: 13.4, wheelchair: 'true' }), false);
    assert.equal(validate({ place: 'P' }), false);
    assert.equal(validate({ whelchair: true }), false);
  });

  it('requires bbox for the area listing', () => {
    const validate = ajv.compile(inputSchemaOf(operationById('listToiletsInArea')));
    assert.equal(validate({ bbox: '13.3,52.5,13.4,52.6' }), true);
    assert.equal(validate({ limit: 5 }), false);
    assert.equal(validate({ bbox: '13.3,52.5,13.4' }), false);
  });

  it('requires the id, and only the id, to fetch one toilet', () => {
    const validate = ajv.compile(inputSchemaOf(operationById('getToilet')));
    assert.equal(validate({ id: 'n1234' }), true);
    assert.equal(validate({}), false);
    assert.equal(validate({ id: 'way/1' }), false);
    assert.equal(validate({ id: 'n1', limit: 1 }), false);
  });
});
