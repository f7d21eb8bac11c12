// The dumps' slice: the registry entry of the dump files (outside the OpenAPI document).
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { DUMP_ROUTES } from './operations.js';

export const DUMPS_SLICE = { name: 'dumps', operations: DUMP_ROUTES } satisfies FeatureSlice;
