// Bodies of the partner operations: a business's claim (claimToilet) and its profile (updatePartnerProfile),
// and those the spec leaves to us: listMyPartnerListings, the one answer the REST
// operation, the web dashboard and the account MCP tool `get_my_partner_listings` share, and
// checkPartnerHours, the dashboard's check of the hours field. It carries no
// contact details (those are for moderators only); `toilet_state` and `notice` are how the dashboard tells
// the owner that the toilet left the map.
import { closedObject, ref } from '../schemas/refs.js';
import { NOTE, PARTNER_CONDITIONS, TEXT_OR_NULL, type SchemasOf } from '../schemas/resources.js';

export const LISTING_ID = { type: 'string', pattern: '^pl_[0-9a-f]{32}$', title: 'a partner listing id: pl_ and 32 lowercase hex digits' } as const;

const TIER = ['basic', 'plus'] as const;
const CLAIM_STATUS = ['pending', 'approved', 'rejected', 'withdrawn'] as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;
const DATE_TIME_OR_NULL = { type: ['string', 'null'], format: 'date-time' } as const;

export const PartnerPlan = closedObject('PartnerPlan', 'The plan of a listing: the tier it pays for and who set it.', {
  tier: { type: ['string', 'null'], enum: [...TIER, null], description: 'null: no plan.' },
  source: { type: ['string', 'null'], enum: ['manual', 'stripe', null], description: 'manual: set by the operator; stripe: a subscription; null: never had a plan.' },
  running: { type: 'boolean', description: 'The plan runs: the partner object shows while the claim is approved and the toilet is on the map.' },
});

export const PartnerClaimState = closedObject('PartnerClaimState', 'The claim the listing was made with.', {
  id: { type: 'string' },
  status: { type: 'string', enum: CLAIM_STATUS, description: 'pending: waits for a moderator; approved; rejected (reason says why); withdrawn: ended with the account.' },
  business_name: { type: 'string', description: 'The name the claim gave.' },
  claimed_at: DATE_TIME,
  decided_at: DATE_TIME_OR_NULL,
  reason: { type: ['string', 'null'], description: "The moderator's reason for the decision; null while pending." },
});

export const PartnerListingSummary = closedObject('PartnerListingSummary', 'One partner listing of the account, with its claim, plan and profile.', {
  id: { type: 'string', pattern: '^pl_[0-9a-f]{32}$' },
  toilet_id: { type: 'string' },
  toilet_name: { type: ['string', 'null'], description: 'The toilet as the finder names it now; null when it has no name or left the map.' },
  toilet_state: { type: 'string', enum: ['present', 'gone', 'vanished'], description: 'present: on the map; gone: a moderator marked it gone; vanished: the map data no longer has it.' },
  time_zone: { type: ['string', 'null'], description: "The toilet's IANA time zone, in which the hours and the live switch's closed_until are read; null when it left the map." },
  name: { type: 'string', description: 'What partner.name shows (the approved business name).' },
  claim: ref('PartnerClaimState'),
  plan: ref('PartnerPlan'),
  profile: ref('PartnerProfileAnswer'),
  showing: { type: 'boolean', description: 'The partner object shows in answers now.' },
  notice: { type: ['string', 'null'], description: 'What the owner should know or do now, in a sentence; null when nothing.' },
  figures: {
    anyOf: [{ type: 'array', items: ref('PartnerFigureMonth'), minItems: 13, maxItems: 13 }, { type: 'null' }],
    description: 'With a running Plus plan: the current month and the 12 before it, newest first (the current month counts to within a few minutes); null for Basic or no plan.',
  },
});

export const PartnerFigureMonth = closedObject('PartnerFigureMonth', "A Plus listing's figures in one month (UTC): counts of answers, no personal data.", {
  month: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM, UTC.' },
  shown: { type: 'integer', minimum: 0, description: 'How often the toilet was in a nearest or area answer (REST, MCP, the finder) with its partner label.' },
  opened: { type: 'integer', minimum: 0, description: "How often the toilet itself was opened: getToilet (REST, MCP) or its page." },
});

export const PartnerListingList = closedObject('PartnerListingList', "The account's partner listings, oldest first.", {
  listings: { type: 'array', items: ref('PartnerListingSummary') },
});

export const PartnerHoursCheckRequest = closedObject('PartnerHoursCheckRequest', 'Business hours to check as updatePartnerProfile would.', {
  opening_hours: { type: ['string', 'null'], maxLength: 200, description: 'opening_hours syntax; an empty string or null means no hours.' },
});

export const PartnerHoursCheck = closedObject('PartnerHoursCheck', 'The hours can be saved: as they would be stored, and what the partner label would say with them now (the live switch aside).', {
  opening_hours: { type: ['string', 'null'], description: 'As updatePartnerProfile would store them (trimmed); null: no hours.' },
  open_now: { anyOf: [{ type: 'boolean' }, { type: 'string', const: 'unknown' }], description: 'At the toilet\'s local time; unknown without usable hours.' },
  closes_at: { type: ['string', 'null'], description: 'Local closing time with UTC offset; null when unknown or never closes.' },
});

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

export const PARTNER_SCHEMAS = {
  ClaimToiletRequest, ClaimToiletAnswer, UpdatePartnerProfileRequest, PartnerProfileAnswer,
  PartnerPlan, PartnerClaimState, PartnerFigureMonth, PartnerListingSummary, PartnerListingList, PartnerHoursCheckRequest, PartnerHoursCheck } as const;

declare module '../schemas/resources.js' {
  interface SchemaCatalogue extends SchemasOf<typeof PARTNER_SCHEMAS> {}
}
