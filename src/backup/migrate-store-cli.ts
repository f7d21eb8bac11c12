// npm run migrate-store -- --to postgresql://…: the command around migrate-store.ts (README.md, "Moving to
// PostgreSQL"). main() takes the arguments, environment and output streams (src/cli/command.ts), so the
// tests run it in their own process. No line it writes shows the URL's password.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { loadConfig, ConfigError, postgresUrl } from '../config.js';
import { NewerDatabaseError } from '../storage/migrations.js';
import { storageTrouble } from '../storage/errors.js';
import { commandConsole, parseCommand, processIo, runAsScript, usageFailure, type CommandIo } from '../cli/command.js';
import { MigrateStoreError } from './held-files.js';
import { migrateStore } from './migrate-store.js';
import { POSTGRES_SCHEMAS } from '../databases.js';
import { hidden, type PostgresSchema } from '../storage/postgres.js';

const COMMAND = {
  name: 'migrate-store',
  help: `usage: npm run migrate-store -- --to postgresql://USER:PASSWORD@HOST:5432/DATABASE [--help]
Copies the write side of a stopped server from its SQLite files (OVERLAY_DB, ACCOUNTS_DB and the server
key $OVERLAY_DB.key, as the environment names them) into the empty PostgreSQL database --to names, laid
out for this release, in one transaction, and prints the rows of each table (checked equal on both sides).
Then start the server with DATABASE_URL set to that URL. The SQLite files are left as they were.
Refused: a database that is not empty, files a running server (or npm run moderate) holds, data the
PostgreSQL layout has no place for. The password is never shown.
Exit codes: 0 copied, 1 not copied (the message says why; the database is left empty), 2 wrong arguments.`,
  options: { to: { type: 'string' } },
  positionals: { min: 0, max: 0, what: '' },
} as const;

/** `schemas`: the layout to copy into, this release's (a test may give its own). */
export async function main(argv: string[], io: CommandIo = processIo(), schemas: readonly PostgresSchema[] = POSTGRES_SCHEMAS): Promise<number> {
  const console = commandConsole(io);
  const parsed = parseCommand(COMMAND, argv, console);
  if (typeof parsed === 'number') return parsed;
  let to;
  try {
    to = postgresUrl(parsed.values.to, '--to');
  } catch (error) {
    return usageFailure(COMMAND, (error as Error).message, console);
  }
  if (to === null) return usageFailure(COMMAND, 'name the PostgreSQL database to copy into: --to postgresql://…', console);
  try {
    const work = mkdtempSync(join(tmpdir(), 'toilet-migrate-store-'));
    const { copied, emptyWithoutCounterpart } = await migrateStore(loadConfig(io.env), to, work, schemas);
    for (const table of copied) console.log(`${table.schema}.${table.table}: ${table.rows} rows`);
    console.log('accounts.server_key: the server key');
    for (const table of emptyWithoutCounterpart) console.log(`${table}: empty, and this release keeps no such table in PostgreSQL: nothing to copy`);
    console.log(`copied into ${to.shown}; start the server with DATABASE_URL set to it (OVERLAY_DB and ACCOUNTS_DB are left as they were)`);
    return 0;
  } catch (error) {
    const trouble = storageTrouble(error);
    const said = error instanceof MigrateStoreError || error instanceof ConfigError || error instanceof NewerDatabaseError;
    const message = said ? error.message : trouble !== null ? `cannot copy: ${trouble} (${(error as Error).message}); nothing was copied` : ((error as Error).stack ?? String(error));
    console.error(hidden(message, to.secrets));
    return 1;
  }
}

runAsScript(import.meta.url, main);
