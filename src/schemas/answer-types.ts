// The TypeScript types of the registry's request bodies and answers, derived from the JSON Schemas the
// server validates and documents with (json-schema-to-ts), so that a client typed with them (the
// browser's API client in web/src) and the server cannot disagree: a page that reads a field an answer
// does not have, or sends a body the operation does not take, does not compile. Types only: nothing here
// is loaded at run time.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { SchemaCatalogue, SchemaName } from './resources.js';
import type { OperationSpec } from './operations.js';
import type { ParamValues, QueryOperation, QueryParamSet, QueryParamsOf } from './params.js';

/** The named schemas written as literals (a few are built at run time, e.g. Vote's per-fact branches: those type as unknown). */
type LiteralSchema = SchemaCatalogue[SchemaName] extends infer S ? (S extends JSONSchema & { readonly $id: string } ? (string extends keyof S ? never : S) : never) : never;

/** The value the named schema describes, its references resolved through their `$id`s. */
export type SchemaValue<N extends SchemaName> = SchemaCatalogue[N] extends infer S extends JSONSchema ? FromSchema<S, { references: LiteralSchema[] }> : unknown;

/** A registry path as a client sends it: `/toilets/{id}` is `/toilets/${string}`. */
type SentPath<P extends string> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${SentPath<Tail>}` : P;

/** An operation's method and path as a client writes them, and what it takes and answers. */
export type ClientRoute<Op extends OperationSpec> = {
  readonly operationId: Op['operationId'];
  readonly method: Uppercase<Op['method']>;
  /** The path under API_PREFIX, its parameters as any string (a query may follow: `?connections=all`). */
  readonly pattern: SentPath<Op['path']>;
  /** The registry path has parameters: a path without any (`/toilets/nearest`) is the better match. */
  readonly templated: Op['path'] extends `${string}{${string}` ? true : false;
  readonly body: Op extends { readonly requestBody: { readonly schema: infer B extends SchemaName } } ? Open<SchemaValue<B>> : undefined;
  readonly answer: Open<SchemaValue<Op['success']['schema']>>;
};

/**
 * An object schema that names no properties (`{ type: 'object' }`: WebAuthn's extension results) types as
 * `object`, which the WebAuthn library's interfaces (without an index signature) are.
 */
type Open<T> = T extends readonly (infer E)[] ? Open<E>[] : T extends object ? (string extends keyof T ? object : { [K in keyof T]: Open<T[K]> }) : T;

type Matching<Routes, Method extends string, Path extends string> = Routes extends { readonly method: Method; readonly pattern: infer P extends string }
  ? Path extends P | `${P}?${string}` ? Routes : never
  : never;

/** The route that `method` and `path` name, a path without parameters before a templated one; never when none does. */
export type RouteFor<Routes, Method extends string, Path extends string> =
  [Extract<Matching<Routes, Method, Path>, { readonly templated: false }>] extends [never] ? Matching<Routes, Method, Path> : Extract<Matching<Routes, Method, Path>, { readonly templated: false }>;

/** The routes of a list of operations (a union of entries). */
export type ClientRoutes<Op> = Op extends OperationSpec ? ClientRoute<Op> : never;

/**
 * What the guard chain hands an entry's handler as `context.input`, from the entry's schemas: its query
 * parameters as parsed, its JSON body as its schema describes it, its form's fields; else nothing. A
 * handler that reads a field its entry does not declare does not compile (test/types/registry.typecheck.ts).
 * Of an entry typed only as an entry (not declared `as const`), unknown.
 */
export type InputOf<E> =
  E extends { readonly query: infer Q extends QueryOperation } ? (QueryOperation extends Q ? unknown : QueryParamsOf[Q])
  : E extends { readonly query: infer S extends QueryParamSet } ? (string extends keyof S['properties'] ? unknown : ParamValues<S>)
  : E extends { readonly requestBody: { readonly schema: infer B extends SchemaName } } ? (SchemaName extends B ? unknown : SchemaValue<B>)
  : E extends { readonly requestBody: { readonly form: { readonly fields: readonly (infer F extends string)[] } } } ? { readonly [K in F]?: string }
  : undefined;
