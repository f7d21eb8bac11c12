// Every 400 case of the spec for the two searches, 404s, 405, 503 for a place while no lookup is
// configured, HEAD and CORS, on a real server over the Porto extract. Each problem body is validated
// (support.ts checks every problem+json answer against the Problem schema).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PlaceLookupUnavailable, type PlaceLookup } from '../../src/places/lookup.js';
import { BASE_URL, importedCopy, readSourceToilets, serve, tempDir, type Served } from './support.js';

const NEAREST = '/api/v1/toilets/nearest';
const AREA = '/api/v1/toilets';

/** Query string → the parameter names the 400 answer must list. */
const NEAREST_400: [string, string[]][] = [
  ['place=P', ['place']],
  [`place=${'x'.repeat(201)}`, ['place']],
  ['place=Porto&country=P1', ['country']],
  ['place=Porto&country=PRT', ['country']],
  ['place=Porto&country=XX', ['country']],
  ['lat=41.1&lon=-8.6&country=zz', ['country']],
  ['lat=91&lon=0', ['lat']],
  ['lat=-90.5&lon=0', ['lat']],
  ['lat=0&lon=181', ['lon']],
  ['lat=0&lon=-180.01', ['lon']],
  ['lat=abc&lon=1', ['lat']],
  ['lat=0x10&lon=1', ['lat']],
  ['lat=&lon=1', ['lat']],
  ['lat=41.1', ['lon']],
  ['lon=-8.6', ['lat']],
  ['lat=41.1&lon=-8.6&limit=0', ['limit']],
  ['lat=41.1&lon=-8.6&limit=21', ['limit']],
  ['lat=41.1&lon=-8.6&limit=2.5', ['limit']],
  ['lat=41.1&lon=-8.6&limit=five', ['limit']],
  ['lat=41.1&lon=-8.6&wheelchair=yes', ['wheelchair']],
  ['lat=41.1&lon=-8.6&open_now=1', ['open_now']],
  ['lat=41.1&lon=-8.6&free=', ['free']],
  ['lat=41.1&lon=-8.6&changing_table=TRUE', ['changing_table']],
  ['lat=41.1&lon=-8.6&no_purchase_needed=maybe', ['no_purchase_needed']],
  ['lat=41.1&lon=-8.6&radius=500', ['radius']],
  ['lat=41.1&lat=41.2&lon=-8.6', ['lat']],
  ['lat=%ZZ&lon=-8.6', ['lat']],
  ['lat=100&lon=200&limit=0&free=no', ['free', 'lat', 'limit', 'lon']],
];

const AREA_400: [string, string[]][] = [
  ['', ['bbox']],
  ['limit=5', ['bbox']],
  ['bbox=', ['bbox']],
  ['bbox=-8.62,41.13,-8.58', ['bbox']],
  ['bbox=-8.62,41.13,-8.58,41.16,1', ['bbox']],
  ['bbox=a,b,c,d', ['bbox']],
  ['bbox=-8.58,41.13,-8.62,41.16', ['bbox']], // west > east
  ['bbox=-8.6,41.13,-8.6,41.16', ['bbox']], // west = east
  ['bbox=-8.62,41.16,-8.58,41.13', ['bbox']], // south > north
  ['bbox=-8.8,41.1,-8.5,41.2', ['bbox']], // 0.3 degrees wide
  ['bbox=-8.6,41.0,-8.5,41.2000001', ['bbox']], // a hair over 0.2 degrees tall
  ['bbox=0,89.9,0.1,90.1', ['bbox']], // north past the pole
  ['bbox=179.9,0,180.1,0.1', ['bbox']], // east past the antimeridian
  ['bbox=-8.62,41.13,-8.58,41.16&limit=0', ['limit']],
  ['bbox=-8.62,41.13,-8.58,41.16&limit=201', ['limit']],
  ['bbox=-8.62,41.13,-8.58,41.16&open_now=yes', ['open_now']],
  ['bbox=-8.62,41.13,-8.58,41.16&lat=41.1', ['lat']],
  ['bbox=-8.62,41.13,-8.58,41.16&bbox=-8.62,41.13,-8.58,41.16', ['bbox']],
  ['bbox=-8.8,41.1,-8.5,41.2&limit=300&wheelchair=1', ['bbox', 'limit', 'wheelchair']],
];

