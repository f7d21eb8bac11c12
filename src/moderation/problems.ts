// The problem types of moderation: the moderator role, refused moderation actions.
// Data only (src/http/problem-types.ts): the read threads load it with the catalogue, src/problems.ts.
import type { ProblemTypes, SlugsOf } from '../http/problem-types.js';

export const MODERATION_PROBLEMS = {
  'moderator-required': {
    title: 'Moderator role required',
    status: 403,
    description: 'This operation is for accounts with the moderator role, which the operator grants (npm run moderate -- moderators add). Sign in with such an account, or ask the operator.',
  },
  'moderation-refused': {
    title: 'Moderation action refused',
    status: 409,
    description: 'The moderator action cannot be done as asked, for the reason the detail gives (decided already, no such toilet or lock, a value the fact does not take). Reload the queue and act again.',
  },
} as const satisfies ProblemTypes;

declare module '../http/problem-types.js' {
  interface ProblemCatalogue extends SlugsOf<typeof MODERATION_PROBLEMS> {}
}
