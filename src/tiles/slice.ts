// The basemap's slice: the registry entries of its tiles (outside the OpenAPI document).
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { TILE_ROUTES } from './operations.js';

export const TILES_SLICE = { name: 'tiles', operations: TILE_ROUTES } satisfies FeatureSlice;
