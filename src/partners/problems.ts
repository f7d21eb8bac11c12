// The problem types of business claims and partner listings.
// Data only (src/http/problem-types.ts): the read threads load it with the catalogue, src/problems.ts.
import type { ProblemTypes, SlugsOf } from '../http/problem-types.js';

export const PARTNER_PROBLEMS = {
  'own-claim': {
    title: 'Another moderator must decide',
    status: 409,
    description: "The signed-in moderator's own account holds a pending or approved business claim on this toilet, so they may not decide any claim on it (neither approve their own nor reject a rival's). Another moderator decides it, or the operator with npm run moderate.",
  },
  'claim-conflict': {
    title: 'Toilet already claimed',
    status: 409,
    description: 'This account already has a pending or approved claim on the toilet, or another business holds it (its claim was approved). A toilet has one partner; a rejected claim does not block a new one. listMyPartnerListings shows the account\'s claims.',
  },
  'claim-not-approved': {
    title: 'Claim not approved',
    status: 409,
    description: 'The claim this partner listing was made with is not approved (it waits for a moderator, or was rejected). listMyPartnerListings shows its status and the moderator\'s reason.',
  },
  'no-running-plan': {
    title: 'No running plan',
    status: 409,
    description: 'The partner listing has no running plan, so its profile cannot be changed: buy one (startCheckout), or wait until the payment is through.',
  },
} as const satisfies ProblemTypes;

declare module '../http/problem-types.js' {
  interface ProblemCatalogue extends SlugsOf<typeof PARTNER_PROBLEMS> {}
}
