// A tool result as the JSON text the SDK writes (JSON.stringify of the result), made from the read's own
// ASCII answer text without serialising its parse again: the answer is JSON.stringify output with every
// character beyond U+007F escaped (src/rules/ascii-json.ts; src/rules/json-bytes.ts writes numbers as
// String() does), so JSON.stringify of its parse differs only where those escapes are undone: one pass
// over the text instead of a walk of the whole content (~5 µs against ~20 for a find_toilets_near
// answer, docs/PERFORMANCE.md). test/mcp/result-json.test.ts holds the two equal over generated texts.
import type { CallToolResult } from '@modelcontextprotocol/server';

/** An escape sequence: a run of \uXXXX escapes (a surrogate pair is two), or any other one. */
const ESCAPES = /\\u[0-9a-fA-F]{4}(?:\\u[0-9a-fA-F]{4})*|\\[^u]/g;

/** JSON.stringify(JSON.parse(ascii)) for an ASCII JSON text as the reads write it. */
export function reparsedJson(ascii: string): string {
  return ascii.includes('\\u') ? ascii.replace(ESCAPES, canonicalEscape) : ascii;
}

function canonicalEscape(escape: string): string {
  if (escape[1] !== 'u') return escape;
  // JSON.stringify writes the characters themselves, except controls and lone surrogates (lower-case escapes)
  return JSON.stringify(JSON.parse(`"${escape}"`)).slice(1, -1);
}

/**
 * JSON.stringify({...result, ...extra}); `source`: the ASCII text its structured content was parsed from,
 * written from that text rather than serialised from the parse.
 */
export function resultJson(result: CallToolResult, source: string | undefined, extra: Record<string, unknown>): string {
  if (source === undefined) return JSON.stringify({ ...result, ...extra });
  let json = '';
  for (const [key, value] of Object.entries({ ...result, ...extra })) {
    if (value === undefined) continue;
    json += `${json === '' ? '{' : ','}${JSON.stringify(key)}:${key === 'structuredContent' ? reparsedJson(source) : JSON.stringify(value)}`;
  }
  return `${json === '' ? '{' : json}}`;
}
