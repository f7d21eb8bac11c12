// What a backup holds: the databases the service writes itself and keeps across releases, with their key
// files. The source database (TOILETS_DB) is left out on purpose: `npm run import` writes it whole from
// the extract, it holds only public OpenStreetMap data, and it is by far the largest file (hundreds of MB
// at a million toilets); the overlay keys everything by toilet id, which a new import keeps.
import type { Config } from '../config.js';
import type { DatabaseKind } from '../storage/database.js';
import { OVERLAY_DATABASE } from '../community/sqlite-store.js';
import { Community } from '../community/community.js';
import { ACCOUNTS_DATABASE } from '../databases.js';

export interface OwnedDatabase {
  /** Its name in the manifest and in messages. */
  name: 'overlay' | 'accounts';
  /** Its file name in a backup folder. */
  file: string;
  /** The variable that places it, for messages. */
  variable: string;
  path(config: Config): string;
  kind: DatabaseKind;
  /** A service that has run has it; a backup without it is refused. */
  required: boolean;
  /** A secret the data needs (the overlay's pseudonyms and human-check key): copied beside it. */
  key?: { file: string; path(config: Config): string };
}

export const OWNED_DATABASES: readonly OwnedDatabase[] = [
  {
    name: 'overlay',
    file: 'overlay.db',
    variable: 'OVERLAY_DB',
    path: (config) => config.overlayDb,
    kind: OVERLAY_DATABASE,
    required: true,
    key: { file: 'overlay.db.key', path: (config) => Community.keyFile(config) },
  },
  { name: 'accounts', file: 'accounts.db', variable: 'ACCOUNTS_DB', path: (config) => config.accountsDb, kind: ACCOUNTS_DATABASE, required: false },
];

/** Why the source database is not in a backup, as the manifest and the restore say it. */
export const SOURCE_LEFT_OUT = 'the source database (TOILETS_DB) is not in a backup: `npm run import -- <extract>` writes it again (or start with TOILETS_EXTRACT set)';

/** Why a backup made with DATABASE_URL set may hold no key file, as the manifest says it. */
export const KEY_IN_POSTGRESQL = 'the server key: with DATABASE_URL set it is kept in PostgreSQL (schema accounts, table server_key), not in $OVERLAY_DB.key; back that database up with pg_dump';
