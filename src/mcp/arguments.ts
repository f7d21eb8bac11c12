// Tool arguments and results checked against the service's own JSON Schemas (src/schemas), wrapped as the
// Standard Schemas the MCP SDK validates with and lists. Arguments are refused the way REST refuses a query:
// every offending argument, each with what to send instead, so a model can correct the call in one go.
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { unknownNameReason } from '../schemas/describe.js';
import { BODY_NAME, compiledOnFirstUse, invalidParamsFromErrors, validatorFor } from '../schemas/validate.js';
import { selfContainedSchema } from '../schemas/catalogue.js';
import type { JsonSchema } from '../schemas/refs.js';
import type { InvalidParam, SchemaName } from '../schemas/resources.js';

// The validators are compiled in the process's one ajv (src/schemas/validate.ts), on first use: compiling
// the tools' schemas (the results' are large) took ~0.2 s of every start, before any MCP client had
// called. A tool gets `limit: 5` and the filters as `false` when the caller leaves them out, exactly as
// the query parser fills them in for REST; a no of the quick check (the fast path) goes to the SDK, which
// says why in full. Tests call every tool.

/** A tool's Standard Schema, with the same schema's check as a yes or no. */
export type CheckedSchema<I, O> = StandardSchemaWithJSON<I, O> & {
  /** The value (completed with the schema's defaults) when it passes, else null. */
  passing(value: unknown): O | null;
};

/** Checks a JSON Schema cannot state (e.g. that a country code exists); run on arguments that passed the schema. */
export type ArgumentCheck<T> = (args: T) => InvalidParam[];

type Issues = { issues: { message: string }[] };

/** A tool's input schema: lists as `schema`, validates with it, fills in its defaults. */
export function toolArguments<T>(schema: JsonSchema, check?: ArgumentCheck<T>): CheckedSchema<unknown, T> {
  const validator = compiledOnFirstUse(schema);
  const quickly = compiledOnFirstUse(schema, true);
  const plain = plainShape(schema);
  const known = Object.keys((schema.properties ?? {}) as object);
  const checked = standardSchema<unknown, T>(schema, (value) => {
    const validate = validator();
    if (!validate(value)) return refusal(argumentProblems(validate.errors ?? [], known));
    const invalid = check?.(value as T) ?? [];
    return invalid.length > 0 ? refusal(invalid) : { value: value as T };
  });
  const passes = (value: unknown): value is T => (plain(value) || quickly()(value)) && (check?.(value as T) ?? []).length === 0;
  return { ...checked, passing: (value) => (passes(value) ? value : null) };
}

type Json = Record<string, unknown>;

/**
 * The schema's check for the arguments most calls send, read from the schema itself: an object of only
 * numbers, integers, booleans and patterned strings within their bounds, with the pairs and required
 * members it names, completed with its defaults. False sends the value to ajv (anything else: text with
 * a length bound, other keywords), which also decides every value this refuses. A third of ajv's time
 * for the same yes (docs/PERFORMANCE.md); test/mcp/arguments.test.ts holds the two to the same answers.
 */
