// Query-string parsing for the public reads. It runs on every read, so the query is split by hand and each
// parameter's check is compiled once from its schema in params.ts (bounds, lengths, patterns, defaults).
// ajv's coerceTypes is not used: it takes "0x10" and " 5" as numbers and its messages name keywords.

import { expectedValue, listWords, mustBe, unknownNameReason } from './describe.js';
import { BBOX_MAX_SIDE_DEGREES, QUERY_PARAMS, type BBox, type QueryOperation, type QueryParamSet, type QueryParamsOf } from './params.js';
import type { JsonSchema } from './refs.js';
import { LATITUDE, LONGITUDE, type InvalidParam } from './resources.js';

export type QueryResult<T> = { ok: true; params: T } | { ok: false; invalid: InvalidParam[] };

/** What a converter returns for a value it refuses. */
class Rejection {
  constructor(readonly reason: string) {}
}

/** Turns the decoded text of one parameter into its typed value, or a Rejection. */
type Convert = (text: string) => unknown;

interface CompiledParam {
  readonly name: string;
  readonly index: number;
  readonly convert: Convert;
  readonly defaultValue: unknown;
}

/** A parameter set's checks, compiled once (compileQuery); parseParams runs them on a query. */
export interface CompiledParamSet {
  /** Whose parameters they are, for the errors of a set that names a parameter it lacks. */
  readonly label: string;
  readonly params: readonly CompiledParam[];
  readonly byName: ReadonlyMap<string, CompiledParam>;
  readonly names: readonly string[];
  readonly required: readonly { readonly param: CompiledParam; readonly reason: string }[];
  readonly together: readonly (readonly [CompiledParam, CompiledParam])[];
}

/** JSON's number grammar (what clients' number-to-string conversions produce, exponents included). */
const NUMBER_TEXT = /^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

function compileNumber(schema: JsonSchema): Convert {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
  const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
  const integer = schema.type === 'integer';
  const rejection = new Rejection(mustBe(schema));
  return (text) => {
    if (!NUMBER_TEXT.test(text)) return rejection;
    const value = +text;
    return value >= min && value <= max && (!integer || Number.isInteger(value)) ? value : rejection;
  };
}

function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff) length--; // the low half of a surrogate pair is not a character of its own
  }
  return length;
}

function compileString(schema: JsonSchema): Convert {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null;
  const rejection = new Rejection(mustBe(schema));
  return (text) => {
    const length = codePointLength(text);
    return length < minLength || length > maxLength || (pattern !== null && !pattern.test(text)) ? rejection : text;
  };
}

function compileBoolean(schema: JsonSchema): Convert {
  const rejection = new Rejection(mustBe(schema));
  return (text) => (text === 'true' ? true : text === 'false' ? false : rejection);
}

// ---- bbox: the pattern checks its shape; the ranges, order and size are checked here ----

const BBOX_SIDES = [
  ['west', LONGITUDE],
  ['south', LATITUDE],
  ['east', LONGITUDE],
  ['north', LATITUDE],
] as const;
const BBOX_RANGE_REASONS = BBOX_SIDES.map(([side, schema]) => `${side} ${mustBe(schema)}`);
const BBOX_SIDE_TEXT = String(BBOX_MAX_SIDE_DEGREES);
/** Far above float rounding of a degree difference (~1e-13), far below any decimal a client means. */
const FLOAT_SLACK = 1e-9;

function fractionDigits(decimal: string): number {
  const dot = decimal.indexOf('.');
  return dot === -1 ? 0 : decimal.length - dot - 1;
}

/** The decimal `text` times 10^scale, exactly. */
function scaled(decimal: string, scale: number): bigint {
  const negative = decimal.startsWith('-');
  const digits = negative ? decimal.slice(1) : decimal;
  const dot = digits.indexOf('.');
  const whole = dot === -1 ? digits : digits.slice(0, dot);
  const fraction = dot === -1 ? '' : digits.slice(dot + 1);
  const value = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -value : value;
}

/** high − low computed on the decimal texts, so 13.5 − 13.3 is 0.2 and not 0.20000000000000107. */
function exactDifference(low: string, high: string): { units: bigint; scale: number } {
  const scale = Math.max(fractionDigits(low), fractionDigits(high), fractionDigits(BBOX_SIDE_TEXT));
  return { units: scaled(high, scale) - scaled(low, scale), scale };
}

function isSideTooLong(low: string, high: string, difference: number): boolean {
  if (difference > BBOX_MAX_SIDE_DEGREES + FLOAT_SLACK) return true;
  if (difference < BBOX_MAX_SIDE_DEGREES - FLOAT_SLACK) return false;
  const { units, scale } = exactDifference(low, high);
  return units > scaled(BBOX_SIDE_TEXT, scale);
}

