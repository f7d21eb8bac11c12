// The observability slice: the refusal of GET /metrics.
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { OBSERVE_PROBLEMS } from './problems.js';

export const OBSERVE_SLICE = {
  name: 'observe',
  problems: OBSERVE_PROBLEMS,
} satisfies FeatureSlice;
