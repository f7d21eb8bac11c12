// The service's own databases that several features keep tables in, with the steps of their layouts from
// the features' slices (src/features.ts). One user_version spans several features in a file: each feature
// declares its steps with fixed global numbers (the ones that shipped stay as they are), and collectSteps
// checks here that the numbers of each file are unique and without gaps. With DATABASE_URL the same holds
// per PostgreSQL schema, for the features whose store has a PostgreSQL implementation.
import { accountsDatabase } from './accounts/store.js';
import { collectSteps, type Migration } from './storage/migrations.js';
import type { DatabaseKind } from './storage/database.js';
import type { PostgresSchema } from './storage/postgres.js';
import type { FeatureSlice, PostgresSchemaName } from './feature.js';
import { FEATURES } from './features.js';

/** The accounts database's steps of every feature given, in the order of their numbers. */
export function accountsMigrationsOf(features: readonly FeatureSlice[]): readonly Migration[] {
  return collectSteps('accounts database', ...features.map((feature) => feature.tables?.accounts ?? []));
}

/** ACCOUNTS_DB: accounts (1, 3), partners (2, 6), OAuth (4, 7, 8), billing (5), account events (9). */
export const ACCOUNTS_MIGRATIONS = accountsMigrationsOf(FEATURES);

export const ACCOUNTS_DATABASE: DatabaseKind = accountsDatabase(ACCOUNTS_MIGRATIONS);

/** The PostgreSQL schemas of DATABASE_URL with the steps of every feature given. */
export function postgresSchemasOf(features: readonly FeatureSlice[]): readonly PostgresSchema[] {
  const schema = (name: PostgresSchemaName): PostgresSchema => ({
    name,
    steps: collectSteps(`${name} schema`, ...features.map((feature) => feature.postgres?.[name] ?? [])),
  });
  return [schema('overlay'), schema('accounts'), schema('cluster')];
}

/** overlay: contributions, moderation, OSM notes and the change log (1); accounts: the server key (1), accounts, passkeys, sessions, challenges and recovery links (2), the account event log (3), partners (4), billing (5), OAuth (6), account events (7); cluster: the worker lease (1). */
export const POSTGRES_SCHEMAS: readonly PostgresSchema[] = postgresSchemasOf(FEATURES);
