import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { buildOpenApi, type OpenApiDocument } from '../../src/schemas/openapi.js';
import { API_PREFIX, fullPath, type OperationSpec } from '../../src/schemas/operations.js';
import { OPERATIONS } from '../../src/operations.js';
import { QUERY_PARAMS } from '../../src/schemas/params.js';
import { SCHEMAS } from '../../src/resources.js';
import { ToiletItem } from '../../src/schemas/resources.js';
import { SHARED_DIR } from '../support/paths.js';

const BASE_URL = 'https://toilets.example.org';
const READS = ['findToiletsNear', 'listToiletsInArea', 'getToilet'];
const CONTRIBUTIONS = ['submitToilet', 'confirmToilet', 'rateToilet', 'reportToilet', 'correctToilet'];
/** Ours (issue 31): the spec names the session scheme but leaves these operations (accounts, the moderator queue) to us. */
const ACCOUNTS = [
  'startPasskeyRegistration', 'createAccount', 'getAccount', 'deleteAccount', 'listPasskeys', 'addPasskey',
  'removePasskey', 'listSessions', 'endSession', 'signOutEverywhere', 'recoverAccount', 'startSignIn', 'signIn', 'signOut',
  'listModerationQueue', 'moderate',
];
/** The spec's partner operations (issue 32), and our listMyPartnerListings, which the spec leaves to us. */
const PARTNERS = ['claimToilet', 'updatePartnerProfile'];
/** The spec's billing operations (issue 33). */
const BILLING = ['startCheckout', 'openBillingPortal', 'receiveStripeEvent'];
/** Operations the spec does not list: ours. */
const OURS = [...ACCOUNTS, 'listMyPartnerListings', 'checkPartnerHours'];
type Json = Record<string, any>;

