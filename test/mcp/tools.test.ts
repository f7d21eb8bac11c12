// The two public tools through the official client SDKs, in both protocol revisions, against the real
// server over the imported Monaco extract. The tools must answer exactly what REST answers for the same
// question, as structuredContent and as text, followed by the data credit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { inputSchemaOf, operationIn, READ_OPERATIONS } from '../../src/schemas/operations.js';
import { selfContainedSchema } from '../../src/schemas/catalogue.js';
import { findInvalid } from '../../src/schemas/validate.js';
import { RemoteGeocoder } from '../../src/places/remote.js';
import { CASINO, CLIENT_KINDS, importMonaco, rest, serve, type Extract, type McpSession, type Served } from './support.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const NEAREST = '/api/v1/toilets/nearest';

/** A successful tool answer: structured content of `schema`, the same JSON as text, then the credit line. */
function assertAnswer(result: any, schema: 'FindResult' | 'ToiletAnswer'): any {
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  assert.deepEqual(findInvalid(schema, result.structuredContent), [], `structuredContent is a valid ${schema}`);
  assert.equal(result.content.length, 2);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, 'the first text block holds the same JSON');
  assert.equal(result.content[1].text, result.structuredContent.attribution.text, 'the second is the credit line');
  assert.match(result.content[1].text, /OpenStreetMap contributors/);
  return result.structuredContent;
}

/** A tool fault: isError with one text block for the model, no structured content. */
function assertToolError(result: any): string {
  assert.equal(result.isError, true, `expected a tool error, got ${JSON.stringify(result).slice(0, 300)}`);
  assert.equal(result.structuredContent, undefined);
  return result.content.map((block: any) => block.text).join('\n');
}