export function plainShape(schema: JsonSchema): (value: unknown) => boolean {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const checks = new Map<string, (value: unknown) => boolean>();
  for (const [name, property] of Object.entries(properties)) {
    const check = plainCheck(property);
    if (check !== null) checks.set(name, check);
  }
  const pairs = Object.entries((schema.dependentRequired ?? {}) as Record<string, string[]>).flatMap(([name, needs]) => needs.map((other) => [name, other]));
  const required = (schema.required ?? []) as string[];
  const defaults = Object.entries(properties).flatMap(([name, property]) => (property.default === undefined ? [] : [[name, property.default] as const]));
  const simple = schema.type === 'object' && schema.additionalProperties === false && Object.keys(schema).every((key) => SIMPLE_OBJECT_KEYWORDS.has(key));
  // indexed loops over arrays made here: this runs on every call (iterators and closures cost more than the checks)
  return (value) => {
    if (!simple || value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const args = value as Json;
    const keys = Object.keys(args);
    for (let i = 0; i < keys.length; i++) {
      const check = checks.get(keys[i]);
      if (check === undefined || !check(args[keys[i]])) return false;
    }
    for (let i = 0; i < required.length; i++) if (args[required[i]] === undefined) return false;
    for (let i = 0; i < pairs.length; i++) if (args[pairs[i][0]] !== undefined && args[pairs[i][1]] === undefined) return false;
    for (let i = 0; i < defaults.length; i++) if (args[defaults[i][0]] === undefined) args[defaults[i][0]] = defaults[i][1];
    return true;
  };
}

const SIMPLE_OBJECT_KEYWORDS = new Set(['type', 'properties', 'dependentRequired', 'required', 'additionalProperties', 'description', 'title']);
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples']);

/** The check of one property when it is a plain one (see plainShape), else null. */
function plainCheck(property: JsonSchema): ((value: unknown) => boolean) | null {
  const { type, minimum, maximum, pattern } = property as { type?: unknown; minimum?: number; maximum?: number; pattern?: string };
  const keywords = Object.keys(property).filter((key) => !ANNOTATIONS.has(key));
  const within = (value: number) => (minimum === undefined || value >= minimum) && (maximum === undefined || value <= maximum);
  const only = (...allowed: string[]) => keywords.every((key) => allowed.includes(key));
  if (type === 'number' && only('type', 'minimum', 'maximum')) return (value) => typeof value === 'number' && Number.isFinite(value) && within(value);
  if (type === 'integer' && only('type', 'minimum', 'maximum')) return (value) => typeof value === 'number' && Number.isInteger(value) && within(value);
  if (type === 'boolean' && only('type')) return (value) => typeof value === 'boolean';
  if (type === 'string' && only('type', 'pattern') && pattern !== undefined) {
    const matches = new RegExp(pattern, 'u'); // as ajv compiles patterns
    return (value) => typeof value === 'string' && matches.test(value);
  }
  return null;
}

/**
 * A tool's output schema, the named schema of its entry's answer: listed self-contained (a client need
 * resolve no reference), checked with the validator REST and the tests use. A result that fails it is a
 * bug the SDK reports as a tool error. The fast path does not check its answers: they are the reads'
 * answers by construction, which test/mcp/answer-schema checks against this schema over generated answers.
 */
export function toolOutput<T>(name: SchemaName): StandardSchemaWithJSON<T, T> {
  return standardSchema<T, T>(selfContainedSchema(name), (value) => {
    const validate = validatorFor(name);
    return validate(value) ? { value: value as T } : { issues: invalidParamsFromErrors(validate.errors ?? []).map((p) => ({ message: `${p.name} ${p.reason}` })) };
  });
}

/** "Change these 2 arguments and call the tool again: lat: must be ...; lon: ..." */
function describeInvalid(invalid: readonly InvalidParam[]): string {
  const which = invalid.length === 1 ? 'this argument' : `these ${invalid.length} arguments`;
  return `change ${which} and call the tool again: ${invalid.map((p) => `${p.name}: ${p.reason}`).join('; ')}.`;
}

function standardSchema<I, O>(schema: JsonSchema, validate: (value: unknown) => { value: O } | Issues): StandardSchemaWithJSON<I, O> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toilet-finder',
      validate,
      jsonSchema: { input: () => schema as Record<string, unknown>, output: () => schema as Record<string, unknown> },
    },
  };
}

// The SDK joins issue messages with ", "; one issue carries the whole sentence instead.
function refusal(invalid: readonly InvalidParam[]): Issues {
  return { issues: [{ message: describeInvalid(invalid) }] };
}

/**
 * ajv errors as one entry per argument. Two keywords read better in tool words than in the generic
 * body wording: a pair sent half (lat without lon), and an argument the tool does not take.
 */
function argumentProblems(errors: readonly ErrorObject[], known: readonly string[]): InvalidParam[] {
  const own: InvalidParam[] = [];
  const rest: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword === 'dependentRequired' && error.instancePath === '') {
      own.push({ name: error.params.missingProperty, reason: `send ${error.params.missingProperty} together with ${error.params.property}` });
    } else if (error.keyword === 'additionalProperties' && error.instancePath === '') {
      own.push({ name: error.params.additionalProperty, reason: unknownNameReason('argument', error.params.additionalProperty, known) });
    } else {
      rest.push(error);
    }
  }
  const problems = [...own, ...invalidParamsFromErrors(rest)].map((p) => (p.name === BODY_NAME ? { name: 'arguments', reason: p.reason } : p));
  // One entry per name, in the schema's order of arguments; names the tool does not take come last.
  const rank = (name: string) => (known.includes(name) ? known.indexOf(name) : known.length);
  return problems.filter((p, i) => problems.findIndex((q) => q.name === p.name) === i).sort((a, b) => rank(a.name) - rank(b.name));
}
