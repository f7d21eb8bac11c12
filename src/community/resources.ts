// The bodies of the contributions' operations (submitToilet, confirmToilet, rateToilet, reportToilet,
// correctToilet) as JSON Schema literals. Data only: its slice names them (the catalogue, src/resources.ts).
import { ACCESS, CHANGING_TABLE, FACT_ATTRIBUTES, GENDER, WHEELCHAIR, type FactAttribute } from '../rules/facts.js';
import { closedObject, ref, type JsonSchema } from '../schemas/refs.js';
import { DATE_TIME, LATITUDE, LONGITUDE, NOTE, type SchemasOf } from '../schemas/resources.js';

const DEVICE_ID = {
  type: 'string',
  pattern: '^[0-9a-f]{32}$',
  title: '32 lowercase hex digits',
  description: 'A random number the browser makes once and keeps; the server stores only its hash. Not needed when signed in.',
} as const;
const CHALLENGE_TOKEN = { type: 'string', maxLength: 2048, description: "The site's human-check token; not needed when an account is signed in." } as const;
const OPENING_HOURS_INPUT = { type: 'string', maxLength: 200, description: 'opening_hours syntax of OpenStreetMap.' } as const;
const RATING = { type: 'integer', minimum: 1, maximum: 5, description: '1 (dirty) to 5 (spotless)' } as const;
export const REPORT_KIND = ['gone', 'closed', 'wrong_place', 'wrong_hours'] as const;
/** Values of `fee` in a submission (unlike `access_rule`, which describes a stored toilet). */
export const SUBMISSION_FEE = ['free', 'fee', 'unknown'] as const;
export type ReportKind = (typeof REPORT_KIND)[number];

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

export const CONTRIBUTION_SCHEMAS = { SubmitToiletRequest, ConfirmToiletRequest, ConfirmToiletAnswer, RateToiletRequest, RateToiletAnswer, ReportToiletRequest, Vote, CorrectToiletRequest } as const;

declare module '../schemas/resources.js' {
  interface SchemaCatalogue extends SchemasOf<typeof CONTRIBUTION_SCHEMAS> {}
}
