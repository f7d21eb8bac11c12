// The resources of the public reads and the bodies every feature shares the parts of, as JSON Schema 2020-12
// literals: the one definition that ajv validates with, the OpenAPI document publishes under
// components.schemas and MCP tools embed. Enum values of toilet facts come from src/rules/facts.ts; the
// other enums are the spec's and live here. The catalogue's type (SchemaCatalogue) is here, its features' parts
// in their folders (`resources.ts`).

import { ACCESS, ACCESS_RULE, CHANGING_TABLE, CONFIDENCE, FACT_ATTRIBUTES, GENDER, VERIFICATION_STATE, WHEELCHAIR } from '../rules/facts.js';
import { closedObject, ref, schemaId, type JsonSchema } from './refs.js';
import { DETAILS_SCHEMAS } from './details-resources.js';
import { TOILET_ID } from './toilet-id.js';

export const PARTNER_TIER = ['basic', 'plus'] as const;
export const PARTNER_CONDITIONS = ['everyone', 'customers'] as const;
export const FIND_STATUS = ['ok', 'no_results', 'needs_location', 'place_not_found'] as const;
export const ORIGIN_SOURCE = ['place', 'coordinates', 'host_hint'] as const;
export const DECIDED_BY = ['votes', 'moderator'] as const;
/** Our names for the spec's `directions.<map_app_1>` and `directions.<map_app_2>`. */
export const DIRECTIONS_APPS = ['google_maps', 'apple_maps'] as const;

export type PartnerTier = (typeof PARTNER_TIER)[number];
export type PartnerConditions = (typeof PARTNER_CONDITIONS)[number];
export type FindStatus = (typeof FIND_STATUS)[number];
export type OriginSource = (typeof ORIGIN_SOURCE)[number];

/** One entry of a 400 answer's `invalid_params`. */
export interface InvalidParam {
  name: string;
  reason: string;
}

// ---- Reusable property schemas (not components: they have no name of their own) ----

export const LATITUDE = { type: 'number', minimum: -90, maximum: 90, description: 'WGS84 latitude in degrees' } as const;
export const LONGITUDE = { type: 'number', minimum: -180, maximum: 180, description: 'WGS84 longitude in degrees' } as const;
export { TOILET_ID };
/** A person's free note to a moderator or a reviewer. */
export const NOTE = { type: 'string', maxLength: 500 } as const;
export const URI = { type: 'string', format: 'uri' } as const;
export const TEXT_OR_NULL = { type: ['string', 'null'] } as const;
export const DATE_TIME = { type: 'string', format: 'date-time' } as const;
export const OPEN_NOW = {
  type: ['boolean', 'string'],
  enum: [true, false, 'unknown'],
  description: "Evaluated at the toilet's local time; `unknown` when there are no usable hours.",
} as const;
const CLOSES_AT = { type: ['string', 'null'], description: 'Local closing time with UTC offset; null when unknown or when it never closes.' } as const;

export function nullable<const S extends JsonSchema>(schema: S) {
  return { anyOf: [schema, { type: 'null' }] } as const;
}


// ---- Resources ----

export const Attribution = closedObject('Attribution', 'Credit for the map data; clients must show it.', {
  text: { type: 'string', description: 'Credit text naming the map data contributors.' },
  license: { type: 'string', description: 'Licence identifier (ODbL-1.0).' },
  url: { ...URI, description: 'Licence/copyright page.' },
  license_notice_url: { ...URI, description: 'Page listing every source with its licence and offering data dumps.' },
});

export const Fee = closedObject('Fee', 'What using the toilet costs, as far as known.', {
  required: { type: ['boolean', 'null'] },
  amount: { type: ['number', 'null'] },
  currency: TEXT_OR_NULL,
});

export const Cleanliness = closedObject('Cleanliness', 'Cleanliness ratings: 1 (dirty) to 5 (spotless); the latest rating of each person counts.', {
  average: { type: 'number', minimum: 1, maximum: 5 },
  count: { type: 'integer', minimum: 1 },
});

