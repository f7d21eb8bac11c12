// JSON text in ASCII only: every character beyond U+007F written as a \uXXXX escape (valid JSON that
// parses to the same values). Answers then stay one-byte strings in V8, which it copies and encodes to
// UTF-8 as plain bytes; a single non-Latin name would otherwise make the whole answer a two-byte string
// and double the cost of writing it out.

const NON_ASCII = /[\u0080-\uffff]/g;
const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** JSON.stringify, with non-ASCII characters escaped. */
export function asciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  return NON_ASCII.test(json) ? json.replace(NON_ASCII, escape) : json;
}
