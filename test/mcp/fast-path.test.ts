// The fast path against the SDK: generated requests (argument shapes and bounds, missing and extra fields,
// wrong types, unknown tools, both revisions, JSON and event-stream Accept, envelopes and headers the SDK
// looks at closer, rate-limited and oversized requests) go to two servers over the same data and clock,
// one with MCP_FAST_PATH off; status, headers and body bytes must be the same. Only Date and the framing
// headers differ by design: the fast path writes a 2025-era event stream in one piece with a
// Content-Length where the SDK streams it chunked, and gzips it for a client that takes gzip, where the
// SDK streams it uncoded (fetch decodes it: the bytes compared are the decoded ones; gzip.test.ts compares
// the fast path's gzip with zlib's reading of it). Each request also says whether the fast path must take
// it, and the test checks that it did: a fast path that declined everything would pass the comparison.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PlaceLookup } from '../../src/places/lookup.js';
import { CASINO, importMonaco, MODERN, serve, type Extract, type Served } from './support.js';

const LEGACY = '2025-11-25';
const BOTH_ACCEPT = 'application/json, text/event-stream';
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
/** Headers whose values say nothing about the answer: when it was sent and how its body is framed. */
const FRAMING = new Set(['date', 'content-length', 'transfer-encoding']);

type Era = 'modern' | 'legacy';

interface Case {
  label: string;
  headers: Record<string, string>;
  body: string;
  /** The fast path must answer it (else it must not matter which path did). */
  fast: boolean;
  /** The fast path gzips this event stream, which the SDK streams uncoded (its coding headers are left out). */
  gzippedStream?: boolean;
}

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** The headers a client of `era` sends for `method` (and tool `name`), as a well-behaved client would. */
function headersFor(era: Era, method: string, name?: string, accept = BOTH_ACCEPT): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: accept,
    'Accept-Encoding': 'identity',
    'MCP-Protocol-Version': era === 'modern' ? MODERN : LEGACY,
    ...(era === 'modern' ? { 'Mcp-Method': method, ...(name === undefined ? {} : { 'Mcp-Name': name }) } : {}),
  };
}

function toolCall(era: Era, id: unknown, name: string, args: unknown, meta?: unknown): string {
  const params: Record<string, unknown> = { name, ...(args === undefined ? {} : { arguments: args }) };
  const envelope = meta === undefined ? (era === 'modern' ? ENVELOPE : undefined) : meta;
  if (envelope !== undefined) params._meta = envelope;
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}

const FIND_VALID: Record<string, unknown>[] = [
  { lat: CASINO.lat, lon: CASINO.lon },
  { lat: CASINO.lat, lon: CASINO.lon, limit: 1 },
  { lat: CASINO.lat, lon: CASINO.lon, limit: 20, open_now: true },
  { lat: CASINO.lat, lon: CASINO.lon, wheelchair: true, changing_table: false, free: true, no_purchase_needed: false },
  { lat: 90, lon: 180 },
  { lat: -90, lon: -180, limit: 3 },
  { lat: 0, lon: 0 },
  {},
  { place: 'Casino' },
  { place: 'Monte Carlo', country: 'MC' },
  { place: 'Nowhere-at-all-xyz' },
  { place: 'Casino', lat: CASINO.lat, lon: CASINO.lon },
];
const FIND_INVALID: Record<string, unknown>[] = [
  { lat: 90.0001, lon: 0 },
  { lat: 0, lon: -180.5 },
  { lat: CASINO.lat },
  { lon: CASINO.lon },
  { lat: '43.7', lon: 7.4 },
  { lat: CASINO.lat, lon: CASINO.lon, limit: 0 },
  { lat: CASINO.lat, lon: CASINO.lon, limit: 21 },
  { lat: CASINO.lat, lon: CASINO.lon, limit: 2.5 },
  { lat: CASINO.lat, lon: CASINO.lon, limit: '5' },
  { lat: CASINO.lat, lon: CASINO.lon, wheelchair: 'true' },
  { lat: CASINO.lat, lon: CASINO.lon, radius: 500 },
  { place: 'a' },
  { place: 'x'.repeat(201) },
  { place: 'Casino', country: 'XX' },
  { place: 'Casino', country: 'mcx' },
  { place: 42 },
  { lat: null, lon: null },
];

