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
}

/**
 * The accounts core. Its PostgreSQL implementation is built (src/accounts/postgres-store.ts) and tested
 * (test/accounts/stores.test.ts, postgres-http.test.ts), as are the partners', billing's and OAuth's
 * (src/<folder>/postgres-store.ts, test/<folder>/stores.test.ts), but it stays in ACCOUNTS_DB until the
 * account events' store has one too and the app is assembled with them all: their tables reference the
 * accounts (foreign keys, ON DELETE CASCADE) and share its transactions (sign-out everywhere and recovery
 * end the OAuth grants, a claim's change appends to the event log), so moving it alone would split one
 * account across two databases. Then this becomes true together with theirs (src/storage/README.md).
 */
const ACCOUNTS_STORE: StoreEntry = { what: 'accounts, sessions and passkeys', file: 'ACCOUNTS_DB', postgres: false };

/** What each store keeps, the SQLite file it is in without DATABASE_URL, and whether it is in PostgreSQL with it. */
const STORES: readonly StoreEntry[] = [
  { what: 'the server key', file: 'OVERLAY_DB', postgres: true },
  { what: 'contributions, moderation and the OSM note outbox', file: 'OVERLAY_DB', postgres: true },
  ACCOUNTS_STORE,
  { what: 'partner claims, listings and figures', file: 'ACCOUNTS_DB', postgres: false },
  { what: 'OAuth clients and grants', file: 'ACCOUNTS_DB', postgres: false },
  { what: 'account events', file: 'ACCOUNTS_DB', postgres: false },
  { what: 'billing', file: 'ACCOUNTS_DB', postgres: false },
];

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
 * DATABASE_URL PostgreSQL, each with what is refused while it cannot take a write.
 */
export function storeProbes(storage: Storage, community: Community, accountsDb: Database.Database): StoreProbe[] {
  const overlayFile: StoreProbe = { store: 'overlay database', refused: 'Contributions', trouble: async () => community.writeTrouble() };
  const files: StoreProbe[] = [
    // the overlay in PostgreSQL is the database's probe below
    ...(storage.overlay === null ? [overlayFile] : []),
    { store: 'accounts database', refused: 'Sign-ups, sign-ins, business claims, partner payments and app connections', trouble: () => troubleOf(() => writeVersionBack(accountsDb)) },
  ];
  const { postgres } = storage;
  if (postgres === null) return files;
  const moved = STORES.filter((store) => store.postgres).map((store) => store.what);
  return [...files, { store: `PostgreSQL database ${postgres.shown}`, refused: `Writes of ${moved.join(', ')}`, trouble: () => troubleOf(() => postgres.reachable()) }];
}

/** The start's one line on what DATABASE_URL holds and what is still in which file (null without it). */
export function postgresNote(config: Config): string | null {
  if (config.database === null) return null;
  const moved = STORES.filter((store) => store.postgres).map((store) => store.what);
  const files = { OVERLAY_DB: config.overlayDb, ACCOUNTS_DB: config.accountsDb };
  const left = (['OVERLAY_DB', 'ACCOUNTS_DB'] as const)
    .map((file) => ({ file, what: STORES.filter((store) => !store.postgres && store.file === file).map((store) => store.what) }))
    .filter(({ what }) => what.length > 0);
  const kept = `DATABASE_URL is set: ${moved.join(', ')} ${moved.length === 1 ? 'is' : 'are'} kept in PostgreSQL (${config.database.shown})`;
  if (left.length === 0) return `${kept}; OVERLAY_DB and ACCOUNTS_DB are not used`;
  const stay = left.map(({ file, what }) => `${what.join(', ')} in ${file} (${files[file]})`).join('; ');
  return `${kept}; still in SQLite files of this replica, not shared with others: ${stay}`;
}
