// The problem types of the guard chain's own checks (guards.ts): the origin of a browser page.
// Data only (src/http/problem-types.ts): the read threads load it with the catalogue, src/problems.ts.
import type { ProblemTypes, SlugsOf } from '../http/problem-types.js';

export const GUARD_PROBLEMS = {
  'other-origin': {
    title: 'Request from another origin',
    status: 403,
    description: "Contributions are accepted only from this site's own pages: the Origin header (or, without it, Sec-Fetch-Site: same-origin) must name this service's origin.",
  },
  'origin-not-allowed': {
    title: 'Origin not allowed',
    status: 403,
    description: 'This endpoint serves browser pages only from the origins its operator listed (MCP_ALLOWED_ORIGINS). Clients that are not browser pages send no Origin header and are served.',
  },
} as const satisfies ProblemTypes;

declare module '../http/problem-types.js' {
  interface ProblemCatalogue extends SlugsOf<typeof GUARD_PROBLEMS> {}
}
