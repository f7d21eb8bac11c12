// Every operation the service serves: the registry, made from the features' slices (src/features.ts). The
// router, the guards, the OpenAPI document and the check of DEPRECATED_OPERATIONS read this list. Beside
// it, the rate-limit budgets the operations count against, every slice's. Fixed
// paths come before templated ones (`/toilets/nearest` before `/toilets/{id}`) within each feature's list.
import type { OperationSpec, RateLimitBudget } from './schemas/operations.js';
import type { FeatureSlice } from './feature.js';
import { FEATURES } from './features.js';
// the schemas the operations name, in the one catalogue (src/schemas/catalogue.ts) before any is validated
import './resources.js';

/** One list, in the features' order; an operationId or a method and path two features both declare is a mistake. */
export function operationsOf(features: readonly FeatureSlice[]): readonly OperationSpec[] {
  const operations = features.flatMap((feature) => feature.operations ?? []);
  const seen = new Set<string>();
  for (const { operationId, method, path } of operations) {
    for (const key of [operationId, `${method} ${path}`]) {
      if (seen.has(key)) throw new Error(`two operations are ${key}: each operation is declared once, by one feature`);
      seen.add(key);
    }
  }
  return operations;
}

export const OPERATIONS: readonly OperationSpec[] = operationsOf(FEATURES);

/** The rate-limit budgets of the slices, in their order; a policy two of them declare is a mistake. */
export function rateLimitsOf(features: readonly FeatureSlice[]): readonly RateLimitBudget[] {
  const budgets = features.flatMap((feature) => feature.rateLimits ?? []);
  const names = budgets.map((budget) => budget.policy.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`two rate-limit policies are named ${twice}: each policy is declared once, by one feature`);
  return budgets;
}

export const RATE_LIMITS: readonly RateLimitBudget[] = rateLimitsOf(FEATURES);
