// The billing's slice: the partner payment operations (Stripe), their refusals, and the accounts database's
// step 5, the PostgreSQL accounts schema's step 5, and the Stripe settings.
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { readBillingSettings } from './config.js';
import { BILLING_OPERATIONS, BILLING_ROUTES } from './operations.js';
import { BILLING_SCHEMAS } from './resources.js';
import { BILLING_PROBLEMS } from './problems.js';
import { BILLING_TABLES_STEP } from './tables.js';
import { BILLING_POSTGRES_STEP } from './postgres-tables.js';

export const BILLING_SLICE = {
  name: 'billing',
  settings: readBillingSettings,
  operations: [...BILLING_OPERATIONS, ...BILLING_ROUTES],
  schemas: BILLING_SCHEMAS,
  problems: BILLING_PROBLEMS,
  tables: { accounts: [BILLING_TABLES_STEP] },
  postgres: { accounts: [BILLING_POSTGRES_STEP] },
} satisfies FeatureSlice;
