// Where this process keeps the write side: SQLite files (OVERLAY_DB, ACCOUNTS_DB, $OVERLAY_DB.key) by
// default, or with DATABASE_URL one PostgreSQL database every replica shares, for each store that has a
// PostgreSQL implementation (STORES says which; the others stay in their SQLite files until they move).
// PostgreSQL is reached asynchronously, so serve.ts opens this before the app is made and hands it in; an
// app made without it (the tests) keeps everything in the files. The app closes what it was given.
import { mkdirSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { Community } from './community/community.js';
import { FileServerKey, PostgresServerKey, type ServerKeyTables } from './community/server-key.js';
import { PostgresDatabase } from './storage/postgres.js';
import { troubleOf, writeVersionBack, type StoreProbe } from './storage/probe.js';
import { PostgresOverlayStore } from './community/postgres-store.js';
import type { OverlayStore } from './community/store.js';
import { POSTGRES_SCHEMAS } from './databases.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';

export interface Storage {
  /** The database of DATABASE_URL, migrated; null without it. */
  postgres: PostgresDatabase | null;
  /** With DATABASE_URL the overlay store in its `overlay` schema, opened (what reads need copied into memory); null: OVERLAY_DB's. The community closes it. */
  overlay: OverlayStore | null;
  /**
   * Where the accounts core (accounts, passkeys, sessions, challenges, recovery links) is kept: that
   * database once ACCOUNTS_STORE says it moved, else null (ACCOUNTS_DB). A test may assemble an app with it.
   */
  accounts: PostgresDatabase | null;
  /**
   * The server key (src/community/server-key.ts): with DATABASE_URL read, or made once, at start; without
   * it read from its file, or the file made, when the app first asks (after the overlay database opened,
   * so that a start failing before, an import say, leaves no key file behind).
   */
  readonly serverKey: Buffer;
  close(): Promise<void>;
}

interface StoreEntry {
  what: string;
  file: 'OVERLAY_DB' | 'ACCOUNTS_DB';
  postgres: boolean;
  /** Kept wherever the accounts core is (their tables reference the accounts and share its transactions): `postgres` is ACCOUNTS_STORE's. */
  withAccounts?: true;
}

/**
 * The accounts core. Its PostgreSQL implementation is built (src/accounts/postgres-store.ts), as are the
 * partners', billing's and OAuth's (src/<folder>/postgres-store.ts), and an app given `storage.accounts`
 * keeps them all there (test/accounts/replicas-http.test.ts: two replicas on one database), but it stays in
 * ACCOUNTS_DB until the account events' subscriptions have a PostgreSQL store too: they reference the OAuth
 * grants (ON DELETE CASCADE), so moving the grants without them would split one account across two
 * databases. Then this and the account events' entry become true (src/storage/README.md).
 */
const ACCOUNTS_STORE: StoreEntry = { what: 'accounts, sessions and passkeys', file: 'ACCOUNTS_DB', postgres: false };

/** What each store keeps, the SQLite file it is in without DATABASE_URL, and whether it is in PostgreSQL with it. */
const STORES: readonly StoreEntry[] = [
  { what: 'the server key', file: 'OVERLAY_DB', postgres: true },
  { what: 'contributions, moderation and the OSM note outbox', file: 'OVERLAY_DB', postgres: true },
  ACCOUNTS_STORE,
  { what: 'partner claims, listings and figures', file: 'ACCOUNTS_DB', postgres: ACCOUNTS_STORE.postgres, withAccounts: true },
  { what: 'OAuth clients and grants', file: 'ACCOUNTS_DB', postgres: ACCOUNTS_STORE.postgres, withAccounts: true },
  { what: 'account events', file: 'ACCOUNTS_DB', postgres: false },
  { what: 'billing', file: 'ACCOUNTS_DB', postgres: ACCOUNTS_STORE.postgres, withAccounts: true },
];

/** Whether the store is in PostgreSQL when the accounts core is (`accounts`) or is not. */
function inPostgres(store: StoreEntry, accounts: boolean): boolean {
  return store === ACCOUNTS_STORE || store.withAccounts === true ? accounts : store.postgres;
}

/** What DATABASE_URL keeps when the accounts core is (`accounts`) or is not there. */
function movedStores(accounts: boolean): string[] {
  return STORES.filter((store) => inPostgres(store, accounts)).map((store) => store.what);
}

/** Connects to DATABASE_URL and migrates it when set (rejecting with a message without the password); else the files. */
export async function openStorage(config: Config, log: Logger): Promise<Storage> {
  if (config.database === null) return fileStorage(config);
  const onIdleError = (message: string) => log.error(`a PostgreSQL connection was lost between queries; the next query opens a new one: ${message}`);
  const postgres = await PostgresDatabase.open(config.database, POSTGRES_SCHEMAS, onIdleError);
  for (const [schema, steps] of postgres.newerLayouts) {
    log.info(`schema ${schema} has layout steps of a newer release (${steps.join(', ')}) that this release still reads: serving it as it is; upgrade this replica too (docs/SCALING.md, "Rolling upgrades")`);
  }
  try {
    const keyFile = new FileServerKey(Community.keyFile(config));
    const fileKey = keyFile.existing();
    const serverKey = await new PostgresServerKey(postgres.schema<ServerKeyTables>('accounts'), fileKey).key();
    if (fileKey !== null && !fileKey.equals(serverKey)) {
      log.error(`${keyFile.path} holds another server key than PostgreSQL's, which another replica put there first: the raters and voters stored in this replica's OVERLAY_DB count as new ones, and its key file is not used`);
    }
    const overlay = await PostgresOverlayStore.open(postgres);
    return { postgres, overlay, accounts: ACCOUNTS_STORE.postgres ? postgres : null, serverKey, close: () => postgres.close() };
  } catch (error) {
    await postgres.close();
    throw new Error(`cannot read the server key or the overlay from the PostgreSQL database ${postgres.shown}: ${(error as Error).message}`, { cause: error });
  }
}

/** Everything in the SQLite files (the key file made beside OVERLAY_DB when missing). */
export function fileStorage(config: Config): Storage {
  const keyFile = Community.keyFile(config);
  let key: Buffer | null = null;
  return {
    postgres: null,
    overlay: null,
    accounts: null,
    get serverKey() {
      if (key === null) {
        mkdirSync(dirname(keyFile), { recursive: true });
        key = new FileServerKey(keyFile).keySync();
      }
      return key;
    },
    close: async () => {},
  };
}

/**
 * The readiness probes of the write side (src/status): the overlay file, the accounts file, and with
 * DATABASE_URL PostgreSQL, each with what is refused while it cannot take a write (the stores of
 * `storage`: with the accounts in PostgreSQL the file keeps the account events' subscriptions only).
 */
export function storeProbes(storage: Storage, community: Community, accountsDb: Database.Database): StoreProbe[] {
  const overlayFile: StoreProbe = { store: 'overlay database', refused: 'Contributions', trouble: async () => community.writeTrouble() };
  const accounts = storage.accounts !== null;
  const accountsFile = accounts ? 'Account event subscriptions' : 'Sign-ups, sign-ins, business claims, partner payments and app connections';
  const files: StoreProbe[] = [
    // the overlay in PostgreSQL is the database's probe below
    ...(storage.overlay === null ? [overlayFile] : []),
    { store: 'accounts database', refused: accountsFile, trouble: () => troubleOf(() => writeVersionBack(accountsDb)) },
  ];
  const { postgres } = storage;
  if (postgres === null) return files;
  return [...files, { store: `PostgreSQL database ${postgres.shown}`, refused: `Writes of ${movedStores(accounts).join(', ')}`, trouble: () => troubleOf(() => postgres.reachable()) }];
}

/** The start's one line on what DATABASE_URL holds and what is still in which file (null without it). */
export function postgresNote(config: Config): string | null {
  if (config.database === null) return null;
  const moved = movedStores(ACCOUNTS_STORE.postgres);
  const files = { OVERLAY_DB: config.overlayDb, ACCOUNTS_DB: config.accountsDb };
  const left = (['OVERLAY_DB', 'ACCOUNTS_DB'] as const)
    .map((file) => ({ file, what: STORES.filter((store) => !inPostgres(store, ACCOUNTS_STORE.postgres) && store.file === file).map((store) => store.what) }))
    .filter(({ what }) => what.length > 0);
  const kept = `DATABASE_URL is set: ${moved.join(', ')} ${moved.length === 1 ? 'is' : 'are'} kept in PostgreSQL (${config.database.shown})`;
  if (left.length === 0) return `${kept}; OVERLAY_DB and ACCOUNTS_DB are not used`;
  const stay = left.map(({ file, what }) => `${what.join(', ')} in ${file} (${files[file]})`).join('; ');
  return `${kept}; still in SQLite files of this replica, not shared with others: ${stay}`;
}