function* generated(ids: { known: string }): Generator<Case> {
  for (const era of ['modern', 'legacy'] as const) {
    const call = (label: string, name: string, args: unknown, fast: boolean, meta?: unknown, id: unknown = 1) =>
      ({ label: `${era} ${label}`, headers: headersFor(era, 'tools/call', name), body: toolCall(era, id, name, args, meta), fast });
    for (const args of FIND_VALID) yield call(`find ${JSON.stringify(args)}`, 'find_toilets_near', args, true);
    for (const args of FIND_INVALID) yield call(`find invalid ${JSON.stringify(args).slice(0, 60)}`, 'find_toilets_near', args, false);
    for (const args of [{ id: ids.known }, { id: 'n1' }, { id: 'w999999999999' }]) yield call(`get ${args.id}`, 'get_toilet', args, true);
    for (const args of [{}, { id: '' }, { id: 123 }, { id: ids.known, extra: true }, { id: 'not an id!' }]) yield call(`get invalid ${JSON.stringify(args)}`, 'get_toilet', args, false);
    yield call('get, arguments missing', 'get_toilet', undefined, false);
    yield call('find, arguments an array', 'find_toilets_near', [], false);
    yield call('find, arguments null', 'find_toilets_near', null, false);
    yield call('unknown tool', 'find_toilet', { lat: 1, lon: 1 }, false);
    for (const id of ['abc', 0, -7, 2 ** 40, '']) yield call(`get, id ${JSON.stringify(id)}`, 'get_toilet', { id: ids.known }, true, undefined, id);
    for (const id of [1.5, null, true, { n: 1 }]) yield call(`get, id ${JSON.stringify(id)}`, 'get_toilet', { id: ids.known }, false, undefined, id);
    yield* hints(era, call);
    yield* framing(era, ids);
  }
  yield* modernEnvelopes(ids);
  yield* otherMethods();
}

/** The host's location hint in _meta, as the SDK path hands it to the tool. */
function* hints(era: Era, call: (label: string, name: string, args: unknown, fast: boolean, meta?: unknown) => Case): Generator<Case> {
  const envelope = era === 'modern' ? ENVELOPE : {};
  const hint = (location: unknown) => ({ ...envelope, 'openai/userLocation': location });
  yield call('hint coordinates', 'find_toilets_near', {}, true, hint({ latitude: CASINO.lat, longitude: CASINO.lon, city: 'Monaco', country: 'MC' }));
  yield call('hint city', 'find_toilets_near', {}, true, hint({ city: 'Monte Carlo', country: 'MC' }));
  yield call('hint unusable', 'find_toilets_near', {}, true, hint({ latitude: 200, longitude: 'x', city: 'a' }));
  yield call('hint not an object', 'find_toilets_near', {}, true, hint('Monaco'));
  yield call('hint ignored beside coordinates', 'find_toilets_near', { lat: 0, lon: 0 }, true, hint({ latitude: CASINO.lat, longitude: CASINO.lon }));
  yield call('progress token', 'find_toilets_near', { lat: 0, lon: 0 }, false, { ...envelope, progressToken: 'p1' });
}

