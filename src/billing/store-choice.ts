// Billing's store (store.ts) beside the partner store the server assembled: on the ACCOUNTS_DB file's
// connection, or in PostgreSQL's accounts schema, so a webhook's effect on a listing and the record of its
// event id commit in one transaction wherever the listings are (PostgreSQL: under the event id's advisory lock).
import type { PartnerStore } from '../partners/store.js';
import { SqlitePartnerStore } from '../partners/sqlite-store.js';
import { PostgresPartnerStore } from '../partners/postgres-store.js';
import type { BillingStore } from './store.js';
import { SqliteBillingStore } from './sqlite-store.js';
import { PostgresBillingStore } from './postgres-store.js';

/** Billing's store over the partner store it shares its transactions with. */
export function billingStoreOf(partners: PartnerStore): BillingStore {
  if (partners instanceof SqlitePartnerStore) return new SqliteBillingStore(partners.accounts, partners.tables);
  if (partners instanceof PostgresPartnerStore) return new PostgresBillingStore(partners);
  throw new Error('billing has no store for this partner store');
}
