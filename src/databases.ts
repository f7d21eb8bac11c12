// The service's own databases and the steps of their layouts, from every feature that keeps tables in
// them. One user_version spans several features in a file: each feature declares its steps with fixed
// global numbers (the ones that shipped stay as they are), and collectSteps checks here that the numbers of
// each file are unique and without gaps. A feature with tables of its own adds its steps to its file here.
// With DATABASE_URL the same holds per PostgreSQL schema: `overlay` for what the overlay database keeps,
// `accounts` for personal and secret data (readable by the service's role only); a feature whose store has
// a PostgreSQL implementation lists its steps in its schema here.
import { ACCOUNT_STEPS, accountsDatabase } from './accounts/store.js';
import { BILLING_TABLES_STEP } from './billing/tables.js';
import { OAUTH_TABLES_STEP } from './oauth/tables.js';
import { OAUTH_CLIENT_BOUNDS_STEP } from './oauth/client-bounds-step.js';
import { OAUTH_CLIENT_DOCUMENTS_STEP } from './oauth/client-documents-step.js';
import { FIGURES_TABLES_STEP } from './partners/figures-tables.js';
import { PARTNER_TABLES_STEP } from './partners/tables.js';
import { collectSteps } from './storage/migrations.js';
import { SERVER_KEY_STEP } from './community/server-key.js';
import type { PostgresSchema } from './storage/postgres.js';
import type { DatabaseKind } from './storage/database.js';

/** ACCOUNTS_DB: accounts (1, 3), partners (2, 6), OAuth (4, 7, 8), billing (5). */
export const ACCOUNTS_MIGRATIONS = collectSteps(
  'accounts database',
  ACCOUNT_STEPS,
  [PARTNER_TABLES_STEP, FIGURES_TABLES_STEP],
  [OAUTH_TABLES_STEP, OAUTH_CLIENT_BOUNDS_STEP, OAUTH_CLIENT_DOCUMENTS_STEP],
  [BILLING_TABLES_STEP],
);

export const ACCOUNTS_DATABASE: DatabaseKind = accountsDatabase(ACCOUNTS_MIGRATIONS);

/** The PostgreSQL schemas of DATABASE_URL and their steps: accounts (1: the server key); overlay (none yet). */
export const POSTGRES_SCHEMAS: readonly PostgresSchema[] = [
  { name: 'overlay', steps: collectSteps('overlay schema') },
  { name: 'accounts', steps: collectSteps('accounts schema', [SERVER_KEY_STEP]) },
];
