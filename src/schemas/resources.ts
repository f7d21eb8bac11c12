// The spec's resources and request/response bodies as JSON Schema 2020-12 literals: the one definition
// that ajv validates with, the OpenAPI document publishes under components.schemas and MCP tools embed.
// Enum values of toilet facts come from src/rules/facts.ts; the other enums are the spec's and live here.

import { ACCESS, ACCESS_RULE, CHANGING_TABLE, CONFIDENCE, FACT_ATTRIBUTES, GENDER, VERIFICATION_STATE, WHEELCHAIR, type FactAttribute } from '../rules/facts.js';
import { bundleSchema, closedObject, ref, schemaId, type JsonSchema } from './refs.js';
import { ACCOUNT_SCHEMAS } from './account-resources.js';
import { PARTNER_SCHEMAS } from './partner-resources.js';
import { DETAILS_SCHEMAS } from './details-resources.js';
import { MODERATION_SCHEMAS } from './moderation-resources.js';
import { TOILET_ID } from './toilet-id.js';

export const PARTNER_TIER = ['basic', 'plus'] as const;
export const PARTNER_CONDITIONS = ['everyone', 'customers'] as const;
export const FIND_STATUS = ['ok', 'no_results', 'needs_location', 'place_not_found'] as const;
export const ORIGIN_SOURCE = ['place', 'coordinates', 'host_hint'] as const;
export const DECIDED_BY = ['votes', 'moderator'] as const;
export const REPORT_KIND = ['gone', 'closed', 'wrong_place', 'wrong_hours'] as const;
/** Values of `fee` in a submission (unlike `access_rule`, which describes a stored toilet). */
export const SUBMISSION_FEE = ['free', 'fee', 'unknown'] as const;
/** Our names for the spec's `directions.<map_app_1>` and `directions.<map_app_2>`. */
export const DIRECTIONS_APPS = ['google_maps', 'apple_maps'] as const;

export type PartnerTier = (typeof PARTNER_TIER)[number];
export type PartnerConditions = (typeof PARTNER_CONDITIONS)[number];
export type FindStatus = (typeof FIND_STATUS)[number];
export type OriginSource = (typeof ORIGIN_SOURCE)[number];
export type ReportKind = (typeof REPORT_KIND)[number];

/** One entry of a 400 answer's `invalid_params`. */
export interface InvalidParam {
  name: string;
  reason: string;
}

// ---- Reusable property schemas (not components: they have no name of their own) ----

export const LATITUDE = { type: 'number', minimum: -90, maximum: 90, description: 'WGS84 latitude in degrees' } as const;
export const LONGITUDE = { type: 'number', minimum: -180, maximum: 180, description: 'WGS84 longitude in degrees' } as const;
export { TOILET_ID };
export const LISTING_ID = { type: 'string', pattern: '^pl_[0-9a-f]{32}$', title: 'a partner listing id: pl_ and 32 lowercase hex digits' } as const;
const DEVICE_ID = {
  type: 'string',
  pattern: '^[0-9a-f]{32}$',
  title: '32 lowercase hex digits',
  description: 'A random number the browser makes once and keeps; the server stores only its hash. Not needed when signed in.',
} as const;
const CHALLENGE_TOKEN = { type: 'string', maxLength: 2048, description: "The site's human-check token; not needed when an account is signed in." } as const;
const NOTE = { type: 'string', maxLength: 500 } as const;
const URI = { type: 'string', format: 'uri' } as const;
const TEXT_OR_NULL = { type: ['string', 'null'] } as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;
const OPEN_NOW = {
  type: ['boolean', 'string'],
  enum: [true, false, 'unknown'],
  description: "Evaluated at the toilet's local time; `unknown` when there are no usable hours.",
} as const;
const CLOSES_AT = { type: ['string', 'null'], description: 'Local closing time with UTC offset; null when unknown or when it never closes.' } as const;
const OPENING_HOURS_INPUT = { type: 'string', maxLength: 200, description: 'opening_hours syntax of OpenStreetMap.' } as const;
const RATING = { type: 'integer', minimum: 1, maximum: 5, description: '1 (dirty) to 5 (spotless)' } as const;

