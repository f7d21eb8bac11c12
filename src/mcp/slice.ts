// The public MCP endpoint's slice: its registry entries (outside the OpenAPI document).
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { MCP_ROUTES } from './operations.js';

export const MCP_SLICE = { name: 'mcp', operations: MCP_ROUTES } satisfies FeatureSlice;
