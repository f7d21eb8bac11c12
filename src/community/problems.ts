// Problem types of the contribution operations, added to the service's catalog in app.ts.
import type { ProblemKind } from '../http/problem.js';

export const COMMUNITY_PROBLEM_KINDS = {
  'other-origin': {
    title: 'Request from another origin',
    status: 403,
    description: "Contributions are accepted only from this site's own pages: the Origin header (or, without it, Sec-Fetch-Site: same-origin) must name this service's origin.",
  },
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
} as const satisfies Record<string, ProblemKind>;