function nullable<const S extends JsonSchema>(schema: S) {
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

// ---- Site-page operations (bodies of requests and answers) ----

export const SubmitToiletRequest = closedObject(
  'SubmitToiletRequest',
  'A proposed toilet; a moderator reviews it before it goes live.',
  {
    name: { type: 'string', maxLength: 120 },
    lat: LATITUDE,
    lon: LONGITUDE,
    access: { type: 'string', enum: ACCESS.filter((value) => value !== 'scheme') },
    fee: { type: 'string', enum: SUBMISSION_FEE },
    opening_hours: OPENING_HOURS_INPUT,
    wheelchair: { type: 'string', enum: WHEELCHAIR },
    changing_table: { type: 'string', enum: CHANGING_TABLE },
    note: NOTE,
    challenge_token: CHALLENGE_TOKEN,
  },
  ['name', 'access', 'fee', 'opening_hours', 'wheelchair', 'changing_table', 'note', 'challenge_token'],
);

/** 201 answers whose fields the spec leaves open (submitToilet, reportToilet, correctToilet). */
export const CreatedAnswer = { $id: schemaId('CreatedAnswer'), description: 'Saved; the fields of this answer are not fixed.', type: 'object' } as const;

export const ConfirmToiletRequest = closedObject('ConfirmToiletRequest', 'Confirms that the toilet exists as shown.', { challenge_token: CHALLENGE_TOKEN }, [
  'challenge_token',
]);

export const ConfirmToiletAnswer = closedObject('ConfirmToiletAnswer', 'The confirmation was counted.', {
  id: { type: 'string' },
  last_confirmed_at: DATE_TIME,
  confirmations: { type: 'integer', minimum: 1, description: 'Confirmations in the last 12 months.' },
});

export const RateToiletRequest = closedObject(
  'RateToiletRequest',
  'A cleanliness rating; one per person and toilet, the latest counts.',
  { rating: RATING, device_id: DEVICE_ID, challenge_token: CHALLENGE_TOKEN },
  ['device_id', 'challenge_token'],
);

export const RateToiletAnswer = closedObject('RateToiletAnswer', 'The rating was counted.', {
  id: { type: 'string' },
  rating: RATING,
  cleanliness: ref('Cleanliness'),
});

export const ReportToiletRequest = closedObject(
  'ReportToiletRequest',
  'A problem report; it waits for a moderator.',
  { kind: { type: 'string', enum: REPORT_KIND }, note: NOTE, challenge_token: CHALLENGE_TOKEN },
  ['note', 'challenge_token'],
);

/** Allowed `value` per voted attribute; attributes not listed take any text up to the length limit. */
const VOTE_VALUES: Partial<Record<FactAttribute, JsonSchema>> = {
  access: { type: 'string', enum: ACCESS.filter((value) => value !== 'unknown') },
  fee: { type: 'string', enum: ['free', 'paid'] },
  fee_amount: { type: 'string', pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)? [A-Z]{3}$', title: 'an amount and an ISO 4217 currency code, e.g. 0.50 EUR' },
  wheelchair: { type: 'string', enum: WHEELCHAIR.filter((value) => value !== 'unknown') },
  changing_table: { type: 'string', enum: CHANGING_TABLE.filter((value) => value !== 'unknown') },
  gender: { type: 'string', pattern: `^(${GENDER.join('|')})(,(${GENDER.join('|')}))*$`, title: `${GENDER.join(', ')}; several separated by commas` },
  existence: { type: 'string', enum: ['yes', 'gone'] },
};

export const Vote = {
  ...closedObject('Vote', 'One vote on one fact; each person has one vote per fact and the latest counts.', {
    attribute: { type: 'string', enum: FACT_ATTRIBUTES },
    value: { type: 'string', maxLength: 200, description: 'Allowed values depend on the attribute (opening_hours: opening_hours syntax; name, operator: text).' },
  }),
  allOf: Object.entries(VOTE_VALUES).map(([attribute, value]) => ({
    if: { type: 'object', properties: { attribute: { const: attribute } }, required: ['attribute'] },
    then: { type: 'object', properties: { value } },
  })),
} as const;

export const CorrectToiletRequest = closedObject(
  'CorrectToiletRequest',
  'Votes on facts of a toilet.',
  {
    votes: { type: 'array', items: ref('Vote'), minItems: 1, maxItems: 10 },
    device_id: DEVICE_ID,
    challenge_token: CHALLENGE_TOKEN,
  },
  ['device_id', 'challenge_token'],
);

export const ClaimToiletRequest = closedObject(
  'ClaimToiletRequest',
  'A business claims a toilet; a moderator reviews each claim.',
  {
    business_name: { type: 'string', minLength: 2, maxLength: 80 },
    contact_email: { type: 'string', format: 'email', maxLength: 200 },
    contact_phone: { type: 'string', maxLength: 40 },
    website: { type: 'string', format: 'uri', maxLength: 200 },
    note: NOTE,
  },
  ['contact_phone', 'website', 'note'],
);

export const ClaimToiletAnswer = closedObject('ClaimToiletAnswer', 'The claim was saved and waits for a moderator.', {
  id: { type: 'string' },
  status: { type: 'string', const: 'pending' },
});

const PROFILE_CONDITIONS = {
  type: ['string', 'null'],
  enum: [...PARTNER_CONDITIONS, null],
  description: "The business's own statement (everyone: free for everyone; customers: customers only); null when it says nothing.",
} as const;

export const UpdatePartnerProfileRequest = closedObject(
  'UpdatePartnerProfileRequest',
  "Changes to the business's statements and live switch; send any of the keys.",
  {
    conditions: PROFILE_CONDITIONS,
    opening_hours: { type: ['string', 'null'], maxLength: 200, description: 'opening_hours syntax; an empty string or null clears it.' },
    open_now: { type: 'boolean', description: 'false closes for 12 hours, true ends the closure at once.' },
  },
  ['conditions', 'opening_hours', 'open_now'],
);

export const PartnerProfileAnswer = closedObject('PartnerProfileAnswer', 'The partner profile after the change.', {
  conditions: PROFILE_CONDITIONS,
  opening_hours: TEXT_OR_NULL,
  closed_until: { type: 'integer', minimum: 0, description: 'Milliseconds since the epoch; 0 when the live switch is on.' },
  open_now: { type: 'boolean', description: 'The live switch; false means closed for now.' },
});

export const StartCheckoutRequest = closedObject('StartCheckoutRequest', 'Buys a partner listing through the payment provider.', {
  listing: LISTING_ID,
  tier: { type: 'string', enum: PARTNER_TIER },
});

export const OpenBillingPortalRequest = closedObject('OpenBillingPortalRequest', "Opens the payment provider's portal for a listing.", {
  listing: LISTING_ID,
});

export const HostedPageAnswer = closedObject('HostedPageAnswer', 'A page hosted by the payment provider (checkout or portal).', {
  url: URI,
});

export const WebhookEvent = {
  $id: schemaId('WebhookEvent'),
  description: "An event of the payment provider, at most 512 KB, signed in the provider's signature header. The handler does not trust its body.",
  type: 'object',
} as const;

export const WebhookAnswer = closedObject(
  'WebhookAnswer',
  'The event was received.',
  {
    received: { type: 'boolean', const: true },
    duplicate: { type: 'boolean', description: 'true when the event id was processed before.' },
  },
  ['duplicate'],
);

/** Every named schema, keyed by the name in its `$id` (and in the OpenAPI components). */
export const SCHEMAS = {
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
  SubmitToiletRequest,
  CreatedAnswer,
  ConfirmToiletRequest,
  ConfirmToiletAnswer,
  RateToiletRequest,
  RateToiletAnswer,
  ReportToiletRequest,
  Vote,
  CorrectToiletRequest,
  ClaimToiletRequest,
  ClaimToiletAnswer,
  UpdatePartnerProfileRequest,
  PartnerProfileAnswer,
  StartCheckoutRequest,
  OpenBillingPortalRequest,
  HostedPageAnswer,
  WebhookEvent,
  WebhookAnswer,
  ...ACCOUNT_SCHEMAS,
  ...PARTNER_SCHEMAS,
  ...DETAILS_SCHEMAS,
  ...MODERATION_SCHEMAS,
} as const;

export type SchemaName = keyof typeof SCHEMAS;

export function isSchemaName(name: string): name is SchemaName {
  return Object.hasOwn(SCHEMAS, name);
}

/** `SCHEMAS[name]` without its `$id` and with every reference it reaches under `$defs`: for MCP tool schemas. */
export function selfContainedSchema(name: SchemaName): JsonSchema {
  return bundleSchema(SCHEMAS[name], (referenced) => {
    if (!isSchemaName(referenced)) throw new Error(`schema ${name} refers to unknown schema ${referenced}`);
    return SCHEMAS[referenced];
  });
}
