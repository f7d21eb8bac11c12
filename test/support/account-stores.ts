// The stores of the accounts side in both engines, for tests that run the same checks on each: a place (an
// ACCOUNTS_DB file, or a PostgreSQL database of the test cluster) and open(), one more process over it with
// its own connection(s): the accounts, the event log, the partner, billing, OAuth and event subscription
// stores, as app.ts puts them together. Two open() of one place race as two replicas (or a server and the
// moderation command) do.
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-store.js';
import { SqliteAccountEventLog, type AccountEventLog } from '../../src/accounts/event-log.js';
import { PostgresAccountEventLog } from '../../src/accounts/event-log-postgres.js';
import type { AccountsTables, EventLogTables } from '../../src/accounts/postgres-tables.js';
import { secretHash, type AccountsStore } from '../../src/accounts/store.js';
import { SqlitePartnerStore } from '../../src/partners/sqlite-store.js';
import { PostgresPartnerStore } from '../../src/partners/postgres-store.js';
import type { PartnerStore } from '../../src/partners/store.js';
import { SqliteBillingStore } from '../../src/billing/sqlite-store.js';
import { PostgresBillingStore } from '../../src/billing/postgres-store.js';
import type { BillingStore } from '../../src/billing/store.js';
import { SqliteOAuthStore } from '../../src/oauth/sqlite-store.js';
import { PostgresOAuthStore } from '../../src/oauth/postgres-store.js';
import type { OAuthStore } from '../../src/oauth/store.js';
import { SqliteEventStore, type EventStore } from '../../src/account-events/store.js';
import { PostgresEventStore } from '../../src/account-events/postgres-store.js';
import { sql } from 'kysely';
import { ACCOUNTS_DATABASE, POSTGRES_SCHEMAS } from '../../src/databases.js';
import { PostgresDatabase } from '../../src/storage/postgres.js';
import { postgresUrl } from '../../src/config-values.js';
import { PartnerClaims } from '../../src/partners/claims.js';
import type { SnapshotHolder } from '../../src/toilets/snapshot.js';
import { tempDir } from './extracts.js';
import { fileCluster, noPostgres, type TestPostgres } from './postgres.js';

/** One process's stores over a place. */
export interface AccountSide {
  accounts: AccountsStore;
  events: AccountEventLog;
  partners: PartnerStore;
  billing: BillingStore;
  oauth: OAuthStore;
  subscriptions: EventStore;
  /**
   * Ends a grant as OAuth does (its row deleted, its subscriptions with it), queueing its terminated
   * envelope inside that transaction, which commits or, when told, rolls back (throws ROLLED_BACK).
   */
  endGrant(grantId: string, envelope: Envelope, outcome: 'commit' | 'roll back'): Promise<void>;
}

export interface Envelope {
  webhookId: string;
  body: string;
  atMs: number;
}

export const ROLLED_BACK = 'the grant-ending transaction rolled back';

export interface Place {
  open(): Promise<AccountSide>;
  close(): Promise<void>;
}

export interface Engine {
  name: string;
  skip: string | false;
  place(): Promise<Place>;
}

