// The fast check of plain tool arguments (src/mcp/arguments.ts plainShape) against ajv with the same
// schema: over generated arguments (in and out of bounds, wrong types, extra and missing members, half
// pairs, strings with and without length bounds), every value it takes ajv takes too, completed with the
// same defaults; what it leaves goes to ajv, which is then the only judge. And it takes the plain calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { plainShape } from '../../src/mcp/arguments.js';
import { inputSchemaOf, operationIn, READ_OPERATIONS } from '../../src/schemas/operations.js';
import { seededRandom } from '../support/random.js';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, useDefaults: true });
formats.default(ajv, ['uri', 'uri-reference', 'email', 'date-time', 'date']);

const VALUES: unknown[] = [0, -0, 1, -1, 2.5, 20, 21, 90, 90.0001, -90, 180, -180.5, 1e308, -1e308, 5e-324, 'x', '', 'n123', 'n 1', '🚻', 'é'.repeat(64), 'a'.repeat(65), 'Casino', 'PT', true, false, null, [], {}, [1], { a: 1 }];

/** Members the plain check leaves to ajv whatever their value: sent now and then, so most calls stay plain. */
const RARE = new Set(['place', 'country', 'radius', '__proto__']);

function generated(names: readonly string[], random: () => number): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of [...names, 'radius', '__proto__']) {
    if (random() < (RARE.has(name) ? 0.04 : 0.45)) args[name] = VALUES[Math.floor(random() * VALUES.length)];
  }
  return JSON.parse(JSON.stringify(args));
}

for (const operation of ['findToiletsNear', 'getToilet']) {
  test(`${operation}: every value the plain check takes, ajv takes with the same defaults`, () => {
    const schema = inputSchemaOf(operationIn(READ_OPERATIONS, operation));
    const validate = ajv.compile(schema);
    const plain = plainShape(schema);
    const names = Object.keys(schema.properties as object);
    const random = seededRandom(operation.length);
    let taken = 0;
    const cases = [
      ...Array.from({ length: 50000 }, () => generated(names, random)),
      // the calls agents send most
      ...(operation === 'getToilet' ? [{ id: 'n4316767608' }, { id: 'w1' }] : [{ lat: 43.7, lon: 7.4 }, { lat: 0, lon: 0, limit: 20, open_now: true }, {}]),
    ];
    for (const args of cases) {
      const [mine, theirs] = [structuredClone(args), structuredClone(args)];
      if (!plain(mine)) continue;
      taken++;
      assert.ok(validate(theirs), `ajv refuses what the plain check took: ${JSON.stringify(args)}`);
      assert.deepEqual(mine, theirs, JSON.stringify(args));
    }
    assert.ok(taken > 400, `the plain check took ${taken} of ${cases.length}`);
  });
}

test('arguments with a length-bounded text are left to ajv', () => {
  const plain = plainShape(inputSchemaOf(operationIn(READ_OPERATIONS, 'findToiletsNear')));
  assert.equal(plain({ place: 'Casino' }), false);
  assert.equal(plain({ lat: 1 }), false, 'half a pair');
  assert.equal(plain({ lat: 1, lon: 1, limit: 2.5 }), false);
  assert.equal(plain({ lat: 1, lon: 1 }), true);
});
