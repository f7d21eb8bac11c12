// The overview's slice: the registry entries of its tiles and documents (outside the OpenAPI document).
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { OVERVIEW_ROUTES } from './operations.js';

export const OVERVIEW_SLICE = { name: 'overview', operations: OVERVIEW_ROUTES } satisfies FeatureSlice;
