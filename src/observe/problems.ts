// The problem types of the metrics endpoint.
// Data only (src/http/problem-types.ts): the read threads load it with the catalogue, src/problems.ts.
import type { ProblemTypes, SlugsOf } from '../http/problem-types.js';

export const OBSERVE_PROBLEMS = {
  'metrics-forbidden': {
    title: 'Metrics are not served to this address',
    status: 403,
    description: "The service's metrics are served only to the addresses its operator allows (METRICS_ALLOW), such as the monitoring system's. Scrape them from one of those, or ask the operator.",
  },
} as const satisfies ProblemTypes;

declare module '../http/problem-types.js' {
  interface ProblemCatalogue extends SlugsOf<typeof OBSERVE_PROBLEMS> {}
}