/** The file engine (in `dir`) and PostgreSQL (a database per place on `cluster()`), with the clock `now`. */
export function engines(dir: string, cluster: () => TestPostgres, now: () => number): Engine[] {
  let places = 0;
  const sqlite: Engine = {
    name: 'the ACCOUNTS_DB file',
    skip: false,
    place: async () => {
      const path = join(dir, `accounts-${++places}.db`);
      const opened: AccountsStore[] = [];
      return {
        open: async () => {
          const accounts = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
          opened.push(accounts);
          const events = new SqliteAccountEventLog(accounts.db, now);
          const partners = new SqlitePartnerStore(accounts, events);
          const oauth = new SqliteOAuthStore(accounts.db);
          const subscriptions = new SqliteEventStore(accounts.db);
          const endGrant: AccountSide['endGrant'] = (grantId, { webhookId, body, atMs }, outcome) =>
            oauth.transaction(function* (t) {
              void subscriptions.enqueueForGrant(grantId, webhookId, body, atMs); // written at the call, in this transaction
              yield* t.deleteGrant(grantId);
              if (outcome === 'roll back') throw new Error(ROLLED_BACK);
            });
          return { accounts, events, partners, billing: new SqliteBillingStore(accounts, partners.tables), oauth, subscriptions, endGrant };
        },
        close: async () => void (await Promise.all(opened.map((store) => store.close()))),
      };
    },
  };
  const postgres: Engine = {
    name: 'PostgreSQL (the accounts schema)',
    skip: noPostgres,
    place: async () => {
      const address = postgresUrl(cluster().database(`side_${++places}`))!;
      const opened: PostgresDatabase[] = [];
      return {
        open: async () => {
          const database = await PostgresDatabase.open(address, POSTGRES_SCHEMAS, () => {});
          opened.push(database);
          const events = new PostgresAccountEventLog(database.schema<EventLogTables>('accounts'), now);
          const partners = await PostgresPartnerStore.open(database.schema<unknown>('accounts'), events);
          const accounts = new PostgresAccountsStore(database.schema<AccountsTables>('accounts'));
          const subscriptions = new PostgresEventStore(database.schema<unknown>('accounts'));
          const endGrant: AccountSide['endGrant'] = (grantId, { webhookId, body, atMs }, outcome) =>
            database.schema<unknown>('accounts').transaction().execute(async (tx) => {
              await subscriptions.enqueueForGrantIn(tx, grantId, webhookId, body, atMs);
              await sql`DELETE FROM accounts.oauth_grants WHERE id = ${grantId}`.execute(tx);
              if (outcome === 'roll back') throw new Error(ROLLED_BACK);
            });
          return { accounts, events, partners, billing: new PostgresBillingStore(partners), oauth: new PostgresOAuthStore(database.schema<unknown>('accounts')), subscriptions, endGrant };
        },
        close: async () => void (await Promise.all(opened.map((database) => database.close()))),
      };
    },
  };
  return [sqlite, postgres];
}

let made = 0;

/** Makes an account (with a passkey and a session) through `accounts`: its id. */
export async function anAccount(accounts: AccountsStore, atMs: number): Promise<string> {
  const id = `acc_${(++made).toString(16).padStart(24, '0')}`;
  const passkey = { id: `cred-${id}`, account_id: id, public_key: Buffer.from(id), counter: 0, transports: '[]', name: null, created_at: atMs };
  const session = { token_hash: secretHash(`token-${id}`), account_id: id, created_at: atMs, last_seen_at: atMs, verified_at: atMs, device: null };
  await accounts.createAccount({ id, user_handle: Buffer.from(id), display_name: `Business ${made}`, email: null, created_at: atMs }, passkey, session);
  return id;
}

/** Two processes over one fresh place of an engine, opened before the suite's first test. */
export interface TwoProcesses {
  readonly a: AccountSide;
  readonly b: AccountSide;
}

/** Runs `suite` once per engine (a describe each, told which), with two processes over a place of its own, at the clock `now`. */
export function onEachEngine(name: string, now: () => number, suite: (sides: TwoProcesses, engine: Engine) => void): void {
  const dir = tempDir(name);
  after(() => dir.remove());
  const postgres = fileCluster();
  for (const engine of engines(dir.path, () => postgres.cluster, now)) {
    describe(engine.name, { skip: engine.skip }, () => {
      let place: Place | undefined;
      const opened: AccountSide[] = [];
      before(async () => {
        place = await engine.place();
        opened.push(await place.open(), await place.open());
      });
      after(() => place?.close());
      suite({ get a() { return opened[0]; }, get b() { return opened[1]; } }, engine);
    });
  }
}

/** Every toilet id is served, under that id alone. */
const EVERY_TOILET = { snapshot: { rowOf: () => 0, aliases: (id: string) => [id], currentId: (id: string) => id } } as unknown as SnapshotHolder;

/** The claims of a process (every toilet served), at the clock `now`. */
export function claimsOf(side: AccountSide, now: () => number): PartnerClaims {
  return new PartnerClaims({ store: side.partners, now, toilets: EVERY_TOILET, changed: () => {} });
}