describe('errors of the public reads', () => {
  const dir = tempDir();
  const db = join(dir.path, 'toilets.db');
  let s: Served;
  let someId: string;

  before(async () => {
    await importedCopy('porto', db);
    someId = readSourceToilets(db)[0].id;
    s = await serve({ db, places: null });
  });
  after(async () => {
    await s?.close(); // undefined when before() failed; the folder still goes
    dir.remove();
  });

  async function assertInvalid(path: string, names: string[]): Promise<void> {
    const answer = await s.call(path);
    assert.equal(answer.status, 400, `${path} → ${answer.status} ${answer.text.slice(0, 200)}`);
    assert.equal(answer.headers.get('content-type'), 'application/problem+json');
    assert.equal(answer.json.type, `${BASE_URL}/problems/invalid-parameters`);
    assert.equal(answer.json.title, 'Invalid parameters');
    assert.deepEqual(answer.json.invalid_params.map((p: { name: string }) => p.name).sort(), names, path);
    for (const { reason } of answer.json.invalid_params) assert.ok(reason.length > 5, `${path}: reason "${reason}" says what to change`);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
  }

  test('findToiletsNear: every invalid parameter answers 400 naming it', async () => {
    for (const [search, names] of NEAREST_400) await assertInvalid(`${NEAREST}?${search}`, names);
  });

  test('listToiletsInArea: a missing, malformed, inverted, out-of-range or too large box and bad parameters answer 400', async () => {
    for (const [search, names] of AREA_400) await assertInvalid(search ? `${AREA}?${search}` : AREA, names);
  });

  test('the limits themselves are accepted: a 0.2-degree box, limits 1, 20 and 200, the coordinate extremes', async () => {
    const accepted = [
      `${AREA}?bbox=-8.7,41.0,-8.5,41.2&limit=200`,
      `${AREA}?bbox=-8.62,41.13,-8.58,41.16&limit=1&open_now=false`,
      `${NEAREST}?lat=41.14&lon=-8.61&limit=20`,
      `${NEAREST}?lat=41.14&lon=-8.61&limit=1&wheelchair=false`,
      `${NEAREST}?lat=-90&lon=180`,
      `${NEAREST}?lat=90&lon=-180`,
      `${NEAREST}?lat=4.114e1&lon=-8.61`,
    ];
    for (const path of accepted) assert.equal((await s.call(path)).status, 200, path);
  });

  test('a place while no place lookup is configured: 503 with Retry-After equal to retry_after_seconds; lat/lon still work', async () => {
    for (const search of ['place=Ribeira', 'place=Ribeira&country=PT&lat=41.14&lon=-8.61']) {
      const answer = await s.call(`${NEAREST}?${search}`);
      assert.equal(answer.status, 503);
      assert.equal(answer.headers.get('content-type'), 'application/problem+json');
      assert.equal(answer.json.type, `${BASE_URL}/problems/unavailable`);
      assert.ok(answer.json.retry_after_seconds > 0);
      assert.equal(answer.headers.get('retry-after'), String(answer.json.retry_after_seconds));
    }
    const byCoordinates = await s.call(`${NEAREST}?lat=41.14&lon=-8.61`);
    assert.equal(byCoordinates.json.status, 'ok');
  });

  test('a place lookup that cannot answer (throwing or rejecting) gives 503 with its own Retry-After; a broken one 500', async () => {
    const errors: string[] = [];
    const lookups: [PlaceLookup, number][] = [
      [{ find: () => { throw new PlaceLookupUnavailable('the geocoder timed out', 30); } }, 30],
      [{ find: () => Promise.reject(new PlaceLookupUnavailable('the geocoder is busy', 7)) }, 7],
      [{ find: () => Promise.reject(new Error('bug in the lookup')) }, 500],
      [{ find: () => { throw new Error('bug in the lookup'); } }, 500],
    ];
    for (const [places, expected] of lookups) {
      const failing = await serve({ db, places, log: { info() {}, error: (message) => errors.push(message) } });
      try {
        const answer = await failing.call(`${NEAREST}?place=Ribeira`);
        if (expected === 500) {
          assert.equal(answer.status, 500);
          assert.equal(answer.json.type, `${BASE_URL}/problems/server-error`);
          assert.ok(!answer.text.includes('bug in the lookup'), 'the 500 body keeps internals to itself');
          assert.equal(errors.pop(), 'request failed');
        } else {
          assert.equal(answer.status, 503);
          assert.equal(answer.json.retry_after_seconds, expected);
          assert.equal(answer.headers.get('retry-after'), String(expected));
        }
        assert.equal((await failing.call(`${NEAREST}?lat=41.14&lon=-8.61`)).json.status, 'ok', 'lat and lon still work');
      } finally {
        await failing.close();
      }
    }
  });

  test('getToilet: unknown and malformed ids answer a 404 problem', async () => {
    const ids = ['n1', 'w1', 'r1', 'x123', 'n0123', 'n', 'N' + someId.slice(1), `n${'9'.repeat(20)}`, 'bad.id', 'a'.repeat(65), 'n1%20', '%E2%98%83', `${someId}0000000000`];
    for (const id of ids) {
      const answer = await s.call(`${AREA}/${id}`);
      assert.equal(answer.status, 404, `${id} → ${answer.status}`);
      assert.equal(answer.json.type, `${BASE_URL}/problems/not-found`);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    }
  });

  test('getToilet takes no query: a stray one is ignored, as the spec gives it no 400', async () => {
    const plain = await s.call(`${AREA}/${someId}`);
    const withQuery = await s.call(`${AREA}/${someId}?_=1700000000`);
    assert.equal(withQuery.status, 200);
    assert.equal(withQuery.text, plain.text);
  });

  test('an unknown path is a 404 problem; a wrong method a 405 problem with Allow', async () => {
    for (const path of ['/api/v1/nope', '/api/v2/toilets/nearest', `${AREA}/${someId}/extra`, '/problems', '/t']) {
      const answer = await s.call(path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.json.type, `${BASE_URL}/problems/not-found`);
    }
    for (const [method, path] of [['POST', NEAREST], ['DELETE', `${AREA}/${someId}`], ['PUT', AREA], ['PATCH', '/api/v1/openapi.json']]) {
      const answer = await s.call(path, { method });
      assert.equal(answer.status, 405, `${method} ${path}`);
      assert.equal(answer.json.type, `${BASE_URL}/problems/method-not-allowed`);
      assert.match(answer.headers.get('allow') ?? '', /\bGET\b/);
    }
  });

  test('HEAD answers like GET without a body', async () => {
    for (const path of [`${NEAREST}?lat=41.14&lon=-8.61`, `${AREA}?bbox=-8.62,41.13,-8.58,41.16`, `${AREA}/${someId}`, '/api/v1/openapi.json', '/licenses']) {
      const get = await s.call(path);
      const head = await s.call(path, { method: 'HEAD' });
      assert.equal(head.status, 200, path);
      assert.equal(head.text, '');
      assert.equal(get.status, 200, path);
      assert.ok(get.text.length > 0);
      assert.equal(head.headers.get('content-type'), get.headers.get('content-type'));
    }
  });

  test('reads answer any origin: Access-Control-Allow-Origin * on answers and preflights', async () => {
    const headers = { Origin: 'https://elsewhere.example' };
    for (const path of [`${NEAREST}?lat=41.14&lon=-8.61`, `${AREA}?bbox=-8.62,41.13,-8.58,41.16`, `${AREA}/${someId}`, '/api/v1/openapi.json', '/.well-known/oauth-protected-resource']) {
      const answer = await s.call(path, { headers });
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', path);
      assert.equal(answer.headers.get('access-control-allow-credentials'), null, path);
      const preflight = await s.call(path.split('?')[0], { method: 'OPTIONS', headers: { ...headers, 'Access-Control-Request-Method': 'GET' } });
      assert.ok(preflight.status === 204 || preflight.status === 200, `preflight ${path}: ${preflight.status}`);
      assert.equal(preflight.headers.get('access-control-allow-origin'), '*', `preflight ${path}`);
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /\bGET\b/, `preflight ${path}`);
    }
    const exposed = (await s.call(`${NEAREST}?lat=41.14&lon=-8.61`)).headers.get('access-control-expose-headers') ?? '';
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']) assert.ok(exposed.includes(name), `${name} is exposed`);
  });
});
