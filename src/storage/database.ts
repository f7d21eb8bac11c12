// Opens a database of the service's own (the overlay, the accounts database): the one place that sets
// how they are kept and brings their layout up to date. WAL with synchronous=FULL makes a commit durable
// (fsync of the log) before the call returns, so a write acknowledged to a client survives a crash; a
// busy timeout lets the server and the operator's commands share a file; foreign keys are enforced. The
// source database is not opened here: the importer replaces it whole (src/source/schema.ts).
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { errorCode } from './errors.js';
import { migrate, NewerDatabaseError, type Migration } from './migrations.js';

export interface DatabaseKind {
  /** What the file holds, as messages name it: "overlay database". */
  name: string;
  /** Its layout, step by step (migrations.ts). */
  migrations: readonly Migration[];
  /** Personal or secret data: the file and its -wal and -shm are readable and writable by the owner only (0600). */
  ownerOnly?: boolean;
}

/** How long a write waits for another process's transaction (the moderation command's, say) to end. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * The database at `path` (made, with its folder, when missing), migrated to the code's layout. A failure
 * names the file and keeps the cause's error code (errors.ts); one from a newer release is a
 * NewerDatabaseError whose message says what to do.
 */
export function openDatabase(path: string, kind: DatabaseKind): Database.Database {
  let db: Database.Database | null = null;
  try {
    mkdirSync(dirname(path), { recursive: true });
    if (kind.ownerOnly) restrictToOwner(path);
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
    migrate(db, kind.migrations);
    return db;
  } catch (error) {
    db?.close();
    const message = `cannot open the ${kind.name} ${path}: ${(error as Error).message}`;
    if (error instanceof NewerDatabaseError) throw new NewerDatabaseError(message, { cause: error });
    throw Object.assign(new Error(message, { cause: error }), { code: errorCode(error) });
  }
}

/**
 * Makes the database file owner-only before SQLite opens it (creating it empty when missing). SQLite gives
 * the -wal and -shm files it makes the database file's mode; ones already there are set too.
 */
function restrictToOwner(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}
