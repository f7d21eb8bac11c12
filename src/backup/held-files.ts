// The SQLite files of a stopped server, copied for `npm run migrate-store` without changing them. A process
// that has a file open in WAL mode (the server, `npm run moderate`) holds a shared lock on it for as long
// as it is open, and its -wal is on disk meanwhile. So a file with a -wal or -shm beside it is refused
// (a server has it open, or did not stop cleanly: reading it would fold the log into the file), and the
// copy is made under an exclusive lock (locking_mode EXCLUSIVE and an empty exclusive transaction), which
// SQLite refuses while any other connection has the file open in WAL mode or is reading it in rollback mode,
// and which keeps a server from opening the file until the copy is made. The copy, not
// the file, is then brought to this release's layout (an install of an older release moves too).
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config.js';
import { openDatabase } from '../storage/database.js';
import { OWNED_DATABASES, type OwnedDatabase } from './owned.js';

/** A migration that cannot be done as asked: the message says why and what to do. */
export class MigrateStoreError extends Error {}

export interface HeldCopy {
  owned: OwnedDatabase;
  /** The file copied. */
  from: string;
  /** The copy, opened and migrated to this release's layout (the caller closes it). */
  db: Database.Database;
}

/** Copies every owned database that exists into `dir` (made), each under an exclusive lock; refuses a file in use. */
export function copyStoppedFiles(config: Config, dir: string): HeldCopy[] {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const present = OWNED_DATABASES.filter((owned) => existsSync(owned.path(config)));
  const missing = OWNED_DATABASES.filter((owned) => owned.required && !present.includes(owned));
  if (missing.length > 0) {
    const what = missing.map((owned) => `${owned.variable} (${owned.path(config)})`).join(', ');
    throw new MigrateStoreError(`${what} does not exist: run the command with the environment of the server whose data it moves (the same ${missing.map((owned) => owned.variable).join(', ')})`);
  }
  for (const owned of present) refuseInUse(owned, owned.path(config));
  // every file held until all are copied: a server started meanwhile waits rather than writing between copies
  const held: Database.Database[] = [];
  try {
    for (const owned of present) held.push(holdExclusively(owned, owned.path(config)));
    for (const owned of present) copyFileSync(owned.path(config), copyOf(dir, owned));
  } finally {
    for (const db of held) db.close();
  }
  return present.map((owned) => ({ owned, from: owned.path(config), db: openDatabase(copyOf(dir, owned), { ...owned.kind, ownerOnly: true }) }));
}

function copyOf(dir: string, owned: OwnedDatabase): string {
  return join(dir, `${owned.name}.db`);
}

function refuseInUse(owned: OwnedDatabase, path: string): void {
  const logs = [`${path}-wal`, `${path}-shm`].filter((file) => existsSync(file));
  if (logs.length === 0) return;
  throw new MigrateStoreError(
    `${owned.variable} (${path}) is in use: ${logs.join(' and ')} ${logs.length === 1 ? 'is' : 'are'} beside it, so a server (or npm run moderate) has it open, or the last one did not stop cleanly. ` +
      'Stop the server (systemctl stop toilet-finder) and run this again; if none runs, start it once and stop it (it folds the log into the file)',
  );
}

/** A connection holding `path` exclusively; SQLITE_BUSY means another process has it open. */
function holdExclusively(owned: OwnedDatabase, path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // an empty exclusive transaction takes the lock (in WAL mode, at once; in rollback mode the first read
    // would take only a shared one), and this locking mode keeps it after the transaction until close()
    db.exec('BEGIN EXCLUSIVE; ROLLBACK');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new MigrateStoreError(`${owned.variable} (${path}) is held by another process (a server or npm run moderate): stop it and run this again`);
    }
    throw error;
  }
}
