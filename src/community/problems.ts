// The problem types of contributions: the human check, the operator's switch, the daily limit.
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
} as const satisfies ProblemTypes;

declare module '../http/problem-types.js' {
  interface ProblemCatalogue extends SlugsOf<typeof COMMUNITY_PROBLEMS> {}
}
