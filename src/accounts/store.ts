// The accounts database (ACCOUNTS_DB): personal and secret data, in a file of its own so that nothing
// that reads or publishes the open data (the read threads, `npm run dump`) ever opens it, and so that the
// operator can keep it, and its backups, readable by the service's user only. src/accounts/README.md
// lists what it will hold and for how long.
//
// Only the main thread of the server and the operator's commands that need it open it.
import type Database from 'better-sqlite3';
import { openDatabase } from '../storage/database.js';
import type { DatabaseKind } from '../storage/database.js';
import type { Migration } from '../storage/migrations.js';

/** Its layout, step by step (src/storage/README.md). The issues that add accounts add their steps here. */
export const ACCOUNTS_MIGRATIONS: readonly Migration[] = [];

/** How the file is opened: by the server, the commands and a restore (src/backup). */
export const ACCOUNTS_DATABASE: DatabaseKind = { name: 'accounts database', migrations: ACCOUNTS_MIGRATIONS, ownerOnly: true };

export class AccountsStore {
  readonly db: Database.Database;

  constructor(readonly path: string) {
    this.db = openDatabase(path, ACCOUNTS_DATABASE);
  }

  close(): void {
    this.db.close();
  }
}