/** Accept, Content-Type, sessions and header mismatches: the SDK answers every one that is not plain. */
function* framing(era: Era, ids: { known: string }): Generator<Case> {
  const body = toolCall(era, 5, 'get_toilet', { id: ids.known });
  for (const accept of ['application/json', 'text/event-stream', '*/*', 'text/event-stream, application/json']) {
    yield { label: `${era} Accept ${accept}`, headers: headersFor(era, 'tools/call', 'get_toilet', accept), body, fast: era === 'modern' || accept.includes(',') };
  }
  const plain = headersFor(era, 'tools/call', 'get_toilet');
  yield { label: `${era} gzip accepted`, headers: { ...plain, 'Accept-Encoding': 'gzip' }, body, fast: true, gzippedStream: era === 'legacy' };
  yield { label: `${era} charset in Content-Type`, headers: { ...plain, 'Content-Type': 'application/json; charset=utf-8' }, body, fast: false };
  yield { label: `${era} text/plain body`, headers: { ...plain, 'Content-Type': 'text/plain' }, body, fast: false };
  yield { label: `${era} session id`, headers: { ...plain, 'Mcp-Session-Id': 'abc' }, body, fast: false };
  yield { label: `${era} other version header`, headers: { ...plain, 'MCP-Protocol-Version': '2025-06-18' }, body, fast: false };
  const { 'MCP-Protocol-Version': _version, ...unversioned } = plain;
  yield { label: `${era} no version header`, headers: unversioned, body, fast: false };
  yield { label: `${era} not JSON`, headers: plain, body: '{"jsonrpc":"2.0",', fast: false };
  yield { label: `${era} extra member`, headers: plain, body: body.replace('{"jsonrpc"', '{"extra":1,"jsonrpc"'), fast: false };
  yield { label: `${era} jsonrpc 1.0`, headers: plain, body: body.replace('"2.0"', '"1.0"'), fast: false };
  yield { label: `${era} batch`, headers: plain, body: `[${body}]`, fast: false };
  yield { label: `${era} notification`, headers: plain, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), fast: false };
}

function* modernEnvelopes(ids: { known: string }): Generator<Case> {
  const headers = headersFor('modern', 'tools/call', 'get_toilet');
  const args = { id: ids.known };
  const withMeta = (label: string, meta: unknown, fast: boolean): Case => ({ label: `modern envelope ${label}`, headers, body: toolCall('modern', 9, 'get_toilet', args, meta), fast });
  yield withMeta('with clientInfo', { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 'agent', version: '1.2.3', title: 'An agent' } }, true);
  yield withMeta('with capabilities', { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {}, roots: {} } }, true);
  yield withMeta('capabilities with detail', { ...ENVELOPE, 'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true } } }, false);
  yield withMeta('clientInfo without version', { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 'agent' } }, false);
  yield withMeta('without capabilities', { 'io.modelcontextprotocol/protocolVersion': MODERN }, false);
  yield withMeta('other version', { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }, false);
  yield withMeta('log level', { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'debug' }, false);
  yield withMeta('missing', null, false);
  const body = toolCall('modern', 9, 'get_toilet', args);
  yield { label: 'modern Mcp-Name of the other tool', headers: { ...headers, 'Mcp-Name': 'find_toilets_near' }, body, fast: false };
  yield { label: 'modern Mcp-Method missing', headers: { ...headers, 'Mcp-Method': '' }, body, fast: false };
  yield { label: 'modern Mcp-Name base64', headers: { ...headers, 'Mcp-Name': `=?base64?${Buffer.from('get_toilet').toString('base64')}?=` }, body, fast: false };
}

function* otherMethods(): Generator<Case> {
  const legacy = (method: string, params?: unknown, fast = false): Case => ({
    label: `legacy ${method} ${JSON.stringify(params) ?? ''}`,
    headers: headersFor('legacy', method),
    body: JSON.stringify({ jsonrpc: '2.0', id: 'm', method, ...(params === undefined ? {} : { params }) }),
    fast,
  });
  yield legacy('ping', undefined, true);
  yield legacy('ping', {}, true);
  yield legacy('ping', { _meta: { progressToken: 1 } });
  yield legacy('tools/list');
  yield legacy('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } });
  const modern = (method: string): Case => ({ label: `modern ${method}`, headers: headersFor('modern', method), body: JSON.stringify({ jsonrpc: '2.0', id: 'm', method, params: { _meta: ENVELOPE } }), fast: false });
  yield modern('ping');
  yield modern('tools/list');
  yield modern('server/discover');
}

async function send(served: Served, c: Case): Promise<Answer> {
  const response = await fetch(served.url, { method: 'POST', headers: c.headers, body: c.body });
  const headers = [...response.headers].filter(([name]) => !FRAMING.has(name));
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()).toString('latin1') };
}

/** The fast path's gzipped event stream with its coding headers left out, after checking they say gzip. */
function uncoded(answer: Answer): Answer {
  const coding = answer.headers.filter(([name]) => name === 'content-encoding' || name === 'vary');
  assert.deepEqual(coding, [['content-encoding', 'gzip'], ['vary', 'Accept-Encoding']]);
  return { ...answer, headers: answer.headers.filter(([name]) => name !== 'content-encoding' && name !== 'vary') };
}

