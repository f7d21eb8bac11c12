// The accounts' slice: the operations of accounts, passkeys and sessions, their refusals, the accounts
// database's steps 1 and 3, the PostgreSQL accounts schema's steps 2 and 3, and the accounts' settings.
// Data only (src/feature.ts): src/features.ts lists it; the read threads load it with the catalogue.
import type { FeatureSlice } from '../feature.js';
import { readAccountSettings } from './config.js';
import { ACCOUNT_OPERATIONS } from './operations.js';
import { ACCOUNT_SCHEMAS } from './resources.js';
import { ACCOUNT_PROBLEMS } from './problems.js';
import { ACCOUNT_STEPS } from './tables.js';
import { ACCOUNT_RATE_LIMITS } from './rate-limits.js';
import { ACCOUNTS_POSTGRES_STEP, EVENT_LOG_POSTGRES_STEP } from './postgres-tables.js';

export const ACCOUNTS_SLICE = {
  name: 'accounts',
  settings: readAccountSettings,
  operations: ACCOUNT_OPERATIONS,
  schemas: ACCOUNT_SCHEMAS,
  problems: ACCOUNT_PROBLEMS,
  rateLimits: ACCOUNT_RATE_LIMITS,
  tables: { accounts: [...ACCOUNT_STEPS] },
  postgres: { accounts: [ACCOUNTS_POSTGRES_STEP, EVENT_LOG_POSTGRES_STEP] },
} satisfies FeatureSlice;
