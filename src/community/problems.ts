// The problem types of contributions and moderation: the human check, the operator's switch, the daily
// limit, the moderator role and refused moderation actions.
// Data only (src/http/problem-types.ts): the read threads load it with the catalogue, src/problems.ts.
import type { ProblemTypes, SlugsOf } from '../http/problem-types.js';

export const COMMUNITY_PROBLEMS = {
  'human-check-failed': {
    title: 'Human check failed',
    status: 403,
    description: 'The challenge_token is missing, wrong, expired or was used before. Solve a new challenge from GET /api/v1/challenge and send its solution once.',
  },
  'contributions-off': {
    title: 'Contributions are off',
    status: 503,
    description: 'The operator has switched contributions off for now; reads still work. Wait the number of seconds in the Retry-After header, then try again.',
  },
  'daily-limit': {
    title: 'One new contributor per address and day',
    status: 429,
    description: 'Each network address may add one new rater or voter per toilet per day (UTC). People who rated or voted before may change their rating or vote at any time. Wait the number of seconds in the Retry-After header (until the next UTC day).',
  },
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
  interface ProblemCatalogue extends SlugsOf<typeof COMMUNITY_PROBLEMS> {}
}
