// The fast path writes both copies of a read's answer as bytes (src/mcp/result-bytes.ts); they must be
// what the SDK's JSON.stringify writes, for every text the reads can write: names in any script, emoji
// (surrogate pairs), lone surrogates, control characters, quotes and backslashes, backslashes before a
// "u", numbers of every kind. While marking, every piece start must land where its piece went, and each
// fragment named there must be the bytes there (the gzip writer packs it in their place).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asciiJson } from '../../src/rules/ascii-json.js';
import { ResultBytes } from '../../src/mcp/result-bytes.js';
import type { Pieces } from '../../src/rules/json-bytes.js';

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

function written(write: (out: ResultBytes) => void, marking = false): { bytes: Buffer; pieces: Pieces } {
  const out = new ResultBytes();
  out.reset(marking);
  write(out);
  return { bytes: Buffer.from(out.view()), pieces: out.pieces() };
}

test('both copies of an answer text are what JSON.stringify writes, for every kind of character and number', () => {
  for (let seed = 0; seed < 200; seed++) {
    const ascii = asciiJson(values(seed));
    assert.ok(/^[\x20-\x7f]*$/.test(ascii), 'the reads write ASCII without raw control characters');
    const plain = Buffer.from(ascii, 'latin1');
    assert.equal(written((out) => out.stringOf(plain, null)).bytes.toString(), JSON.stringify(ascii).slice(1, -1), ascii);
    assert.equal(written((out) => out.parsedOf(plain, null)).bytes.toString(), JSON.stringify(JSON.parse(ascii)), ascii);
  }
});

test('a JSON string of any bytes read as latin1 is what JSON.stringify writes', () => {
  const every = Buffer.from(Array.from({ length: 256 * 3 }, (_, i) => (i * 7) % 256));
  for (let start = 0; start < 8; start++) {
    const plain = every.subarray(start);
    assert.equal(written((out) => out.stringOf(plain, null)).bytes.toString(), JSON.stringify(plain.toString('latin1')).slice(1, -1));
  }
});

test('piece starts land where their pieces went, with each fragment copy the bytes there', () => {
  const fragments = [',"name":', '"Map data \\u00a9 OSM"', '{"status":"ok","results":[', '"\\u00e9t\\u00e9 \\"q\\" \\\\ end"', ']}', '"\\ud83d\\ude00"'].map((text) => Buffer.from(text, 'latin1'));
  for (let seed = 0; seed < 100; seed++) {
    // an answer of fragments and fresh texts, its pieces marked as JsonBytes marks them
    // (a fragment may be followed by bytes written without a mark: numbers, as JsonBytes writes them)
    const parts: { bytes: Buffer; fragment: Buffer | null }[] = [];
    for (let i = 0; i < 12; i++) {
      const fragment = (seed + i) % 3 !== 0 ? fragments[(seed * 5 + i) % fragments.length] : null;
      const unmarked = Buffer.from((seed + i) % 4 === 0 ? '-12.5"\\' : '', 'latin1');
      parts.push({ bytes: fragment !== null ? Buffer.concat([fragment, unmarked]) : Buffer.from(asciiJson(SAMPLES[(seed + i) % SAMPLES.length]), 'latin1'), fragment });
    }
    const plain = Buffer.concat(parts.map((p) => p.bytes));
    let at = 0;
    const starts = Int32Array.from(parts.map((p) => ((at += p.bytes.length), at - p.bytes.length)));
    const pieces: Pieces = { starts, count: parts.length, sources: parts.map((p) => p.fragment) };
    for (const copy of ['stringOf', 'parsedOf'] as const) {
      const { bytes, pieces: mapped } = written((out) => out[copy](plain, pieces), true);
      const alone = written((out) => out[copy](plain, null)).bytes;
      assert.ok(bytes.equals(alone), `${copy}: marking and fragments change nothing written`);
      assert.equal(mapped.count, parts.length);
      for (let m = 0; m < mapped.count; m++) {
        if (m > 0) assert.ok(mapped.starts[m] >= mapped.starts[m - 1], `${copy}: starts ascend`);
        const source = mapped.sources[m];
        if (source !== null) assert.ok(bytes.subarray(mapped.starts[m], mapped.starts[m] + source.length).equals(source), `${copy} piece ${m} of seed ${seed}`);
        else if (copy === 'stringOf' || parts[m].fragment === null) continue;
        // a fragment without a copy in parsedOf: only where a surrogate's escape makes its copy depend on its neighbours
        else assert.match(parts[m].fragment!.toString('latin1'), /\\ud[89a-f]/i);
      }
    }
  }
});
