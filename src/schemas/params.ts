// Query parameters of the public reads, as JSON Schema per parameter. The query parser compiles its checks
// from these, the OpenAPI document lists them, and MCP tools take them as their input schema.

import { LATITUDE, LONGITUDE } from './resources.js';
import type { JsonSchema } from './refs.js';

/** Longest side of a listToiletsInArea box, in degrees (spec: Limits). JSON Schema cannot say it. */
export const BBOX_MAX_SIDE_DEGREES = 0.2;

const DECIMAL = '-?[0-9]+(\\.[0-9]+)?';

export const FILTER_PARAMS = {
  open_now: {
    type: 'boolean',
    default: false,
    description: 'Drop toilets that are closed now; toilets with unknown hours stay and show open_now `unknown`.',
  },
  wheelchair: { type: 'boolean', default: false, description: 'Only wheelchair-accessible toilets.' },
  changing_table: { type: 'boolean', default: false, description: 'Only toilets with a changing table.' },
  free: { type: 'boolean', default: false, description: 'Only toilets known to be free of charge.' },
  no_purchase_needed: {
    type: 'boolean',
    default: false,
    description: 'Only toilets needing no purchase: access public, permissive or scheme.',
  },
} as const;

export const FIND_PARAMS = {
  place: { type: 'string', minLength: 2, maxLength: 200, description: 'Street, station, landmark or town.' },
  country: {
    type: 'string',
    pattern: '^[A-Za-z]{2}$',
    title: 'a two-letter country code (ISO 3166-1 alpha-2)',
    description: 'ISO 3166-1 alpha-2 country code; narrows the place lookup.',
  },
  lat: { ...LATITUDE, description: 'WGS84 latitude in degrees; send it together with lon.' },
  lon: { ...LONGITUDE, description: 'WGS84 longitude in degrees; send it together with lat.' },
  limit: { type: 'integer', minimum: 1, maximum: 20, default: 5, description: 'Most results to return.' },
  ...FILTER_PARAMS,
} as const;

export const AREA_PARAMS = {
  bbox: {
    type: 'string',
    pattern: `^${DECIMAL}(,${DECIMAL}){3}$`,
    title: 'four comma-separated decimal numbers: west,south,east,north',
    description: `The box: west,south,east,north in WGS84 degrees. West is less than east, south less than north, and each side at most ${BBOX_MAX_SIDE_DEGREES} degrees.`,
  },
  limit: { type: 'integer', minimum: 1, maximum: 200, default: 100, description: 'Most results to return.' },
  ...FILTER_PARAMS,
} as const;

export interface QueryParamSet {
  readonly properties: { readonly [name: string]: JsonSchema };
  readonly required: readonly string[];
  /** Pairs that must be sent together (lat and lon). */
  readonly together: readonly (readonly [string, string])[];
}

/** signOutEverywhere: whether the account's connected apps (OAuth grants) end too. */
export const SIGN_OUT_PARAMS = {
  connections: {
    type: 'string',
    pattern: '^all$',
    title: 'all',
    description: '`all`: also end every connected app of the account (OAuth grants: their access and refresh tokens stop at once). Leave it out to end the other sessions only.',
  },
} as const;

export const QUERY_PARAMS = {
  findToiletsNear: { properties: FIND_PARAMS, required: [], together: [['lat', 'lon']] },
  listToiletsInArea: { properties: AREA_PARAMS, required: ['bbox'], together: [] },
  signOutEverywhere: { properties: SIGN_OUT_PARAMS, required: [], together: [] },
} as const satisfies Record<string, QueryParamSet>;

export type QueryOperation = keyof typeof QUERY_PARAMS;

export interface BBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

type ValueOf<S> = S extends { type: 'boolean' } ? boolean : S extends { type: 'string' } ? string : number;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
/** Parameters with a default are always present after parsing; the others only when sent. */
type QueryValues<P> = Flatten<
  { -readonly [K in keyof P as P[K] extends { default: unknown } ? K : never]: ValueOf<P[K]> } & {
    -readonly [K in keyof P as P[K] extends { default: unknown } ? never : K]?: ValueOf<P[K]>;
  }
>;

/** The values of a parameter set written as a literal (a route's own `query`): its required ones always present. */
export type ParamValues<S extends QueryParamSet> = Flatten<QueryValues<S['properties']> & { -readonly [K in S['required'][number] & keyof S['properties']]-?: ValueOf<S['properties'][K]> }>;

export type FindParams = QueryValues<typeof FIND_PARAMS>;
export type AreaParams = Flatten<Omit<QueryValues<typeof AREA_PARAMS>, 'bbox'> & { bbox: BBox }>;
export interface QueryParamsOf {
  findToiletsNear: FindParams;
  listToiletsInArea: AreaParams;
  signOutEverywhere: QueryValues<typeof SIGN_OUT_PARAMS>;
}

/** A parameter set as one object schema with typed values: the input schema of an MCP tool. */
export function paramsObjectSchema(set: QueryParamSet): JsonSchema {
  const dependentRequired = Object.fromEntries(set.together.flatMap(([a, b]) => [[a, [b]], [b, [a]]]));
  return {
    type: 'object',
    properties: set.properties,
    ...(set.required.length > 0 ? { required: set.required } : {}),
    ...(set.together.length > 0 ? { dependentRequired } : {}),
    additionalProperties: false,
  };
}
