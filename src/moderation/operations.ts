// The moderation operations of the registry: the web queue and its actions (moderation-routes.ts).
// the folder's slice.ts names them.
import { RATE_LIMIT_POLICIES, RATE_LIMITED, unwritable, type OperationSpec } from '../schemas/operations.js';
import { ACCOUNT_INVALID_BODY, ACCOUNT_MAX_BYTES, NOT_RECENT, OTHER_ORIGIN, PRIVATE, SIGNED_OUT } from '../accounts/operations.js';
// the schema names its entries give are its resources.ts's (SchemaCatalogue), wherever the entries are read
import './resources.js';

const NOT_MODERATOR = 'The signed-in account does not hold the moderator role (the operator grants it: npm run moderate -- moderators add).';

/**
 * The moderator queue of the site (issue 31): what `npm run moderate` lists and does, through the one
 * moderation module (src/moderation/moderation.ts), for accounts with the moderator role.
 */
export const MODERATION_OPERATIONS = [
  {
    operationId: 'listModerationQueue',
    method: 'get',
    path: '/moderation/queue',
    summary: 'The moderator queue',
    description: 'Pending submissions (with the toilets listed within 100 m), open reports (with the toilet and its other open reports), toilets most voters call gone, pending business claims (with the toilet, the contact details and the other claims on it), the locks in force, and the latest 20 actions: what `npm run moderate -- list` and `log` show. Never cached, never shared with other origins.',
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: { role: 'moderator' },
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The queue.', schema: 'ModerationQueue' },
    errors: { 401: SIGNED_OUT, 403: NOT_MODERATOR, 429: RATE_LIMITED },
  },
  {
    operationId: 'moderate',
    method: 'post',
    path: '/moderation/actions',
    summary: 'Act on the moderator queue',
    description:
      'One action of `npm run moderate`, with the same effect and the same entry in the moderation log (plus the moderator\'s account id): `approve` or `reject` a `target` (sub_<n>, rep_<n>, or a business claim clm_..., whose approval may correct the business `name`); `lock` a `fact` of `toilet_id` to `value`; `unlock` it; mark `toilet_id` `gone`. Each needs a `reason`. Needs a passkey sign-in from the last 5 minutes.',
    requestBody: { schema: 'ModerationActionRequest', maxBytes: ACCOUNT_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: { origin: 'site', role: 'moderator', recentPasskey: true },
    cacheControl: PRIVATE,
    success: { status: 200, description: 'Done, in the words of the command line.', schema: 'ModerationActionDone' },
    errors: {
      400: `${ACCOUNT_INVALID_BODY} Also: a field the action needs is missing.`,
      401: NOT_RECENT,
      403: `${OTHER_ORIGIN} Or: ${NOT_MODERATOR}`,
      409: 'The action is refused as the command line would refuse it (the submission, report or claim was decided already, another claim on the toilet is approved, no such toilet, no such lock, a value the fact does not take): the detail says why. Or (type own-claim) the moderator\'s own account holds a claim on the toilet, so another moderator must decide its claims.',
      429: RATE_LIMITED,
      503: unwritable('overlay database'),
    },
  },
] as const satisfies readonly OperationSpec[];
