// Bodies of the moderator queue's operations (issue 31: the web queue), which the spec leaves to us. They
// say what `npm run moderate -- list` and its actions say (src/moderation/moderation.ts is the one module
// behind both), so a page action is exactly a command line action: approve, reject, lock, unlock, gone;
// business claims (src/moderation/claim-moderation.ts) are approved, with an optional corrected name, or rejected.
import { FACT_ATTRIBUTES } from '../rules/facts.js';
import { closedObject, ref } from '../schemas/refs.js';
import { TOILET_ID, type SchemasOf } from '../schemas/resources.js';

const DATE_TIME = { type: 'string', format: 'date-time' } as const;
const NULLABLE_TEXT = { anyOf: [{ type: 'string' }, { type: 'null' }] } as const;
const TARGET = { type: 'string', pattern: '^((sub|rep)_[1-9][0-9]{0,15}|clm_[0-9a-f]{24})$', title: 'a submission (sub_<n>), a report (rep_<n>) or a business claim (clm_ and 24 hex digits)' } as const;
const NULLABLE_EMAIL_TEXT = { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'null once erased (90 days after a decision, or with the account).' } as const;
const FACT = { type: 'string', enum: FACT_ATTRIBUTES, title: 'a fact of a toilet' } as const;
const REASON = { type: 'string', minLength: 1, maxLength: 500, pattern: '\\S', title: 'why, in a few words (1 to 500 characters): every action is recorded with one' } as const;

const QueuedSubmission = closedObject('QueuedSubmission', 'A proposed toilet waiting for a moderator, with the toilets already listed within 100 m.', {
  id: { type: 'string', pattern: '^sub_[1-9][0-9]*$' },
  submitted_at: DATE_TIME,
  lat: { type: 'number' },
  lon: { type: 'number' },
  name: NULLABLE_TEXT,
  access: NULLABLE_TEXT,
  fee: NULLABLE_TEXT,
  opening_hours: NULLABLE_TEXT,
  wheelchair: NULLABLE_TEXT,
  changing_table: NULLABLE_TEXT,
  note: NULLABLE_TEXT,
  nearby: {
    type: 'array',
    items: { type: 'object', properties: { id: TOILET_ID, name: NULLABLE_TEXT, distance_m: { type: 'integer', minimum: 0 } }, required: ['id', 'name', 'distance_m'], additionalProperties: false },
  },
});

const QueuedReport = closedObject('QueuedReport', 'An open report, with the toilet as listed now and how many open reports it has.', {
  id: { type: 'string', pattern: '^rep_[1-9][0-9]*$' },
  reported_at: DATE_TIME,
  kind: { type: 'string' },
  note: NULLABLE_TEXT,
  toilet_id: TOILET_ID,
  toilet: {
    anyOf: [
      {
        type: 'object',
        properties: { name: NULLABLE_TEXT, lat: { type: 'number' }, lon: { type: 'number' }, source: { type: 'string' }, gone: { type: 'boolean' } },
        required: ['name', 'lat', 'lon', 'source', 'gone'],
        additionalProperties: false,
      },
      { type: 'null' },
    ],
    description: 'null when the current data no longer has it.',
  },
  open_reports: { type: 'integer', minimum: 1 },
});

const GoneVotes = closedObject('GoneVotes', 'A toilet most voters call gone: votes never hide it, a moderator decides.', {
  toilet_id: TOILET_ID,
  name: NULLABLE_TEXT,
  gone_votes: { type: 'integer', minimum: 0 },
  exists_votes: { type: 'integer', minimum: 0 },
});

const QueuedClaim = closedObject('QueuedClaim', 'A business claim waiting for a moderator: the toilet, the business, its contact details and the other claims on the toilet (what `npm run moderate -- list claims` shows).', {
  id: { type: 'string', pattern: '^clm_[0-9a-f]{24}$' },
  claimed_at: DATE_TIME,
  listing_id: { type: 'string', pattern: '^pl_[0-9a-f]{32}$' },
  account_id: NULLABLE_TEXT,
  business_name: { type: 'string' },
  contact_email: NULLABLE_EMAIL_TEXT,
  contact_phone: NULLABLE_TEXT,
  website: NULLABLE_TEXT,
  note: NULLABLE_TEXT,
  toilet_id: TOILET_ID,
  toilet: {
    anyOf: [
      {
        type: 'object',
        properties: { name: NULLABLE_TEXT, lat: { type: 'number' }, lon: { type: 'number' }, gone: { type: 'boolean' } },
        required: ['name', 'lat', 'lon', 'gone'],
        additionalProperties: false,
      },
      { type: 'null' },
    ],
    description: 'null when the current data no longer has it.',
  },
  other_claims: {
    type: 'array',
    description: 'Other pending or approved claims on the same toilet: approving this one rejects the pending ones.',
    items: {
      type: 'object',
      properties: { id: { type: 'string' }, status: { type: 'string', enum: ['pending', 'approved', 'rejected', 'withdrawn'] }, business_name: { type: 'string' }, claimed_at: DATE_TIME },
      required: ['id', 'status', 'business_name', 'claimed_at'],
      additionalProperties: false,
    },
  },
});

const FactLock = closedObject('FactLock', 'A value a moderator set for a fact, shown whatever the votes say (existence gone: the toilet is hidden).', {
  toilet_id: TOILET_ID,
  name: NULLABLE_TEXT,
  fact: FACT,
  value: { type: 'string' },
  locked_at: DATE_TIME,
});

const ModerationLogEntry = closedObject('ModerationLogEntry', 'One recorded moderator action.', {
  at: DATE_TIME,
  action: { type: 'string' },
  target: { type: 'string' },
  reason: { type: 'string' },
  details: {},
});

const ModerationQueue = closedObject('ModerationQueue', 'What `npm run moderate -- list` shows, and the latest actions (`log`).', {
  submissions: { type: 'array', items: ref('QueuedSubmission') },
  reports: { type: 'array', items: ref('QueuedReport') },
  gone_votes: { type: 'array', items: ref('GoneVotes') },
  claims: { type: 'array', items: ref('QueuedClaim') },
  locks: { type: 'array', items: ref('FactLock') },
  log: { type: 'array', items: ref('ModerationLogEntry'), maxItems: 20 },
});

const ModerationActionRequest = closedObject(
  'ModerationActionRequest',
  'One action of `npm run moderate`: `approve` or `reject` a `target` (approving a claim may correct its business `name`); `lock` a `fact` of `toilet_id` to `value`; `unlock` it; mark `toilet_id` `gone`. Each with its `reason`.',
  {
    action: { type: 'string', enum: ['approve', 'reject', 'lock', 'unlock', 'gone'] },
    target: TARGET,
    toilet_id: TOILET_ID,
    fact: FACT,
    value: { type: 'string', minLength: 1, maxLength: 200 },
    name: { type: 'string', minLength: 2, maxLength: 80, description: 'approve of a claim only: the corrected business name, what partner.name shows.' },
    reason: REASON,
  },
  ['target', 'toilet_id', 'fact', 'value', 'name'],
);

const ModerationActionDone = closedObject('ModerationActionDone', 'What the action did, in the words of the command line.', { done: { type: 'string' } });

export const MODERATION_SCHEMAS = {
  QueuedSubmission,
  QueuedReport,
  GoneVotes,
  QueuedClaim,
  FactLock,
  ModerationLogEntry,
  ModerationQueue,
  ModerationActionRequest,
  ModerationActionDone,
} as const;

declare module '../schemas/resources.js' {
  interface SchemaCatalogue extends SchemasOf<typeof MODERATION_SCHEMAS> {}
}
