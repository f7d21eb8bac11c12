// The protected MCP endpoint's slice: its registry entries (outside the OpenAPI document).
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { ACCOUNT_MCP_ROUTES } from './operations.js';

export const ACCOUNT_MCP_SLICE = { name: 'account-mcp', operations: ACCOUNT_MCP_ROUTES } satisfies FeatureSlice;
