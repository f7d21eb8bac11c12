// The layout version of a database of the service's own (overlay, accounts) and the steps that bring it
// up to date. SQLite's `PRAGMA user_version` holds the number of the last step applied (0: none). Each step
// runs in one immediate transaction that also sets the version, so a step that fails leaves the file as it
// was before it, and two processes opening the same file at once (the server and `npm run moderate`) apply
// each step once. A file whose version is higher than the last step this code knows was written by a newer
// release: it is read as it is when every step this code does not know only added what older code ignores
// (each such step says which release still reads the layout: `readableBy`), and refused otherwise, rather
// than read with the wrong layout. README.md says how to add a step.
import type Database from 'better-sqlite3';
import { errorCode } from './errors.js';

export interface Migration {
  /** 1 for the first step, then one more per step, without gaps. */
  version: number;
  /** What the step changes, in a few words; named in the error when it fails. */
  name: string;
  /**
   * The oldest layout version whose code still reads the database after this step: set on a step that only
   * adds what older code does not look at (a table, an index, a column with a default), to the version
   * before it or earlier, so that replicas of the release before keep running during a rolling upgrade
   * (docs/SCALING.md). Without it, only code that knows this step reads the database.
   */
  readableBy?: number;
  /** Changes the layout (and moves data); runs inside the step's transaction. */
  up(db: Database.Database): void;
}

/**
 * Where a file keeps the oldest version that reads it, once a step with `readableBy` ran: one row (that
 * version and the layout version it was recorded at), made by the first such step (a file without it is
 * read only by code that knows its every step), so the layouts that shipped before stay as they were.
 */
const READERS_TABLE = 'layout_readers';

/** A database written by a newer release than this one. */
export class NewerDatabaseError extends Error {}

/** The layout version a list of migrations brings a database to. */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
}

export function userVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the migrations `db` has not had yet, in order, one transaction each. A file from a newer release
 * is left as it is: read when its steps say this code still reads it, else refused (NewerDatabaseError);
 * a failing step's error names the step, says the file stayed at the
 * version before it, and keeps the cause's code (a full disk stays a full disk: errors.ts).
 */
export function migrate(db: Database.Database, migrations: readonly Migration[]): void {
  checkOrder(migrations);
  const latest = latestVersion(migrations);
  const found = userVersion(db);
  if (found > latest) {
    const oldest = oldestReader(db, found);
    if (oldest <= latest) return; // a newer release's layout that only added to what this code reads
    throw new NewerDatabaseError(
      `it has layout version ${found}, newer than this release of the service knows (${latest})${neededRelease(oldest, found)}: a newer release wrote it. ` +
        'Run that release again (upgrade the service), or restore a backup of the file made before the upgrade',
    );
  }
  for (const migration of migrations) {
    if (migration.version <= found) continue;
    const step = db.transaction(() => {
      if (userVersion(db) >= migration.version) return; // another process applied it a moment ago
      const readers = Math.max(oldestReader(db, migration.version - 1), migration.readableBy ?? migration.version);
      migration.up(db);
      recordOldestReader(db, readers, migration.version);
      db.pragma(`user_version = ${migration.version}`);
    });
    try {
      step.immediate();
    } catch (error) {
      const message = `migration ${migration.version} (${migration.name}) failed, the file stays at layout version ${migration.version - 1}: ${(error as Error).message}`;
      throw Object.assign(new Error(message, { cause: error }), { code: errorCode(error) });
    }
  }
}

/** For a refusal's message: the oldest version that reads a newer layout, when it is not the layout's own. */
export function neededRelease(oldest: number, found: number): string {
  return oldest < found ? `, and needs a release that knows layout version ${oldest} or later` : '';
}

function hasReadersTable(db: Database.Database): boolean {
  return db.prepare('SELECT 1 FROM sqlite_schema WHERE type = ? AND name = ?').get('table', READERS_TABLE) !== undefined;
}

/**
 * The oldest layout version whose code reads `db`, at layout version `version`: the one recorded at that
 * version; with none (or one recorded at another version: a step run without this record) the version itself.
 */
function oldestReader(db: Database.Database, version: number): number {
  if (!hasReadersTable(db)) return version;
  const row = db.prepare(`SELECT oldest, version FROM ${READERS_TABLE}`).get() as { oldest: number; version: number } | undefined;
  return row?.version === version ? row.oldest : version;
}

/** Keeps the oldest reader after a step, in the table the first step older code still reads makes. */
function recordOldestReader(db: Database.Database, oldest: number, version: number): void {
  if (oldest === version && !hasReadersTable(db)) return; // every step so far needed: nothing to keep
  db.exec(`CREATE TABLE IF NOT EXISTS ${READERS_TABLE} (oldest INTEGER NOT NULL, version INTEGER NOT NULL)`);
  db.prepare(`DELETE FROM ${READERS_TABLE}`).run();
  db.prepare(`INSERT INTO ${READERS_TABLE} (oldest, version) VALUES (?, ?)`).run(oldest, version);
}

/** A step's `readableBy` names an earlier version (the step's own is the default). */
export function checkReadableBy(step: Pick<Migration, 'version' | 'name' | 'readableBy'>): void {
  const { readableBy } = step;
  if (readableBy !== undefined && !(Number.isInteger(readableBy) && readableBy >= 0 && readableBy < step.version)) {
    throw new Error(`step ${step.version} ("${step.name}") has readableBy ${readableBy}: name an earlier layout version (0 to ${step.version - 1}) that still reads the layout, or leave it out`);
  }
}

/**
 * One database's (or PostgreSQL schema's) steps from the features that keep tables in it, each step with its fixed global number:
 * in order of those numbers, which must be unique and without gaps. A feature's new step takes the next
 * free number of the file; a clash (two features took the same) is said here, when the list is made.
 */
export function collectSteps<Step extends Pick<Migration, 'version' | 'name'>>(database: string, ...lists: readonly (readonly Step[])[]): readonly Step[] {
  const steps = lists.flat().sort((a, b) => a.version - b.version);
  steps.forEach((step, index) => {
    const previous = steps[index - 1];
    if (previous !== undefined && previous.version === step.version) {
      throw new Error(`the ${database} has two steps numbered ${step.version} ("${previous.name}" and "${step.name}"): give the newer one the next free number, ${steps[steps.length - 1].version + 1}`);
    }
    if (step.version !== index + 1) throw new Error(`the ${database} has no step ${index + 1} (the next is ${step.version}, "${step.name}"): step numbers count up from 1 without gaps`);
  });
  return steps;
}

/** A list out of order is a mistake in the code: said at the first open, before any step runs. */
function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`migration "${migration.name}" has version ${migration.version}, expected ${index + 1}: versions count up from 1 without gaps`);
    checkReadableBy(migration);
  });
}
