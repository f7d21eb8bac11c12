// The OAuth slice: its registry entries (the authorization endpoint, the connected-apps page, the endpoints
// clients call: outside the OpenAPI document), the accounts database's steps 4, 7 and 8 (grants, clients,
// client documents), the PostgreSQL accounts schema's step 6, the client registrations' rate limit and its settings.
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { readOAuthSettings } from './config.js';
import { OAUTH_ROUTES } from './operations.js';
import { OAUTH_TABLES_STEP } from './tables.js';
import { OAUTH_CLIENT_BOUNDS_STEP } from './client-bounds-step.js';
import { OAUTH_CLIENT_DOCUMENTS_STEP } from './client-documents-step.js';
import { OAUTH_POSTGRES_STEP } from './postgres-tables.js';
import { OAUTH_RATE_LIMITS } from './rate-limits.js';

export const OAUTH_SLICE = {
  name: 'oauth',
  settings: readOAuthSettings,
  operations: OAUTH_ROUTES,
  tables: { accounts: [OAUTH_TABLES_STEP, OAUTH_CLIENT_BOUNDS_STEP, OAUTH_CLIENT_DOCUMENTS_STEP] },
  postgres: { accounts: [OAUTH_POSTGRES_STEP] },
  rateLimits: OAUTH_RATE_LIMITS,
} satisfies FeatureSlice;
