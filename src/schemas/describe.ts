// Plain-word reasons for invalid_params, derived from the same schema that rejected the value, so the
// caller reads what to send ("must be a number between -90 and 90") rather than a keyword ("must be <= 90").

import type { JsonSchema } from './refs.js';

const FORMAT_WORDS: Record<string, string> = {
  uri: 'an absolute URI',
  'uri-reference': 'a URI reference',
  email: 'an email address',
  'date-time': 'a date and time with UTC offset (RFC 3339), e.g. 2026-11-20T14:05:00Z',
  date: 'a date (YYYY-MM-DD)',
};

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** "a, b or c" */
export function listWords(words: readonly string[], conjunction = 'or'): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

function range(low: unknown, high: unknown): string {
  if (typeof low === 'number' && typeof high === 'number') return ` between ${low} and ${high}`;
  if (typeof low === 'number') return ` of at least ${low}`;
  if (typeof high === 'number') return ` of at most ${high}`;
  return '';
}

function textLength(min: unknown, max: unknown): string {
  if (typeof min === 'number' && typeof max === 'number') return ` of ${min} to ${max} characters`;
  if (typeof min === 'number') return ` of at least ${min} characters`;
  if (typeof max === 'number') return ` of at most ${max} characters`;
  return '';
}

function itemCount(min: unknown, max: unknown): string {
  if (typeof min === 'number' && typeof max === 'number') return ` of ${min} to ${max} items`;
  if (typeof min === 'number') return ` of at least ${min} items`;
  if (typeof max === 'number') return ` of at most ${max} items`;
  return '';
}

/** What a value matching `schema` looks like, as a noun phrase: "an integer between 1 and 20". */
export function expectedValue(schema: JsonSchema, lookup?: (ref: string) => JsonSchema | undefined): string {
  if (typeof schema.$ref === 'string') {
    const target = lookup?.(schema.$ref);
    return target ? expectedValue(target, lookup) : 'a valid value';
  }
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) return listWords(union.map((branch) => expectedValue(branch, lookup)));
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((value) => value !== null).map((value) => String(value));
    return `one of ${listWords(values)}${schema.enum.includes(null) ? ', or null' : ''}`;
  }
  const types = (Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type]) as string[];
  const main: string | undefined = types.find((type) => type !== 'null') ?? types[0];
  let phrase: string;
  const described = typeof schema.title === 'string' ? schema.title : typeof schema.format === 'string' ? FORMAT_WORDS[schema.format] : undefined;
  if (described !== undefined) phrase = described + textLength(schema.minLength, schema.maxLength);
  else if (typeof schema.pattern === 'string') phrase = `text matching ${schema.pattern}` + textLength(schema.minLength, schema.maxLength);
  else if (main === 'number' || main === 'integer') {
    phrase = TYPE_WORDS[main] + range(schema.minimum, schema.maximum);
  } else if (main === 'string') phrase = TYPE_WORDS.string + textLength(schema.minLength, schema.maxLength);
  else if (main === 'array') phrase = TYPE_WORDS.array + itemCount(schema.minItems, schema.maxItems) + (schema.uniqueItems === true ? ' without repeats' : '');
  else phrase = (main && TYPE_WORDS[main]) ?? 'a valid value';
  return main !== 'null' && types.includes('null') ? `${phrase}, or null` : phrase;
}

/** The reason for an invalid value: "must be an integer between 1 and 20". */
export function mustBe(schema: JsonSchema, lookup?: (ref: string) => JsonSchema | undefined): string {
  return `must be ${expectedValue(schema, lookup)}`;
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-insensitive:
 * `whelchair` and `wheelcahir` are both one step from `wheelchair`.
 */
function editDistance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const width = b.length + 1;
  const rows = new Int32Array(width * (a.length + 1));
  for (let j = 0; j < width; j++) rows[j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[i * width] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[(i - 1) * width + j] + 1, rows[i * width + j - 1] + 1, rows[(i - 1) * width + j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[(i - 2) * width + j - 2] + 1);
      rows[i * width + j] = best;
    }
  }
  return rows[a.length * width + b.length];
}

/** The known names closest to an unknown one, if any is near enough to be a likely typo. */
function closestNames(unknown: string, known: readonly string[]): string[] {
  const allowed = Math.min(2, Math.max(1, Math.floor(unknown.length / 3)));
  let best = allowed;
  let names: string[] = [];
  for (const name of known) {
    if (Math.abs(name.length - unknown.length) > allowed) continue; // too far apart to be a typo, and spares long names
    const distance = editDistance(unknown, name);
    if (distance > allowed) continue;
    if (distance < best) {
      best = distance;
      names = [name];
    } else if (distance === best) names.push(name);
  }
  return names;
}

/** "unknown parameter; did you mean wheelchair?" or, without a near name, the list of known ones. */
export function unknownNameReason(kind: string, unknown: string, known: readonly string[]): string {
  const near = closestNames(unknown, known);
  return near.length > 0 ? `unknown ${kind}; did you mean ${listWords(near)}?` : `unknown ${kind}; known ${kind}s are ${listWords(known, 'and')}`;
}
