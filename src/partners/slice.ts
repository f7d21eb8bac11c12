// The partners' slice: the operations of business claims and partner listings, their refusals, and the
// accounts database's steps 2 and 6, and the PostgreSQL accounts schema's step 4.
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { PARTNER_OPERATIONS } from './operations.js';
import { PARTNER_SCHEMAS } from './resources.js';
import { PARTNER_PROBLEMS } from './problems.js';
import { PARTNER_TABLES_STEP } from './tables.js';
import { FIGURES_TABLES_STEP } from './figures-tables.js';
import { PARTNERS_POSTGRES_STEP } from './postgres-tables.js';

export const PARTNERS_SLICE = {
  name: 'partners',
  operations: PARTNER_OPERATIONS,
  schemas: PARTNER_SCHEMAS,
  problems: PARTNER_PROBLEMS,
  tables: { accounts: [PARTNER_TABLES_STEP, FIGURES_TABLES_STEP] },
  postgres: { accounts: [PARTNERS_POSTGRES_STEP] },
} satisfies FeatureSlice;
