// The catalogue of every problem type the service answers with: the HTTP layer's and each feature's (the
// data-only problems.ts its slice names, src/features.ts).
import { collectProblems, HTTP_PROBLEMS, type ProblemSlug, type ProblemType, type ProblemTypes } from './http/problem-types.js';
import type { FeatureSlice } from './feature.js';
import { FEATURES } from './features.js';

/** The slugs of the problem types of a list of slices. */
type SlugsOfFeatures<Features extends readonly FeatureSlice[]> = Features[number] extends infer Slice ? (Slice extends { problems: infer Types extends ProblemTypes } ? keyof Types & string : never) : never;

/** One catalogue of the HTTP layer's types and the features'; a slug two of them declare is a mistake. */
export function problemTypesOf<Features extends readonly FeatureSlice[]>(features: Features): Readonly<Record<keyof typeof HTTP_PROBLEMS | SlugsOfFeatures<Features>, ProblemType>> {
  return collectProblems(HTTP_PROBLEMS, ...features.map((feature) => feature.problems ?? {}));
}

/** Declared with every slug of ProblemCatalogue: a feature whose problems.ts adds slugs, missing from the list, does not compile. */
export const PROBLEM_TYPES: Readonly<Record<ProblemSlug, ProblemType>> = problemTypesOf(FEATURES);
