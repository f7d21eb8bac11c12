// The partner operations of the registry (issue 32): the spec's claim and profile operations and the
// owner's list (routes.ts). the folder's slice.ts names them.
import { RATE_LIMIT_POLICIES, RATE_LIMITED, NO_TOILET, unwritable, type OperationGuards, type OperationSpec } from '../schemas/operations.js';
import { TOILET_ID } from '../schemas/resources.js';
import { LISTING_ID } from './resources.js';
import { OTHER_ORIGIN, PRIVATE, SIGNED_OUT } from '../accounts/operations.js';

const PARTNER_MAX_BYTES = 16 * 1024;
const PARTNER_INVALID_BODY = 'The body is not JSON, larger than 16 KiB, or has invalid fields; `invalid_params` lists each one.';
const PARTNER_WRITE: OperationGuards = { origin: 'site' };
export const NO_LISTING = 'The account has no partner listing with the id.';

/** Business claims and partner listings (issue 32): the spec's two operations and the owner's list. */
export const PARTNER_OPERATIONS = [
  {
    operationId: 'listMyPartnerListings',
    method: 'get',
    path: '/partner/listings',
    summary: "The signed-in account's claims and partner listings",
    description:
      'Each listing with its claim (status, the moderator\'s reason), the toilet (id, name, whether it is still on the map), the plan (tier, source, running), the profile, whether the partner object shows now, and for a running Plus plan the monthly figures (how often the toilet was shown in answers and opened, this month and the 12 before it). The partner dashboard and the account MCP tool `get_my_partner_listings` read the same. Never cached.',
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The listings, oldest first.', schema: 'PartnerListingList' },
    errors: { 401: SIGNED_OUT, 429: RATE_LIMITED },
  },
  {
    operationId: 'claimToilet',
    method: 'post',
    path: '/toilets/{id}/claims',
    summary: 'Claim a toilet for a business',
    description:
      "For this site's own page, signed in. Saves a claim that waits for a moderator and makes its partner listing (`pl_...`, see listMyPartnerListings) at once. `website` must be an http or https address. Contact details reach moderators only. A rejected claim does not block a new one.",
    pathParams: { id: TOILET_ID },
    requestBody: { schema: 'ClaimToiletRequest', maxBytes: PARTNER_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PARTNER_WRITE,
    cacheControl: PRIVATE,
    success: { status: 201, description: 'Saved; waits for a moderator.', schema: 'ClaimToiletAnswer' },
    errors: {
      400: PARTNER_INVALID_BODY,
      401: SIGNED_OUT,
      403: OTHER_ORIGIN,
      404: NO_TOILET,
      409: 'This account already has a pending or approved claim on the toilet, or another business holds it.',
      429: RATE_LIMITED,
      503: unwritable('accounts database'),
    },
  },
  {
    operationId: 'updatePartnerProfile',
    method: 'patch',
    path: '/partner/listings/{id}',
    summary: "Change a partner listing's conditions, hours or live switch",
    description:
      "For this site's own page, signed in as the listing's owner, with an approved claim and a running plan. Send any of the keys. `opening_hours` is checked with the same evaluator as the map data's (an empty string or null clears it); `open_now` false closes the toilet for 12 hours (`closed_until`), true ends the closure at once. These are the business's statements: they never change result order, nor the toilet's own access, opening_hours or open_now.",
    pathParams: { id: LISTING_ID },
    requestBody: { schema: 'UpdatePartnerProfileRequest', maxBytes: PARTNER_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PARTNER_WRITE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The profile after the change.', schema: 'PartnerProfileAnswer' },
    errors: {
      400: `${PARTNER_INVALID_BODY} Also: opening_hours the evaluator cannot read.`,
      401: SIGNED_OUT,
      403: OTHER_ORIGIN,
      404: NO_LISTING,
      409: 'The claim is not approved, or the listing has no running plan.',
      429: RATE_LIMITED,
      503: unwritable('accounts database'),
    },
  },
  {
    operationId: 'checkPartnerHours',
    method: 'post',
    path: '/partner/listings/{id}/hours-check',
    summary: 'Check business hours before saving them',
    description:
      "For this site's own page, signed in as the listing's owner (the partner dashboard checks the hours field with it as the person leaves it). Runs exactly the validation updatePartnerProfile runs on `opening_hours` (400 naming the fault) and answers what the partner label would say with these hours now, the live switch aside. Changes nothing.",
    pathParams: { id: LISTING_ID },
    requestBody: { schema: 'PartnerHoursCheckRequest', maxBytes: PARTNER_MAX_BYTES },
    security: 'session',
    rateLimit: RATE_LIMIT_POLICIES.perIp,
    guards: PARTNER_WRITE,
    cacheControl: PRIVATE,
    success: { status: 200, description: 'The hours can be saved; what the label would say with them now.', schema: 'PartnerHoursCheck' },
    errors: {
      400: `${PARTNER_INVALID_BODY} Also: opening_hours the evaluator cannot read.`,
      401: SIGNED_OUT,
      403: OTHER_ORIGIN,
      404: NO_LISTING,
      429: RATE_LIMITED,
    },
  },
] as const satisfies readonly OperationSpec[];