/** Sends `c` to both; returns whether the fast server's fast path answered it, and the status. */
async function compare(fast: Served, sdk: Served, c: Case): Promise<{ taken: boolean; status: number }> {
  const before = fast.app.mcp.fastAnswers;
  const [a, b] = [await send(fast, c), await send(sdk, c)];
  assert.deepEqual(c.gzippedStream === true ? uncoded(a) : a, b, c.label);
  assert.equal(sdk.app.mcp.fastAnswers, 0, 'the SDK server has no fast path');
  return { taken: fast.app.mcp.fastAnswers > before, status: a.status };
}

/** A place lookup that answers later, as a read thread's (asked of the main thread) does. */
function later(lookup: PlaceLookup): PlaceLookup {
  return { find: async (query) => lookup.find(query) };
}

describe('MCP fast path and SDK answer alike', () => {
  let extracts: Extract[];
  let pairs: { fast: Served; sdk: Served }[];
  let known: string;

  before(async () => {
    extracts = [await importMonaco(), await importMonaco(), await importMonaco(), await importMonaco()];
    const places = extracts[0].places();
    const pair = async (offset: number, env: Record<string, string>, lookup: PlaceLookup) => ({
      fast: await serve({ db: extracts[offset].db, env, places: lookup }),
      sdk: await serve({ db: extracts[offset + 1].db, env: { ...env, MCP_FAST_PATH: 'false' }, places: lookup }),
    });
    pairs = [await pair(0, {}, places), await pair(2, { RATE_LIMIT_PER_MINUTE: '5' }, later(places))];
    const ids: Case = { label: 'ids', headers: headersFor('modern', 'tools/call', 'find_toilets_near'), body: toolCall('modern', 1, 'find_toilets_near', CASINO), fast: true };
    const found = await send(pairs[0].fast, ids);
    await send(pairs[0].sdk, ids); // both budgets count alike
    known = JSON.parse(JSON.parse(found.body).result.content[0].text).results[0].id;
  });
  after(async () => {
    for (const { fast, sdk } of pairs ?? []) await Promise.all([fast.close(), sdk.close()]);
    for (const extract of extracts ?? []) extract.remove();
  });

  test('generated requests get the same status, headers and bytes; the plain ones from the fast path', async () => {
    const { fast, sdk } = pairs[0];
    let taken = 0;
    for (const c of generated({ known })) {
      const answered = (await compare(fast, sdk, c)).taken;
      if (c.fast) assert.ok(answered, `the fast path took ${c.label}`);
      else assert.ok(!answered, `the SDK answered ${c.label}`);
      if (answered) taken++;
    }
    assert.ok(taken > 60, `the fast path answered ${taken} requests`);
  });

  test('a place looked up later, rate-limited requests and an oversized body answer alike', async () => {
    const { fast, sdk } = pairs[1];
    const place: Case = { label: 'place answered later', headers: headersFor('modern', 'tools/call', 'find_toilets_near'), body: toolCall('modern', 2, 'find_toilets_near', { place: 'Casino' }), fast: true };
    assert.ok((await compare(fast, sdk, place)).taken, 'the fast path answered after the lookup');
    const legacyPlace = { ...place, headers: headersFor('legacy', 'tools/call'), body: toolCall('legacy', 2, 'find_toilets_near', { place: 'Monte Carlo' }) };
    assert.ok((await compare(fast, sdk, legacyPlace)).taken);
    const oversized = { ...place, body: toolCall('modern', 3, 'find_toilets_near', { place: 'x'.repeat(70 * 1024) }), fast: false };
    assert.ok(!(await compare(fast, sdk, oversized)).taken);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const c = { ...place, body: toolCall('modern', 10 + i, 'get_toilet', { id: known }), headers: headersFor('modern', 'tools/call', 'get_toilet') };
      statuses.push((await compare(fast, sdk, c)).status);
    }
    assert.ok(statuses.includes(429), `the budget of 5 ran out: ${statuses.join(', ')}`);
  });
});
