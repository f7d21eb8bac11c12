// The documents around the reads: OpenAPI description, protected-resource discovery, problem type
// pages, the licence and toilet pages, and deprecation headers for an operation named in the config.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { text, type TextKey } from '../../src/web/text/catalogue.js';
import { BASE_URL, importedCopy, readSourceToilets, serve, tempDir, type Served, type SourceToilet } from './support.js';

const OPERATIONS = { findToiletsNear: ['/toilets/nearest', 'get'], listToiletsInArea: ['/toilets', 'get'], getToilet: ['/toilets/{id}', 'get'] } as const;
const READS = {
  findToiletsNear: '/api/v1/toilets/nearest?lat=41.14&lon=-8.61',
  listToiletsInArea: '/api/v1/toilets?bbox=-8.62,41.13,-8.58,41.16',
  getToilet: '', // filled in with a real id
};

describe('documents and pages', () => {
  const dir = tempDir();
  const db = join(dir.path, 'toilets.db');
  let s: Served;
  let deprecating: Served;
  let toilets: SourceToilet[];

  before(async () => {
    await importedCopy('porto', db);
    toilets = readSourceToilets(db);
    READS.getToilet = `/api/v1/toilets/${toilets[0].id}`;
    s = await serve({ db });
    deprecating = await serve({ db, env: { DEPRECATED_OPERATIONS: 'getToilet@2027-01-01/2027-06-30' } });
  });
  after(async () => {
    await s?.close(); // undefined when before() failed; the folder still goes
    await deprecating?.close();
    dir.remove();
  });

  test('/api/v1/openapi.json: OpenAPI 3.1, version 1.0.0, no top-level security, servers under BASE_URL, nothing deprecated', async () => {
    const answer = await s.call('/api/v1/openapi.json');
    assert.equal(answer.status, 200);
    const doc = answer.json;
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(doc.info.version, '1.0.0');
    assert.equal('security' in doc, false);
    assert.deepEqual(doc.servers, [{ url: `${BASE_URL}/api/v1` }]);
    for (const [operationId, [path, method]] of Object.entries(OPERATIONS)) {
      const operation = doc.paths[path][method];
      assert.equal(operation.operationId, operationId);
      assert.deepEqual(operation.security, [], `${operationId} names no security scheme`);
      assert.equal(operation.deprecated, undefined, `${operationId} is not deprecated`);
    }
    for (const path of Object.values(READS)) {
      const answer = await s.call(path);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('deprecation'), null);
      assert.equal(answer.headers.get('sunset'), null);
    }
  });

  test('/.well-known/oauth-protected-resource: resource is BASE_URL, no authorization servers, no bearer methods', async () => {
    const answer = await s.call('/.well-known/oauth-protected-resource');
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(answer.json.resource, BASE_URL);
    assert.deepEqual(answer.json.authorization_servers, []);
    assert.deepEqual(answer.json.bearer_methods_supported, []);
  });

  test('problem type URLs resolve to HTML pages that name the problem; an unknown slug is a 404 problem', async () => {
    const problems = [
      await s.call('/api/v1/toilets/nearest?lat=100&lon=0'),
      await s.call('/api/v1/toilets/n1'),
      await s.call('/api/v1/toilets/nearest', { method: 'POST' }),
      await s.call('/api/v1/toilets/nearest?place=Ribeira'),
    ];
    assert.deepEqual(problems.map((p) => p.status), [400, 404, 405, 503]);
    for (const { json } of problems) {
      const page = await s.call(new URL(json.type).pathname);
      assert.equal(page.status, 200, json.type);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(page.text.includes(`<title>${json.title}</title>`), `${json.type} names ${json.title}`);
    }
    const unknown = await s.call('/problems/no-such-problem');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.type, `${BASE_URL}/problems/not-found`);
  });

  test('/licenses credits OpenStreetMap under the ODbL and describes the loaded extract', async () => {
    const page = await s.call('/licenses');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok(page.text.includes('OpenStreetMap contributors'));
    assert.ok(page.text.includes('Open Database License'));
    assert.ok(page.text.includes('porto-2020-07-20.osm.pbf'), 'names the extract');
    assert.ok(page.text.includes('20 July 2020'), 'says how old the data is');
    assert.ok(page.text.includes(`Toilets: ${toilets.length}.`));
  });

  test('each result url (/t/<id>) is a page with the toilet facts in plain words; an unknown id is a 404 page', async () => {
    const named = toilets.find((t) => t.name !== null && t.opening_hours !== null) ?? toilets.find((t) => t.name !== null)!;
    const api = (await s.call(`/api/v1/toilets/${named.id}`)).json.toilet;
    assert.ok(api.url.startsWith(`${BASE_URL}/t/`));
    const page = await s.call(api.url.slice(BASE_URL.length));
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const words = [text('en', api.access === 'scheme' ? (api.scheme_name ? 'access.scheme' : 'access.schemeUnnamed') : `access.${api.access}` as TextKey, { scheme: api.scheme_name }), text('en', `wheelchair.${api.wheelchair}` as TextKey)];
    const hours = api.opening_hours === null ? text('en', 'hours.unknown') : text('en', 'hours.raw', { hours: api.opening_hours });
    for (const fact of [named.name!, ...words, hours, api.directions.google_maps, 'OpenStreetMap contributors']) {
      assert.ok(page.text.includes(escaped(fact)), `the page shows ${fact}`);
    }
    const missing = await s.call('/t/n1');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('DEPRECATED_OPERATIONS: Deprecation and Sunset on the named operation only, and deprecated in OpenAPI', async () => {
    const deprecation = `@${Date.parse('2027-01-01T00:00:00Z') / 1000}`;
    const sunset = new Date('2027-06-30T23:59:59Z').toUTCString();
    for (const [operationId, path] of Object.entries(READS)) {
      const answer = await deprecating.call(path);
      assert.equal(answer.status, 200);
      const named = operationId === 'getToilet';
      assert.equal(answer.headers.get('deprecation'), named ? deprecation : null, operationId);
      assert.equal(answer.headers.get('sunset'), named ? sunset : null, operationId);
    }
    const gone = await deprecating.call('/api/v1/toilets/n1');
    assert.equal(gone.status, 404);
    const doc = (await deprecating.call('/api/v1/openapi.json')).json;
    for (const [operationId, [path, method]] of Object.entries(OPERATIONS)) {
      assert.equal(doc.paths[path][method].deprecated, operationId === 'getToilet' ? true : undefined, operationId);
    }
  });
});
