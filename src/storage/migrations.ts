// The layout version of a database of the service's own (overlay, accounts) and the steps that bring it
// up to date. SQLite's `PRAGMA user_version` holds the number of the last step applied (0: none). Each step
// runs in one immediate transaction that also sets the version, so a step that fails leaves the file as it
// was before it, and two processes opening the same file at once (the server and `npm run moderate`) apply
// each step once. A file whose version is higher than the last step this code knows was written by a newer
// release; it is refused rather than read with the wrong layout. README.md says how to add a step.
import type Database from 'better-sqlite3';
import { errorCode } from './errors.js';

export interface Migration {
  /** 1 for the first step, then one more per step, without gaps. */
  version: number;
  /** What the step changes, in a few words; named in the error when it fails. */
  name: string;
  /** Changes the layout (and moves data); runs inside the step's transaction. */
  up(db: Database.Database): void;
}

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
 * Applies the migrations `db` has not had yet, in order, one transaction each. Throws NewerDatabaseError
 * for a file from a newer release; a failing step's error names the step, says the file stayed at the
 * version before it, and keeps the cause's code (a full disk stays a full disk: errors.ts).
 */
export function migrate(db: Database.Database, migrations: readonly Migration[]): void {
  checkOrder(migrations);
  const latest = latestVersion(migrations);
  const found = userVersion(db);
  if (found > latest) {
    throw new NewerDatabaseError(
      `it has layout version ${found}, newer than this release of the service knows (${latest}): a newer release wrote it. ` +
        'Run that release again (upgrade the service), or restore a backup of the file made before the upgrade',
    );
  }
  for (const migration of migrations) {
    if (migration.version <= found) continue;
    const step = db.transaction(() => {
      if (userVersion(db) >= migration.version) return; // another process applied it a moment ago
      migration.up(db);
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
  });
}
