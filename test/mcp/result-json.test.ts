// The fast path writes a tool result's JSON from the read's ASCII text (src/mcp/result-json.ts); it must
// equal JSON.stringify of the result the SDK would serialise, for every text the reads can write: names
// in any script, emoji (surrogate pairs), lone surrogates, control characters, quotes and backslashes,
// backslashes before a "u", numbers of every kind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asciiJson } from '../../src/rules/ascii-json.js';
import { reparsedJson, resultJson } from '../../src/mcp/result-json.js';

const SAMPLES = [
  'plain', 'Café', 'Zürich Hbf', 'Map data © OpenStreetMap', 'Москва', '東京駅', '🚻 WC 😀', '\ud83d lone high', 'lone low \ude00',
  'tab\there\nnew line\r\u0000\u001f\u007f', 'quote " and \\ backslash', '\\u00e9 written out', '\\\\u0041', '\u2028\u2029', '/slash/',
  '\u00a0\u00ad\u0080\u009f\uffff', '',
];
const NUMBERS = [0, -0, 1, -1, 43.7387213, 7.4283579, 1e-7, 123456789012, 1e21, 0.1 + 0.2, -180, 90, 5e-324];

function values(seed: number): unknown {
  const pick = <T>(list: readonly T[], i: number) => list[(seed * 7 + i * 13) % list.length];
  return {
    status: 'ok',
    name: pick(SAMPLES, 1),
    results: [0, 1, 2].map((i) => ({ id: `n${seed}${i}`, name: pick(SAMPLES, i + 2), lat: pick(NUMBERS, i), tags: [pick(SAMPLES, i + 3), null, true, false], nested: { [pick(SAMPLES, i)]: pick(NUMBERS, i + 5) } })),
    attribution: { text: 'Map data \u00a9 OpenStreetMap contributors' },
  };
}

test('a reparsed answer text is JSON.stringify of its parse, for every kind of character and number', () => {
  for (let seed = 0; seed < 200; seed++) {
    const ascii = asciiJson(values(seed));
    assert.ok(/^[\x20-\x7f]*$/.test(ascii), 'the reads write ASCII without raw control characters');
    assert.equal(reparsedJson(ascii), JSON.stringify(JSON.parse(ascii)), ascii);
  }
});

test('a result written from its source is JSON.stringify of it with the extra members; other results too', () => {
  const source = asciiJson(values(3));
  const structured = JSON.parse(source);
  const extra = { resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' } } };
  const result = { content: [{ type: 'text' as const, text: source }, { type: 'text' as const, text: 'Map data © OSM' }, { type: 'text' as const, text: 'No results "here"' }], structuredContent: structured };
  assert.equal(resultJson(result, source, extra), JSON.stringify({ ...result, ...extra }));
  const failed = { content: [{ type: 'text' as const, text: 'No toilet has the id "n1"' }], isError: true };
  assert.equal(resultJson(failed, undefined, {}), JSON.stringify(failed));
  const empty = { content: [], structuredContent: structured };
  assert.equal(resultJson(empty, source, {}), JSON.stringify(empty));
});
