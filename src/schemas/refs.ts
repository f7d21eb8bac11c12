// How our schemas name and reference each other. Each named schema carries a URN `$id` (never fetchable, so
// no tool is tempted to dereference it over the network); `$ref`s point at those ids. ajv resolves them
// as they are. The OpenAPI document and MCP tool schemas want document-local references instead, so
// `rewriteRefs` turns each id into a local pointer (`#/components/schemas/X` or `#/$defs/X`).

/** Any JSON Schema object; the keywords are read generically by the walkers below. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export const SCHEMA_ID_PREFIX = 'urn:toilet-finder:schema:';
export type SchemaId<N extends string> = `${typeof SCHEMA_ID_PREFIX}${N}`;

export function schemaId<const N extends string>(name: N): SchemaId<N> {
  return `${SCHEMA_ID_PREFIX}${name}`;
}

export function ref<const N extends string>(name: N): { readonly $ref: SchemaId<N> } {
  return { $ref: schemaId(name) };
}

/** The name behind one of our ids, or null for any other URI. */
export function schemaNameOf(id: string): string | null {
  return id.startsWith(SCHEMA_ID_PREFIX) ? id.slice(SCHEMA_ID_PREFIX.length) : null;
}

/**
 * A deep copy of `schema` with our `$id`s removed and each `$ref` to one of them replaced by
 * `localRef(name)`. `onRef` sees every referenced name (used to collect what a bundle needs).
 */
export function rewriteRefs(schema: JsonSchema, localRef: (name: string) => string, onRef?: (name: string) => void): JsonSchema {
  return rewriteValue(schema, localRef, onRef) as JsonSchema;
}

function rewriteValue(value: unknown, localRef: (name: string) => string, onRef?: (name: string) => void): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteValue(item, localRef, onRef));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = typeof inner === 'string' && (key === '$ref' || key === '$id') ? schemaNameOf(inner) : null;
    if (name === null) copy[key] = rewriteValue(inner, localRef, onRef);
    else if (key === '$ref') {
      onRef?.(name);
      copy[key] = localRef(name);
    }
  }
  return copy;
}

/**
 * A self-contained copy of `root` (MCP tool schemas must not need network `$ref`s): every schema it
 * reaches goes into `$defs`, referenced as `#/$defs/<name>`.
 */
export function bundleSchema(root: JsonSchema, lookup: (name: string) => JsonSchema): JsonSchema {
  const toDefs = (name: string) => `#/$defs/${name}`;
  const pending: string[] = [];
  const seen = new Set<string>();
  const collect = (name: string) => {
    if (!seen.has(name)) {
      seen.add(name);
      pending.push(name);
    }
  };
  const body = rewriteRefs(root, toDefs, collect);
  const defs: Record<string, JsonSchema> = {};
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) defs[name] = rewriteRefs(lookup(name), toDefs, collect);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...body,
    ...(seen.size > 0 ? { $defs: defs } : {}),
  };
}

/** A named object schema with every property required except `optional`, and no other properties. */
export function closedObject<const N extends string, const P extends Record<string, JsonSchema>, const O extends keyof P & string = never>(
  name: N,
  description: string,
  properties: P,
  optional: readonly O[] = [],
) {
  return {
    $id: schemaId(name),
    description,
    type: 'object',
    properties,
    // typed as the keys it lists, so that a type derived from the schema (web/src/api-types.ts) knows them
    required: Object.keys(properties).filter((key) => !(optional as readonly string[]).includes(key)) as Exclude<keyof P & string, O>[],
    additionalProperties: false,
  } as const;
}
