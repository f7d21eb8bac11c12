// ajv validators (JSON Schema 2020-12) for every named schema, compiled on first use: request bodies are checked with
// them, MCP tools check their results, and tests check every answer against the response schemas. Errors
// become invalid_params entries named like `votes[2].value`, with reasons in plain words taken from the
// failing schema. The process's one ajv (per thread: a read thread has its own): each ajv compiles the
// JSON Schema meta-schema before its first schema (40–80 ms), and a schema compiled in two would be
// compiled twice (docs/PERFORMANCE.md, "Schema compilation").

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { mustBe, unknownNameReason } from './describe.js';
import { schemaId, schemaNameOf, type JsonSchema } from './refs.js';
import type { InvalidParam, SchemaName } from './resources.js';
import { isSchemaName, schemaCatalogue } from './catalogue.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = formats.default;

/**
 * `useDefaults`: a tool's arguments are completed with their defaults (`limit: 5`), as the query parser
 * fills them in for REST; no named schema declares a default, so a body is checked as it was sent.
 */
const OPTIONS = { strict: true, allowUnionTypes: true, useDefaults: true } as const;

let registry: Ajv2020 | undefined;
let yesOrNo: Ajv2020 | undefined;

/**
 * The validators' ajv, with every named schema registered at the first validation, not at start: checking
 * them against the meta-schema took ~45 ms of every start, and only request bodies need a validator.
 */
function ajv(): Ajv2020 {
  if (registry === undefined) {
    registry = new Ajv2020({ ...OPTIONS, allErrors: true, verbose: true });
    withFormats(registry);
    for (const schema of Object.values(schemaCatalogue())) registry.addSchema(schema);
  }
  return registry;
}

/**
 * The same schemas for a yes or no (the MCP fast path, src/mcp/fast-path.ts): stopping at the first error,
 * without its details, takes a third of the time. It checks no schema against the meta-schema (compiling
 * that again cost 40–80 ms per thread): ajv() does before each is compiled here.
 */
function quickAjv(): Ajv2020 {
  if (yesOrNo === undefined) {
    yesOrNo = new Ajv2020({ ...OPTIONS, allErrors: false, verbose: false, validateSchema: false });
    withFormats(yesOrNo);
  }
  return yesOrNo;
}

/** The string formats the schemas use. */
function withFormats(instance: Ajv2020): void {
  addFormats(instance, ['uri', 'uri-reference', 'email', 'date-time', 'date']);
}

/**
 * A validator of a schema that has no name (a tool's arguments, made from an entry's parameters), compiled
 * on its first call; `quick`: one that only says yes or no, for a no to be asked again in full.
 */
export function compiledOnFirstUse(schema: JsonSchema, quick = false): () => ValidateFunction {
  let validate: ValidateFunction | undefined;
  return () => (validate ??= quick ? compiledQuickly(schema) : ajv().compile(schema));
}

function compiledQuickly(schema: JsonSchema): ValidateFunction {
  if (!ajv().validateSchema(schema)) throw new Error(`not a valid JSON Schema: ${ajv().errorsText()}`);
  return quickAjv().compile(schema);
}

/**
 * The validator of a named schema, compiled on first use (ajv keeps it): compiling every schema at start
 * took ~0.3 s of each start, for schemas most of which only the tests use (the answers'). A test compiles
 * every one, so a bad schema still fails before it ships.
 */
export function validatorFor(name: SchemaName): ValidateFunction {
  const validate = ajv().getSchema(schemaId(name));
  if (!validate) throw new Error(`schema ${name} was not registered`);
  return validate;
}

/** Name of the body itself in invalid_params, when the body as a whole is wrong (e.g. not an object). */
export const BODY_NAME = 'body';

function lookupRef(ref: string): JsonSchema | undefined {
  const name = schemaNameOf(ref);
  return name !== null && isSchemaName(name) ? schemaCatalogue()[name] : undefined;
}

/** `/votes/2/value` → `votes[2].value` */
export function fieldName(instancePath: string, child?: string): string {
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/');
  if (child !== undefined) segments.push(child);
  let name = '';
  for (const raw of segments) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    name += /^[0-9]+$/.test(segment) ? `[${segment}]` : name === '' ? segment : `.${segment}`;
  }
  return name === '' ? BODY_NAME : name;
}

/** Failures of a union's branch or of an `if`; noise when a deeper error says what is really wrong. */
const BRANCH_KEYWORDS = new Set(['type', 'anyOf', 'oneOf', 'if', 'const', 'enum']);
/** Errors that describe the whole union; they win over the errors of its single branches. */
const UNION_KEYWORDS = new Set(['anyOf', 'oneOf']);

function entryFor(error: ErrorObject): InvalidParam | null {
  const parent = (error.parentSchema ?? {}) as JsonSchema;
  switch (error.keyword) {
    case 'if':
      return null; // the failing `then` reports the field itself
    case 'required':
      return { name: fieldName(error.instancePath, error.params.missingProperty), reason: 'is required' };
    case 'additionalProperties': {
      const known = Object.keys((parent.properties ?? {}) as object);
      return { name: fieldName(error.instancePath, error.params.additionalProperty), reason: unknownNameReason('field', error.params.additionalProperty, known) };
    }
    case 'propertyNames':
      return { name: fieldName(error.instancePath, error.params.propertyName), reason: `is not an allowed key; the key ${mustBe(parent.propertyNames as JsonSchema)}` };
    default:
      return { name: fieldName(error.instancePath), reason: mustBe(parent, lookupRef) };
  }
}

/** ajv errors (from a validator compiled with allErrors and verbose) as invalid_params, one entry per field. */
export function invalidParamsFromErrors(errors: readonly ErrorObject[]): InvalidParam[] {
  const byName = new Map<string, { reason: string; union: boolean }>();
  for (const error of errors) {
    const deeper = errors.some((other) => other.instancePath.startsWith(`${error.instancePath}/`));
    if (deeper && BRANCH_KEYWORDS.has(error.keyword)) continue;
    // propertyNames reports the offending key twice: once from its inner schema, once for itself
    if (error.propertyName !== undefined) continue;
    const entry = entryFor(error);
    if (entry === null) continue;
    const union = UNION_KEYWORDS.has(error.keyword);
    const known = byName.get(entry.name);
    if (known === undefined || (union && !known.union)) byName.set(entry.name, { reason: entry.reason, union });
  }
  return [...byName].map(([name, { reason }]) => ({ name, reason }));
}

/** What is wrong with `data` as a `name`; empty when it is valid. */
export function findInvalid(name: SchemaName, data: unknown): InvalidParam[] {
  const validate = validatorFor(name);
  return validate(data) ? [] : invalidParamsFromErrors(validate.errors ?? []);
}
