// The named schemas the service serves with, at run time: ajv validates with them (validate.ts), MCP tools
// embed them (selfContainedSchema) and the OpenAPI document publishes them. The reads' and every feature's
// (their slices, src/features.ts) are gathered by src/resources.ts, which gives them to this module when the
// registry is made (src/operations.ts imports it), so that this layer names no feature.
import { bundleSchema, type JsonSchema } from './refs.js';
import type { SchemaName } from './resources.js';

let catalogue: Readonly<Record<SchemaName, JsonSchema>> | null = null;

/** Sets the catalogue, once (src/resources.ts); another one afterwards is a mistake of the assembly. */
export function useSchemaCatalogue(schemas: Readonly<Record<SchemaName, JsonSchema>>): void {
  if (catalogue !== null && catalogue !== schemas) throw new Error('the schema catalogue was set already: src/resources.ts makes the one catalogue');
  catalogue = schemas;
}

/** Every named schema, by name. */
export function schemaCatalogue(): Readonly<Record<SchemaName, JsonSchema>> {
  if (catalogue === null) throw new Error('no schema catalogue: import src/operations.ts (or src/resources.ts) before validating or describing');
  return catalogue;
}

export function isSchemaName(name: string): name is SchemaName {
  return Object.hasOwn(schemaCatalogue(), name);
}

/** The named schema without its `$id` and with every reference it reaches under `$defs`: for MCP tool schemas. */
export function selfContainedSchema(name: SchemaName): JsonSchema {
  const schemas = schemaCatalogue();
  return bundleSchema(schemas[name], (referenced) => {
    if (!isSchemaName(referenced)) throw new Error(`schema ${name} refers to unknown schema ${referenced}`);
    return schemas[referenced];
  });
}