function decimalText({ units, scale }: { units: bigint; scale: number }): string {
  const digits = units.toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

function parseBBox(text: string): BBox | Rejection {
  const parts = text.split(',');
  const [west, south, east, north] = parts.map(Number);
  const problems: string[] = [];
  [west, south, east, north].forEach((value, i) => {
    const [, schema] = BBOX_SIDES[i];
    if (value < schema.minimum || value > schema.maximum) problems.push(BBOX_RANGE_REASONS[i]);
  });
  if (!(west < east)) problems.push('west must be less than east');
  if (!(south < north)) problems.push('south must be less than north');
  const tooLong: string[] = [];
  if (west < east && isSideTooLong(parts[0], parts[2], east - west)) tooLong.push(`${decimalText(exactDifference(parts[0], parts[2]))} wide`);
  if (south < north && isSideTooLong(parts[1], parts[3], north - south)) tooLong.push(`${decimalText(exactDifference(parts[1], parts[3]))} tall`);
  if (tooLong.length > 0) problems.push(`each side of the box may be at most ${BBOX_SIDE_TEXT} degrees; this one is ${listWords(tooLong, 'and')}`);
  return problems.length > 0 ? new Rejection(problems.join('; ')) : { west, south, east, north };
}

/** Parameters whose text carries more structure than one JSON Schema value. */
const STRUCTURED: Record<string, (text: string) => unknown> = { bbox: parseBBox };

function compileParam(name: string, schema: JsonSchema, index: number): CompiledParam {
  let convert: Convert;
  if (schema.type === 'number' || schema.type === 'integer') convert = compileNumber(schema);
  else if (schema.type === 'boolean') convert = compileBoolean(schema);
  else if (schema.type === 'string') convert = compileString(schema);
  else throw new Error(`query parameter ${name} has a type the parser cannot read: ${JSON.stringify(schema.type)}`);
  const structure = STRUCTURED[name];
  if (structure) {
    const checkText = convert;
    convert = (text) => {
      const checked = checkText(text);
      return checked instanceof Rejection ? checked : structure(text);
    };
  }
  return { name, index, convert, defaultValue: schema.default };
}

/** The checks of a parameter set: a read's (QUERY_PARAMS) or a registry entry's own (`query` of a RouteSpec). */
export function compileQuery(set: QueryParamSet, label: string): CompiledParamSet {
  const params = Object.entries(set.properties).map(([name, schema], index) => compileParam(name, schema, index));
  const byName = new Map(params.map((param) => [param.name, param]));
  const lookup = (name: string) => {
    const param = byName.get(name);
    if (!param) throw new Error(`${label} names ${name}, which is not one of its parameters`);
    return param;
  };
  return {
    label,
    params,
    byName,
    names: params.map((param) => param.name),
    required: set.required.map((name) => ({ param: lookup(name), reason: `is required; send ${expectedValue(set.properties[name])}` })),
    together: set.together.map(([a, b]) => [lookup(a), lookup(b)] as const),
  };
}

const COMPILED = Object.fromEntries(Object.entries(QUERY_PARAMS).map(([operation, set]) => [operation, compileQuery(set, operation)])) as Record<QueryOperation, CompiledParamSet>;

/** application/x-www-form-urlencoded decoding of one name or value; null when the percent-encoding is broken. */
function decodeComponent(text: string): string | null {
  const spaced = text.indexOf('+') === -1 ? text : text.replaceAll('+', ' ');
  if (spaced.indexOf('%') === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

/** Marks a parameter that was sent but whose value could not be decoded (already reported). */
const UNDECODABLE = null;

/**
 * Parses the query string of a read (without the leading `?`) into typed parameters with defaults
 * applied, or lists every offending parameter with what to change.
 */
export function parseQuery<Op extends QueryOperation>(operation: Op, query: string | undefined): QueryResult<QueryParamsOf[Op]> {
  return parseParams(COMPILED[operation], query) as QueryResult<QueryParamsOf[Op]>;
}

/** parseQuery with a compiled set of its own (compileQuery): the typed parameters, or every fault. */
export function parseParams(set: CompiledParamSet, query: string | undefined): QueryResult<Record<string, unknown>> {
  const texts: (string | null | undefined)[] = new Array(set.params.length);
  let invalid: InvalidParam[] | null = null;
  let repeated: CompiledParam[] | null = null;
  const report = (name: string, reason: string) => {
    invalid ??= [];
    if (!invalid.some((entry) => entry.name === name)) invalid.push({ name, reason });
  };

  if (query) {
    const encoded = query.indexOf('%') !== -1 || query.indexOf('+') !== -1;
    const end = query.length;
    for (let start = 0; start < end; ) {
      let stop = query.indexOf('&', start);
      if (stop === -1) stop = end;
      if (stop > start) {
        const equals = query.indexOf('=', start);
        const hasValue = equals !== -1 && equals < stop;
        const rawName = query.slice(start, hasValue ? equals : stop);
        const rawText = hasValue ? query.slice(equals + 1, stop) : '';
        const name = encoded ? decodeComponent(rawName) : rawName;
        const text = encoded ? decodeComponent(rawText) : rawText;
        const param = name === null ? undefined : set.byName.get(name);
        if (name === null) report(rawName, 'the name is not valid percent-encoding');
        else if (param === undefined) report(name, unknownNameReason('parameter', name, set.names));
        else if (texts[param.index] !== undefined) (repeated ??= []).push(param);
        else {
          texts[param.index] = text ?? UNDECODABLE;
          if (text === null) report(name, 'the value is not valid percent-encoding');
        }
      }
      start = stop + 1;
    }
  }

  const params: Record<string, unknown> = {};
  for (const param of set.params) {
    const text = texts[param.index];
    if (repeated?.includes(param)) report(param.name, 'sent more than once; send it once');
    else if (text === undefined) {
      if (param.defaultValue !== undefined) params[param.name] = param.defaultValue;
    } else if (text !== UNDECODABLE) {
      const value = param.convert(text);
      if (value instanceof Rejection) report(param.name, value.reason);
      else params[param.name] = value;
    }
  }
  for (const { param, reason } of set.required) {
    if (texts[param.index] === undefined) report(param.name, reason);
  }
  for (const [a, b] of set.together) {
    const sentA = texts[a.index] !== undefined;
    if (sentA !== (texts[b.index] !== undefined)) {
      const [missing, sent] = sentA ? [b, a] : [a, b];
      report(missing.name, `send ${missing.name} together with ${sent.name}`);
    }
  }

  return invalid === null ? { ok: true, params } : { ok: false, invalid };
}