export const Partner = closedObject('Partner', "A paid partner listing: a label only, it never changes result order or the toilet's own facts.", {
  name: { type: 'string', description: 'Business name given by the partner and approved by a moderator.' },
  tier: { type: 'string', enum: PARTNER_TIER },
  conditions: {
    type: ['string', 'null'],
    enum: [...PARTNER_CONDITIONS, null],
    description: "The business's own statement, not a checked fact; null when it said nothing.",
  },
  opening_hours: { type: ['string', 'null'], description: 'Hours the business entered (opening_hours syntax); null when none.' },
  open_now: { ...OPEN_NOW, description: 'From the business hours and its live switch; false while the business closed the toilet for now.' },
  closes_at: CLOSES_AT,
});

export const DecidedEntry = closedObject('DecidedEntry', 'How the community or a moderator decided one fact.', {
  by: { type: 'string', enum: DECIDED_BY },
  votes_for: { type: ['integer', 'null'], minimum: 0, description: 'People who voted for the shown value (the source value counts as one); null for a moderator.' },
  votes_total: { type: ['integer', 'null'], minimum: 0, description: 'All votes in the last 24 months, including the source value.' },
  as_of: { type: 'string', format: 'date', description: 'Date of the last count.' },
});

export const Provenance = closedObject('Provenance', 'Where the facts come from; every fact comes from the source unless `decided` lists it.', {
  source: { type: 'string' },
  checked: { type: ['string', 'null'], pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', title: 'a year-month (YYYY-MM)', description: 'Month of the last check in the source.' },
  decided: { type: 'object', propertyNames: { enum: FACT_ATTRIBUTES }, additionalProperties: ref('DecidedEntry') },
});

const toiletItemProperties = {
  id: TOILET_ID,
  name: TEXT_OR_NULL,
  lat: LATITUDE,
  lon: LONGITUDE,
  access: {
    type: 'string',
    enum: ACCESS,
    description: 'public: anyone. permissive: anyone, no purchase needed. customers: customers only. scheme: a public scheme opens a business toilet to everyone.',
  },
  access_rule: { type: 'string', enum: ACCESS_RULE, description: 'free and fee: public toilet. customers: purchase or customer status needed. key: key needed. scheme: a public scheme opens a business toilet to everyone. unknown: fee not known.' },
  scheme_name: TEXT_OR_NULL,
  fee: ref('Fee'),
  opening_hours: { type: ['string', 'null'], description: 'opening_hours syntax of OpenStreetMap.' },
  open_now: OPEN_NOW,
  closes_at: CLOSES_AT,
  wheelchair: { type: 'string', enum: WHEELCHAIR },
  changing_table: { type: 'string', enum: CHANGING_TABLE },
  gender: { type: 'array', items: { type: 'string', enum: GENDER }, uniqueItems: true, description: 'Empty when not known.' },
  operator: TEXT_OR_NULL,
  last_confirmed_at: { type: ['string', 'null'], format: 'date-time' },
  verification_state: { type: 'string', enum: VERIFICATION_STATE, description: 'disputed: an open user report says the toilet is gone, closed or wrong.' },
  confirmations: { type: 'integer', minimum: 0, description: 'User confirmations in the last 12 months.' },
  cleanliness: { ...nullable(ref('Cleanliness')), description: 'null when nobody rated.' },
  confidence: { type: 'string', enum: CONFIDENCE },
  source: { type: 'string', description: 'Source of the record.' },
  partner: { ...nullable(ref('Partner')), description: 'null when no paid listing.' },
  provenance: ref('Provenance'),
  url: URI,
  directions: {
    type: 'object',
    properties: Object.fromEntries(DIRECTIONS_APPS.map((app) => [app, URI])) as Record<(typeof DIRECTIONS_APPS)[number], typeof URI>,
    required: DIRECTIONS_APPS,
    additionalProperties: false,
    description: 'Directions links, one per map application.',
  },
  geo: { type: 'string', format: 'uri', pattern: '^geo:', description: 'A geo: URI.' },
} as const;

export const ToiletItem = closedObject('ToiletItem', 'One toilet.', toiletItemProperties);

export const NearestToiletItem = closedObject('NearestToiletItem', 'One toilet of a nearest search, with its distance from the origin.', {
  ...toiletItemProperties,
  distance_m: { type: 'integer', minimum: 0 },
  walk_min: { type: 'integer', minimum: 1 },
  bearing: { type: 'integer', minimum: 0, maximum: 359, description: 'Degrees from north.' },
});

export const Origin = closedObject('Origin', 'Where a nearest search starts.', {
  lat: { type: 'number' },
  lon: { type: 'number' },
  label: { type: 'string', description: 'The place and its city; a position without a name shows its coordinates.' },
  source: { type: 'string', enum: ORIGIN_SOURCE },
});

export const FindResult = closedObject(
  'FindResult',
  'Answer of a nearest search. needs_location and place_not_found are not errors: ask the user the question in ask_user.',
  {
    status: { type: 'string', enum: FIND_STATUS },
    origin: nullable(ref('Origin')),
    results: { type: 'array', items: ref('NearestToiletItem'), description: 'Sorted by distance, nearest first.' },
    bbox: {
      type: 'array',
      // maxItems rather than `items: false`: clients on older JSON Schema dialects (the v1 MCP SDK) read
      // `items: false` as "no items at all".
      prefixItems: [LONGITUDE, LATITUDE, LONGITUDE, LATITUDE],
      minItems: 4,
      maxItems: 4,
      description: 'west, south, east, north of the origin and the results.',
    },
    ask_user: { type: 'string', description: 'Question to put to the user.' },
    attribution: ref('Attribution'),
    display_note: { type: 'string' },
  },
  ['bbox', 'ask_user'],
);

export const AreaResult = closedObject('AreaResult', 'All toilets in a box, those nearest to its centre first.', {
  results: { type: 'array', items: ref('ToiletItem') },
  truncated: { type: 'boolean', description: 'true when the box held more matches than `limit`.' },
  attribution: ref('Attribution'),
  display_note: { type: 'string' },
});

export const ToiletAnswer = closedObject(
  'ToiletAnswer',
  'Answer of getToilet.',
  {
    toilet: ref('ToiletItem'),
    details: ref('ToiletDetails'),
    attribution: ref('Attribution'),
    display_note: { type: 'string' },
  },
  ['details'],
);

export const InvalidParamEntry = closedObject('InvalidParam', 'One offending parameter or body field and what to change.', {
  name: { type: 'string' },
  reason: { type: 'string' },
});

export const Problem = closedObject(
  'Problem',
  'Error body (RFC 9457, application/problem+json).',
  {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string', description: 'What to change.' },
    invalid_params: { type: 'array', items: ref('InvalidParam'), minItems: 1, description: 'Each offending parameter.' },
    retry_after_seconds: { type: 'integer', minimum: 0, description: 'Same value as the Retry-After header.' },
    instance: { type: 'string', format: 'uri-reference' },
  },
  ['invalid_params', 'retry_after_seconds', 'instance'],
);

/** 201 answers whose fields the spec leaves open (a feature's operation that saves what was sent). */
export const CreatedAnswer = { $id: schemaId('CreatedAnswer'), description: 'Saved; the fields of this answer are not fixed.', type: 'object' } as const;

/**
 * The named schemas of the public reads, keyed by the name in their `$id` (and in the OpenAPI components).
 * Every other feature declares its own in a data-only `resources.ts` of its folder, which its slice names
 * (src/features.ts); src/resources.ts is the catalogue of all of them.
 */
export const READ_SCHEMAS = {
  Attribution,
  Fee,
  Cleanliness,
  Partner,
  DecidedEntry,
  Provenance,
  ToiletItem,
  NearestToiletItem,
  Origin,
  FindResult,
  AreaResult,
  ToiletAnswer,
  InvalidParam: InvalidParamEntry,
  Problem,
  CreatedAnswer,
  ...DETAILS_SCHEMAS,
} as const;

/** Named schemas of a feature: name to schema (each with its `$id`, schemaId(name)). */
export type NamedSchemas = Readonly<Record<string, JsonSchema>>;

/**
 * Every named schema, by name, with its literal type (the answers' and bodies' TypeScript types are made
 * from it, answer-types.ts). A feature's resources.ts adds its own by declaration merging:
 * `declare module '../schemas/resources.js' { interface SchemaCatalogue extends SchemasOf<typeof X> {} }`.
 */
export interface SchemaCatalogue extends SchemasOf<typeof READ_SCHEMAS> {}

/** A feature's schemas as members of SchemaCatalogue. */
export type SchemasOf<Schemas extends NamedSchemas> = { readonly [Name in keyof Schemas & string]: Schemas[Name] };

export type SchemaName = keyof SchemaCatalogue & string;
