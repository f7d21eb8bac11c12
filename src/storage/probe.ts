// Whether each store the write side uses can take a write now, for GET /readyz and /status: an operator (or
// a load balancer) learns which store is degraded and why, while the reads go on from memory. Each probe
// proves what a write needs (a committed write to a SQLite file, a query answered by PostgreSQL) and says
// what keeps it from it in the words of errors.ts; any other failure is a fault in the code and is thrown.
import type Database from 'better-sqlite3';
import { storageTrouble } from './errors.js';

export interface StoreProbe {
  /** The store, as messages name it: "accounts database". */
  readonly store: string;
  /** What is refused while it cannot take a write, as a sentence's subject: "Contributions". */
  readonly refused: string;
  /** null when it takes a write now, else what keeps it from it. */
  trouble(): Promise<string | null>;
}

/** What keeps a store from its work, from what its attempt threw; rethrows other errors. */
export async function troubleOf(attempt: () => unknown): Promise<string | null> {
  try {
    await attempt();
    return null;
  } catch (error) {
    const trouble = storageTrouble(error);
    if (trouble === null) throw error;
    return trouble;
  }
}

/**
 * A committed write to a SQLite file without a table of its own: its layout version (user_version) written
 * back unchanged in one immediate transaction, which takes the write lock and writes the header page.
 */
export function writeVersionBack(db: Database.Database): void {
  db.transaction(() => {
    const version = Number(db.pragma('user_version', { simple: true }));
    db.pragma(`user_version = ${version}`);
  }).immediate();
}
