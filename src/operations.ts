// Every route the service serves: the registry, made from the features' slices (src/features.ts). The
// router and the guards serve its entries, and the tests of every route loop over it (REGISTRY); the
// OpenAPI document, the MCP tools and the check of DEPRECATED_OPERATIONS read the spec's operations of it
// (OPERATIONS), not the routes outside the spec (`openApi: false`). Beside it, the rate-limit budgets the
// operations count against, every slice's. Fixed paths come before templated ones (`/toilets/nearest`
// before `/toilets/{id}`) within each feature's list.
import { entryName, fullPath, isListed, type OperationSpec, type RateLimitBudget, type RegistryEntry } from './schemas/operations.js';
import type { FeatureSlice } from './feature.js';
import { FEATURES } from './features.js';
// the schemas the operations name, in the one catalogue (src/schemas/catalogue.ts) before any is validated
import './resources.js';

/** Every entry, in the features' order; a name or a method and path two entries share is a mistake. */
export function registryOf(features: readonly FeatureSlice[]): readonly RegistryEntry[] {
  const entries = features.flatMap((feature) => feature.operations ?? []);
  const seen = new Set<string>();
  for (const entry of entries) {
    for (const key of new Set([entryName(entry), `${entry.method} ${fullPath(entry)}`])) {
      if (seen.has(key)) throw new Error(`two operations are ${key}: each entry is declared once, by one feature`);
      seen.add(key);
    }
  }
  return entries;
}

/** The operations of the spec among the entries: what the OpenAPI document lists. */
export function operationsOf(features: readonly FeatureSlice[]): readonly OperationSpec[] {
  return registryOf(features).filter(isListed);
}

export const REGISTRY: readonly RegistryEntry[] = registryOf(FEATURES);
export const OPERATIONS: readonly OperationSpec[] = REGISTRY.filter(isListed);

/** The rate-limit budgets of the slices, in their order; a policy two of them declare is a mistake. */
export function rateLimitsOf(features: readonly FeatureSlice[]): readonly RateLimitBudget[] {
  const budgets = features.flatMap((feature) => feature.rateLimits ?? []);
  const names = budgets.map((budget) => budget.policy.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new Error(`two rate-limit policies are named ${twice}: each policy is declared once, by one feature`);
  return budgets;
}

export const RATE_LIMITS: readonly RateLimitBudget[] = rateLimitsOf(FEATURES);