function query(params: Record<string, string | number | boolean>): string {
  return `${NEAREST}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;
}

describe('MCP tools on the Monaco extract', () => {
  let extract: Extract;
  let served: Served;
  let someId: string;

  before(async () => {
    extract = await importMonaco();
    served = await serve({ db: extract.db, places: extract.places() });
    someId = (await rest(served, query({ ...CASINO, limit: 1 }))).results[0].id;
  });
  after(async () => {
    await served?.close();
    extract?.remove();
  });

  for (const kind of CLIENT_KINDS) {
    describe(kind.label, () => {
      let session: McpSession;
      before(async () => {
        session = await kind.connect(served.url);
      });
      after(() => session?.close());

      test('lists both tools with the operations\' schemas and read-only annotations', async () => {
        const { tools } = await session.listTools();
        assert.deepEqual(
          tools.map((tool) => tool.name),
          ['find_toilets_near', 'get_toilet'],
        );
        const [find, get] = tools;
        for (const tool of tools) {
          assert.deepEqual(tool.annotations, READ_ONLY, tool.name);
          assert.ok(tool.title && tool.description.length > 100, `${tool.name} is described for a model`);
        }
        const findInput = inputSchemaOf(operationIn(READ_OPERATIONS, 'findToiletsNear'));
        assert.deepEqual(Object.keys(find.inputSchema.properties), Object.keys(findInput.properties as object));
        assert.deepEqual(find.inputSchema.dependentRequired, findInput.dependentRequired);
        assert.equal(find.inputSchema.additionalProperties, false);
        assert.deepEqual(find.inputSchema.properties.limit, (findInput.properties as any).limit, 'bounds and default as REST');
        assert.match(find.inputSchema.properties.place.description, /has not said where/);
        assert.match(find.description, /needs_location/);
        const getInput = inputSchemaOf(operationIn(READ_OPERATIONS, 'getToilet')) as any;
        assert.match(get.inputSchema.properties.id.description, /find_toilets_near/);
        assert.deepEqual(get.inputSchema, { ...getInput, properties: { id: { ...getInput.properties.id, description: get.inputSchema.properties.id.description } } });
        assert.deepEqual(find.outputSchema, selfContainedSchema('FindResult'));
        assert.deepEqual(get.outputSchema, selfContainedSchema('ToiletAnswer'));
      });

      test('find_toilets_near by coordinates answers what REST answers', async () => {
        const args = { ...CASINO, limit: 3, wheelchair: true };
        const found = assertAnswer(await session.callTool({ name: 'find_toilets_near', arguments: args }), 'FindResult');
        assert.equal(found.status, 'ok');
        assert.equal(found.origin.source, 'coordinates');
        assert.deepEqual(found, await rest(served, query(args)));
      });

      test('find_toilets_near by place uses the place lookup', async () => {
        const found = assertAnswer(await session.callTool({ name: 'find_toilets_near', arguments: { place: 'Fontvieille', country: 'mc' } }), 'FindResult');
        assert.equal(found.origin.source, 'place');
        assert.match(found.origin.label, /Fontvieille/);
        assert.deepEqual(found, await rest(served, query({ place: 'Fontvieille', country: 'mc' })));
      });

      test('get_toilet answers what REST answers', async () => {
        const answer = assertAnswer(await session.callTool({ name: 'get_toilet', arguments: { id: someId } }), 'ToiletAnswer');
        assert.equal(answer.toilet.id, someId);
        assert.deepEqual(answer, await rest(served, `/api/v1/toilets/${someId}`));
      });

      test('without a location and without a hint: needs_location and a question for the user', async () => {
        const found = assertAnswer(await session.callTool({ name: 'find_toilets_near', arguments: {} }), 'FindResult');
        assert.equal(found.status, 'needs_location');
        assert.equal(found.origin, null);
        assert.deepEqual(found.results, []);
        assert.match(found.ask_user, /Where are you\?/);
      });

      test('the host\'s location hint is searched from when the call names no location', async () => {
        const hint = { city: 'Monte-Carlo', region: 'Monaco', country: 'MC', latitude: CASINO.lat, longitude: CASINO.lon };
        const found = assertAnswer(await session.callTool({ name: 'find_toilets_near', arguments: { limit: 2 }, _meta: { 'openai/userLocation': hint } }), 'FindResult');
        assert.equal(found.status, 'ok');
        assert.deepEqual(found.origin, { lat: CASINO.lat, lon: CASINO.lon, label: 'Monte-Carlo, Monaco, MC', source: 'host_hint' });
        const byCoordinates = await rest(served, query({ ...CASINO, limit: 2 }));
        assert.deepEqual(found.results, byCoordinates.results);
      });

      test('a hint with coordinates and no names is labelled with the coordinates rounded to 5 decimals', async () => {
        const hint = { latitude: 43.738412345, longitude: 7.424612345 };
        const found = assertAnswer(await session.callTool({ name: 'find_toilets_near', arguments: { limit: 1 }, _meta: { 'openai/userLocation': hint } }), 'FindResult');
        assert.deepEqual(found.origin, { lat: 43.738412345, lon: 7.424612345, label: '43.73841, 7.42461', source: 'host_hint' });
      });

      test('a hint with only a city is placed by the place lookup', async () => {
        const found = assertAnswer(
          await session.callTool({ name: 'find_toilets_near', arguments: {}, _meta: { 'openai/userLocation': { city: 'Fontvieille', country: 'MC' } } }),
          'FindResult',
        );
        const byPlace = await rest(served, query({ place: 'Fontvieille', country: 'MC' }));
        assert.deepEqual(found.origin, { ...byPlace.origin, source: 'host_hint' });
        assert.deepEqual(found.results, byPlace.results);
      });

      test('a place or coordinates in the call win over the hint', async () => {
        const hint = { 'openai/userLocation': { latitude: 43.7277, longitude: 7.4155, city: 'Fontvieille' } };
        const found = assertAnswer(await session.callTool({ name: 'find_toilets_near', arguments: { ...CASINO }, _meta: hint }), 'FindResult');
        assert.equal(found.origin.source, 'coordinates');
        assert.deepEqual([found.origin.lat, found.origin.lon], [CASINO.lat, CASINO.lon]);
      });

      test('invalid arguments are a tool error listing each one with what to send', async () => {
        const text = assertToolError(await session.callTool({ name: 'find_toilets_near', arguments: { lat: 95, limit: 0, wheelchiar: true } }));
        assert.match(text, /change these 4 arguments/);
        assert.match(text, /lat: must be a number between -90 and 90/);
        assert.match(text, /lon: send lon together with lat/);
        assert.match(text, /limit: must be an integer between 1 and 20/);
        assert.match(text, /wheelchiar: unknown argument; did you mean wheelchair\?/);
      });

      test('a country code that does not exist is refused like REST refuses it', async () => {
        const text = assertToolError(await session.callTool({ name: 'find_toilets_near', arguments: { place: 'Fontvieille', country: 'XX' } }));
        assert.match(text, /country: XX is not an ISO 3166-1 alpha-2 country code/);
      });

      test('get_toilet: an unknown id and a malformed id are tool errors', async () => {
        assert.match(assertToolError(await session.callTool({ name: 'get_toilet', arguments: { id: 'n1' } })), /No toilet has the id "n1"/);
        assert.match(assertToolError(await session.callTool({ name: 'get_toilet', arguments: { id: 'not an id!' } })), /id: must be a toilet id of 1 to 64 letters/);
        assert.match(assertToolError(await session.callTool({ name: 'get_toilet', arguments: {} })), /id: is required/);
      });

      test('an unknown tool is a protocol error, not a tool result', async () => {
        await assert.rejects(session.callTool({ name: 'list_toilets', arguments: {} }), (error: any) => {
          assert.equal(error.code, -32602);
          assert.match(error.message, /list_toilets not found/);
          return true;
        });
      });
    });
  }
});

describe('MCP tools when the place lookup fails', () => {
  let extract: Extract;
  let withoutLookup: Served;
  let unreachable: Served;
  let session: McpSession;
  let unreachableSession: McpSession;

  before(async () => {
    extract = await importMonaco();
    withoutLookup = await serve({ db: extract.db, places: null });
    // A real geocoder client aimed at a port nothing listens on: every lookup fails as it would in production.
    const geocoder = new RemoteGeocoder({ url: 'http://127.0.0.1:9/search', timeoutMs: 2000, userAgent: 'toilet-finder-tests', retryAfterSeconds: 30 });
    unreachable = await serve({ db: extract.db, places: geocoder });
    session = await CLIENT_KINDS[0].connect(withoutLookup.url);
    unreachableSession = await CLIENT_KINDS[1].connect(unreachable.url);
  });
  after(async () => {
    await session?.close();
    await unreachableSession?.close();
    await withoutLookup?.close();
    await unreachable?.close();
    extract?.remove();
  });

  test('a place with no lookup configured: a tool error that suggests coordinates', async () => {
    const text = assertToolError(await session.callTool({ name: 'find_toilets_near', arguments: { place: 'Fontvieille' } }));
    assert.match(text, /place lookup cannot answer right now \(this server has no place lookup yet\)/);
    assert.match(text, /Call again with lat and lon instead, or retry the place after 3600 seconds/);
  });

  test('an unreachable geocoder: a tool error naming when to retry; coordinates still work', async () => {
    const text = assertToolError(await unreachableSession.callTool({ name: 'find_toilets_near', arguments: { place: 'Nowhere Street' } }));
    assert.match(text, /retry the place after 30 seconds/);
    const found = assertAnswer(await unreachableSession.callTool({ name: 'find_toilets_near', arguments: { ...CASINO } }), 'FindResult');
    assert.equal(found.status, 'ok');
  });

  test('a city hint the lookup cannot place leaves the question to the user', async () => {
    const found = assertAnswer(
      await unreachableSession.callTool({ name: 'find_toilets_near', arguments: {}, _meta: { 'openai/userLocation': { city: 'Fontvieille', country: 'MC' } } }),
      'FindResult',
    );
    assert.equal(found.status, 'needs_location');
  });
});
