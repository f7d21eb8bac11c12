// The two account event types of the events extension (io.modelcontextprotocol/events) as events/list
// describes them: their subscription arguments (optional listing_id and toilet_id filters, the caller's own
// only) and their payloads (ids and triage fields; never contact details), and the one function that turns
// an entry of the account event log (src/accounts/event-log.ts) into an occurrence with exactly those fields.
import type { AccountEvent, AccountEventType } from '../accounts/event-log.js';
import { TOILET_ID } from '../schemas/resources.js';
import { LISTING_ID } from '../partners/resources.js';

export const EVENTS_EXTENSION = 'io.modelcontextprotocol/events';

export const ARGUMENTS_SCHEMA = {
  type: 'object',
  properties: {
    listing_id: { ...LISTING_ID, description: 'Only changes of this listing (one of your own, see get_my_partner_listings).' },
    toilet_id: { ...TOILET_ID, description: 'Only changes of your listing on this toilet.' },
  },
  additionalProperties: false,
} as const;

const IDS = {
  listing_id: { type: 'string', description: 'The partner listing (pl_...).' },
  toilet_id: { type: ['string', 'null'], description: 'The toilet the listing is on.' },
} as const;

const STATUS = { type: 'string', enum: ['pending', 'approved', 'rejected', 'withdrawn'] } as const;

const PAYLOADS: Record<AccountEventType, { description: string; schema: Record<string, unknown> }> = {
  'partner.claim.status_changed': {
    description: "A claim of yours changed status (a moderator approved or rejected it, or it ended with the account). Fetch details with get_my_partner_listings.",
    schema: {
      type: 'object',
      properties: { ...IDS, claim_id: { type: 'string' }, old_status: { type: ['string', 'null'], enum: [...STATUS.enum, null] }, new_status: STATUS },
      required: ['listing_id', 'toilet_id', 'claim_id', 'new_status'],
      additionalProperties: false,
    },
  },
  'partner.profile.updated': {
    description: "A profile of yours changed: conditions, hours, the live switch or a temporary closure ending, or its toilet's state on the map. Fetch details with get_my_partner_listings.",
    schema: {
      type: 'object',
      properties: {
        ...IDS,
        changed: { type: 'array', items: { type: 'string' }, description: 'Which parts changed.' },
        by: { type: 'string', enum: ['owner', 'closure_ended', 'map_data'] },
        open_now: { type: 'boolean' },
        closed_until: { type: 'integer', description: 'Epoch milliseconds the temporary closure ends; 0: open.' },
        toilet_state: { type: 'string', enum: ['present', 'gone', 'vanished'] },
        old_toilet_id: { type: 'string' },
      },
      required: ['listing_id', 'toilet_id', 'changed', 'by'],
      additionalProperties: false,
    },
  },
};

export const EVENT_NAMES = Object.keys(PAYLOADS) as AccountEventType[];

export function isEventName(name: unknown): name is AccountEventType {
  return typeof name === 'string' && name in PAYLOADS;
}

/** The events/list result's descriptors. */
export function eventDescriptors() {
  return EVENT_NAMES.map((name) => ({ name, description: PAYLOADS[name].description, delivery: ['webhook'], inputSchema: ARGUMENTS_SCHEMA, payloadSchema: PAYLOADS[name].schema }));
}

export interface EventArguments {
  listing_id?: string;
  toilet_id?: string;
}

/** The arguments checked against ARGUMENTS_SCHEMA: the filters, or what to correct. */
export function checkArguments(value: unknown): EventArguments | string {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'arguments must be an object';
  const args = value as Record<string, unknown>;
  for (const key of Object.keys(args)) if (!(key in ARGUMENTS_SCHEMA.properties)) return `arguments.${key} is not known; the filters are listing_id and toilet_id`;
  for (const [key, schema] of Object.entries(ARGUMENTS_SCHEMA.properties)) {
    const v = args[key];
    if (v !== undefined && (typeof v !== 'string' || !new RegExp(schema.pattern).test(v))) return `arguments.${key} must be ${schema.title}`;
  }
  return args as EventArguments;
}

/** Arguments as canonical JSON (keys sorted): part of a subscription's key. */
export function canonicalArguments(args: EventArguments): string {
  return JSON.stringify(Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))));
}

/** Whether a subscription's filters admit an entry of the log. */
export function admits(args: EventArguments, entry: AccountEvent): boolean {
  return (args.listing_id === undefined || args.listing_id === entry.listing_id) && (args.toilet_id === undefined || args.toilet_id === entry.toilet_id);
}

/** The occurrence a subscriber receives: only the payload schema's fields of the entry. */
export function occurrence(entry: AccountEvent) {
  const schema = PAYLOADS[entry.type].schema as { properties: Record<string, unknown> };
  const all: Record<string, unknown> = { ...entry.data, listing_id: entry.listing_id, toilet_id: entry.toilet_id };
  const data = Object.fromEntries(Object.keys(schema.properties).filter((k) => all[k] !== undefined).map((k) => [k, all[k]]));
  return { eventId: `evt_${entry.seq}`, name: entry.type, timestamp: new Date(entry.created_at).toISOString(), data };
}