/** operationId → "METHOD /path" from the spec's endpoint table. */
function specEndpoints(): Map<string, string> {
  const spec = readFileSync(join(SHARED_DIR, 'spec', 'toilet-finder-spec.md'), 'utf8');
  const rows = [...spec.matchAll(/^\| (\w+) \| (GET|POST|PATCH) `([^`]+)` \|/gm)];
  return new Map(rows.map(([, operationId, method, path]) => [operationId, `${method} ${path}`]));
}

function pathItems(document: OpenApiDocument): [string, Record<string, Json>][] {
  return Object.entries(document.paths) as [string, Record<string, Json>][];
}

function operations(document: OpenApiDocument): Json[] {
  return pathItems(document).flatMap(([, item]) => Object.values(item));
}

function operationById(document: OpenApiDocument, operationId: string): Json {
  const found = operations(document).find((operation) => operation.operationId === operationId);
  assert.ok(found, operationId);
  return found;
}

/** Every `$ref` in `value`, with where it was found. */
function refs(value: unknown, at = '#'): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refs(item, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === '$ref' && typeof inner === 'string' ? [[inner, at] as [string, string]] : refs(inner, `${at}/${key}`)));
}

function resolvePointer(document: unknown, pointer: string): unknown {
  assert.ok(pointer.startsWith('#/'), `${pointer} is not local to the document`);
  return pointer
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Json)[part] : undefined), document);
}

describe('buildOpenApi', () => {
  const document = buildOpenApi({ baseUrl: BASE_URL, deprecated: [], operations: OPERATIONS });

  it('has the required top-level members of OpenAPI 3.1 and no top-level security', () => {
    assert.equal(document.openapi, '3.1.0');
    assert.equal(document.info.title, 'Public Toilet Finder API');
    assert.equal(document.info.version, '1.0.0');
    assert.deepEqual(document.servers, [{ url: `${BASE_URL}/api/v1` }]);
    assert.equal(buildOpenApi({ baseUrl: `${BASE_URL}/`, deprecated: [], operations: OPERATIONS }).servers[0].url, `${BASE_URL}/api/v1`);
    assert.ok(Object.keys(document.paths).length > 0);
    assert.ok(!('security' in document));
    assert.deepEqual(Object.keys(document.components.securitySchemes ?? {}), ['session'], 'only the account operations name one');
  });

  it('is plain JSON', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(document)), document);
  });

  it('resolves every $ref inside the document', () => {
    const found = refs(document);
    assert.ok(found.length > 20);
    for (const [ref, at] of found) assert.notEqual(resolvePointer(document, ref), undefined, `${ref} at ${at}`);
    assert.ok(!JSON.stringify(document).includes('urn:'), 'no schema id leaks into the document');
  });

  it('publishes every resource schema under components.schemas', () => {
    assert.deepEqual(Object.keys(document.components.schemas), Object.keys(SCHEMAS));
  });

  it('has unique operationIds, exactly the operations served, the spec’s at the spec’s methods and paths', () => {
    const ids: string[] = operations(document).map((operation) => operation.operationId);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual([...ids].sort(), [...READS, ...CONTRIBUTIONS, ...PARTNERS, ...BILLING, ...OURS].sort());
    const spec = specEndpoints();
    assert.equal(spec.size, 13, 'the spec table lists 13 operations');
    for (const [path, item] of pathItems(document)) {
      for (const [method, operation] of Object.entries(item)) {
        if (OURS.includes(operation.operationId)) assert.equal(spec.has(operation.operationId), false, operation.operationId);
        else assert.equal(`${method.toUpperCase()} ${API_PREFIX}${path}`, spec.get(operation.operationId), operation.operationId);
      }
    }
    for (const operation of OPERATIONS) {
      if (!OURS.includes(operation.operationId)) assert.equal(`${operation.method.toUpperCase()} ${fullPath(operation)}`, spec.get(operation.operationId));
    }
  });

  it('names the session scheme on the account operations that need a signed-in account', () => {
    const signedIn = ['getAccount', 'deleteAccount', 'listPasskeys', 'addPasskey', 'removePasskey', 'listSessions', 'endSession', 'signOutEverywhere', 'listModerationQueue', 'moderate'];
    for (const operationId of ACCOUNTS) {
      assert.deepEqual(operationById(document, operationId).security, signedIn.includes(operationId) ? [{ session: [] }] : [], operationId);
    }
    assert.equal(document.components.securitySchemes?.session.name, '__Host-session');
  });

  it('documents connections=all of signOutEverywhere and connections_ended in its answer', () => {
    const operation = operationById(document, 'signOutEverywhere') as any;
    assert.deepEqual(operation.parameters.map((p: any) => [p.name, p.in, p.required, p.schema.pattern]), [['connections', 'query', false, '^all$']]);
    assert.match(operation.parameters[0].description, /connected app/);
    assert.deepEqual(document.components.schemas!.SessionsEnded.required, ['ended', 'connections_ended']);
  });

  it('names the session scheme on the partner operations', () => {
    for (const operationId of [...PARTNERS, 'listMyPartnerListings']) assert.deepEqual(operationById(document, operationId).security, [{ session: [] }], operationId);
  });

  it('names the session scheme on the site\'s billing operations, none on the webhook, and documents its signature header', () => {
    for (const operationId of ['startCheckout', 'openBillingPortal']) assert.deepEqual(operationById(document, operationId).security, [{ session: [] }], operationId);
    const webhook = operationById(document, 'receiveStripeEvent');
    assert.deepEqual(webhook.security, []);
    assert.deepEqual(webhook.parameters.map((p: Json) => [p.name, p.in, p.required]), [['Stripe-Signature', 'header', true]]);
    assert.equal(webhook.responses[200].headers['RateLimit-Limit'], undefined, 'no rate limit: no RateLimit headers');
    assert.deepEqual(Object.keys(webhook.responses).sort(), ['200', '400', '413', '502', '503']);
  });

  it('names no security scheme on the reads, saying so with an empty list', () => {
    for (const operationId of READS) assert.deepEqual(operationById(document, operationId).security, [], operationId);
  });

  it('declares each path template parameter, and only those, as a required path parameter', () => {
    for (const [path, item] of pathItems(document)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      for (const operation of Object.values(item)) {
        const inPath = (operation.parameters ?? []).filter((parameter: Json) => parameter.in === 'path');
        assert.deepEqual(inPath.map((parameter: Json) => parameter.name), templated, path);
        for (const parameter of inPath) assert.equal(parameter.required, true);
      }
    }
    const [id] = operationById(document, 'getToilet').parameters;
    assert.equal(id.schema.pattern, '^[A-Za-z0-9_-]{1,64}$');
  });

  it('lists the query parameters from the parameter schemas', () => {
    for (const operationId of ['findToiletsNear', 'listToiletsInArea'] as const) {
      const parameters: Json[] = operationById(document, operationId).parameters.filter((parameter: Json) => parameter.in === 'query');
      assert.deepEqual(
        parameters.map((parameter) => parameter.name),
        Object.keys(QUERY_PARAMS[operationId].properties),
      );
      for (const parameter of parameters) {
        assert.equal(parameter.in, 'query');
        assert.equal(parameter.required, parameter.name === 'bbox', parameter.name);
        assert.equal(typeof parameter.description, 'string', parameter.name);
      }
    }
    const limit = operationById(document, 'findToiletsNear').parameters.find((parameter: Json) => parameter.name === 'limit');
    assert.deepEqual(limit.schema, { type: 'integer', minimum: 1, maximum: 20, default: 5 });
  });

  it('answers success as application/json and errors as application/problem+json', () => {
    const expected: Record<string, [string, string[]]> = {
      findToiletsNear: ['FindResult', ['200', '400', '429', '500', '503']],
      listToiletsInArea: ['AreaResult', ['200', '304', '400', '429', '500', '503']],
      getToilet: ['ToiletAnswer', ['200', '304', '404', '429', '500', '503']],
    };
    for (const [operationId, [schema, statuses]] of Object.entries(expected)) {
      const { responses } = operationById(document, operationId);
      assert.deepEqual(Object.keys(responses), statuses, operationId);
      assert.deepEqual(responses['200'].content, { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } });
      for (const status of statuses.slice(1).filter((s) => s !== '304')) {
        assert.deepEqual(responses[status].content, { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } }, `${operationId} ${status}`);
        assert.equal(typeof responses[status].description, 'string');
      }
    }
  });

  it('documents the rate-limit, Retry-After and Cache-Control headers where the spec puts them', () => {
    const headerNames = (operationId: string, status: string) => Object.keys(operationById(document, operationId).responses[status].headers).sort();
    const trio = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
    assert.deepEqual(headerNames('findToiletsNear', '200'), ['Cache-Control', 'RateLimit', 'RateLimit-Policy', 'Vary', ...trio].sort());
    // getToilet's Cache-Control (no-cache) and the ETag/304 of the conditional reads extend the spec
    assert.deepEqual(headerNames('getToilet', '200'), ['Cache-Control', 'ETag', 'RateLimit', 'RateLimit-Policy', 'Vary', ...trio].sort());
    assert.deepEqual(headerNames('getToilet', '304'), ['Cache-Control', 'ETag', 'RateLimit', 'RateLimit-Policy', 'Vary', ...trio].sort());
    assert.equal(operationById(document, 'getToilet').responses['304'].content, undefined, 'a 304 has no body');
    assert.deepEqual(operationById(document, 'getToilet').parameters.at(-1), operationById(document, 'listToiletsInArea').parameters.at(-1));
    assert.equal(operationById(document, 'getToilet').parameters.at(-1).name, 'If-None-Match');
    assert.ok(!('304' in operationById(document, 'findToiletsNear').responses), 'nearest answers are not tagged');
    assert.deepEqual(headerNames('findToiletsNear', '429'), ['RateLimit', 'RateLimit-Policy', 'Retry-After', ...trio].sort());
    assert.deepEqual(headerNames('findToiletsNear', '503'), ['Retry-After', ...trio].sort());
    assert.deepEqual(headerNames('findToiletsNear', '400'), trio);
    assert.deepEqual(headerNames('getToilet', '404'), trio);
    const area = operationById(document, 'listToiletsInArea').responses['200'].headers;
    assert.equal(area['Cache-Control'].example, 'public, max-age=300');
    assert.equal(area['RateLimit-Policy'].example, '"area-per-ip";q=300;w=60');
    assert.equal(operationById(document, 'getToilet').responses['200'].headers['RateLimit-Policy'].example, '"per-ip";q=60;w=60');
    for (const operation of operations(document)) {
      assert.ok(!('deprecated' in operation));
      for (const response of Object.values(operation.responses) as Json[]) {
        assert.ok(!('Deprecation' in response.headers) && !('Sunset' in response.headers), 'no operation is deprecated at present');
      }
    }
  });

  it('marks configured operations deprecated, with Deprecation and Sunset on their answers', () => {
    const deprecating = buildOpenApi({ baseUrl: BASE_URL, deprecated: ['getToilet'], operations: OPERATIONS });
    const getToilet = operationById(deprecating, 'getToilet');
    assert.equal(getToilet.deprecated, true);
    for (const response of Object.values(getToilet.responses) as Json[]) {
      assert.ok('Deprecation' in response.headers && 'Sunset' in response.headers);
    }
    assert.ok(!('deprecated' in operationById(deprecating, 'findToiletsNear')));
    assert.ok(!('Deprecation' in operationById(deprecating, 'findToiletsNear').responses['200'].headers));
    assert.throws(() => buildOpenApi({ baseUrl: BASE_URL, deprecated: ['getToliet'], operations: OPERATIONS }), /getToliet/);
  });

  it('publishes schemas that validate answers as the service validates them', () => {
    const ajv = new Ajv2020({ strict: false });
    formats.default(ajv);
    ajv.addSchema(document, 'openapi');
    const validateArea = ajv.compile({ $ref: 'openapi#/components/schemas/AreaResult' });
    const attribution = { text: '© OpenStreetMap contributors', license: 'ODbL-1.0', url: 'https://osm.org/copyright', license_notice_url: 'https://x.example/l' };
    assert.equal(validateArea({ results: [], truncated: true, attribution, display_note: '' }), true);
    assert.equal(validateArea({ results: [], truncated: 'yes', attribution, display_note: '' }), false);
    assert.equal(validateArea({ results: [{ id: 'n1' }], truncated: false, attribution, display_note: '' }), false);
    for (const name of Object.keys(SCHEMAS)) assert.doesNotThrow(() => ajv.compile({ $ref: `openapi#/components/schemas/${name}` }), name);
  });

  it('takes a site-page operation as one more registry entry', () => {
    const claimToilet: OperationSpec = {
      operationId: 'claimToilet',
      method: 'post',
      path: '/toilets/{id}/claims',
      summary: 'Claim a toilet for a business',
      description: 'A moderator reviews each claim.',
      pathParams: { id: ToiletItem.properties.id },
      requestBody: { schema: 'ClaimToiletRequest' },
      security: 'session',
      rateLimit: OPERATIONS[0].rateLimit,
      success: { status: 201, description: 'The claim waits for a moderator.', schema: 'ClaimToiletAnswer' },
      errors: { 400: 'Invalid body.', 401: 'No account signed in.', 403: 'Other origin.', 404: 'No toilet has the id.', 409: 'Already claimed.', 429: 'Rate limit reached.' },
    };
    const extended = buildOpenApi({ baseUrl: BASE_URL, deprecated: [], operations: [...OPERATIONS, claimToilet] });
    const claim = operationById(extended, 'claimToilet');
    assert.equal(`POST ${API_PREFIX}/toilets/{id}/claims`, specEndpoints().get('claimToilet'));
    assert.deepEqual(claim.security, [{ session: [] }]);
    assert.deepEqual(Object.keys(extended.components.securitySchemes ?? {}), ['session']);
    assert.deepEqual(claim.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/ClaimToiletRequest' });
    assert.deepEqual(Object.keys(claim.responses), ['201', '400', '401', '403', '404', '409', '429']);
    for (const operationId of READS) assert.deepEqual(operationById(extended, operationId).security, []);
    assert.ok(!('security' in extended));
  });
});
