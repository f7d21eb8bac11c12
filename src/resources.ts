// The catalogue of every named schema the service serves with: the reads' and each feature's (the
// data-only resources.ts its slice names, src/features.ts). Made once, when the registry is (src/operations.ts
// imports this module), and given to the schemas layer (src/schemas/catalogue.ts), which validates,
// documents and embeds with it without naming any feature.
import type { JsonSchema } from './schemas/refs.js';
import type { NamedSchemas, SchemaName } from './schemas/resources.js';
import { useSchemaCatalogue } from './schemas/catalogue.js';
import type { FeatureSlice } from './feature.js';
import { FEATURES } from './features.js';

/** The names of the schemas of a list of slices. */
type NamesOfFeatures<Features extends readonly FeatureSlice[]> = Features[number] extends infer Slice ? (Slice extends { schemas: infer Schemas extends NamedSchemas } ? keyof Schemas & string : never) : never;

/** One catalogue of the slices' schemas, in their order; a name two of them declare is a mistake. */
export function schemasOf<Features extends readonly FeatureSlice[]>(features: Features): Readonly<Record<NamesOfFeatures<Features>, JsonSchema>> {
  const catalogue: Record<string, JsonSchema> = {};
  for (const feature of features) {
    for (const [name, schema] of Object.entries(feature.schemas ?? {})) {
      if (Object.hasOwn(catalogue, name)) throw new Error(`schema ${name} is declared twice: each named schema belongs to one feature`);
      catalogue[name] = schema;
    }
  }
  return catalogue as Record<NamesOfFeatures<Features>, JsonSchema>;
}

/** Declared with every name of SchemaCatalogue: a feature whose resources.ts adds schemas, missing from the list, does not compile. */
export const SCHEMAS: Readonly<Record<SchemaName, JsonSchema>> = schemasOf(FEATURES);

useSchemaCatalogue(SCHEMAS);
