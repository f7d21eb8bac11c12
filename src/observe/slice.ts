// The observability slice: the refusal of GET /metrics, and the settings of the metrics and the access log.
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { readObserveSettings } from './config.js';
import { OBSERVE_PROBLEMS } from './problems.js';

export const OBSERVE_SLICE = {
  name: 'observe',
  settings: readObserveSettings,
  problems: OBSERVE_PROBLEMS,
} satisfies FeatureSlice;
