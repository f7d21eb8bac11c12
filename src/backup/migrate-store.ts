// npm run migrate-store -- --to postgresql://…: moves a stopped install's write side from its SQLite files
// into an empty PostgreSQL database, for a start with DATABASE_URL. Table-driven from the layouts, so a
// table a later step adds on both engines is copied without editing this: each SQLite schema's file (the
// overlay → schema overlay, the accounts database → schema accounts) is copied table by table into the
// table of the same name, columns by name, each value as the PostgreSQL stores read it (a SQLite 0/1 as a
// boolean, JSON text into jsonb, blobs into bytea), rows in their SQLite order (an identity column
// PostgreSQL numbers itself keeps that order), and each sequence set past the largest number copied (the
// change log's seq too: a replica's change feed goes on from there). A SQLite table or column with no
// counterpart that holds data is refused before anything is written: nothing is dropped silently. All of it
// is one transaction, the server key ($OVERLAY_DB.key) included; the row counts are checked before it
// commits, and a failure leaves the database as empty as it was found.
import pg from 'pg';
import type Database from 'better-sqlite3';
import { readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, PostgresUrl } from '../config.js';
import { Community } from '../community/community.js';
import { POSTGRES_SCHEMAS } from '../databases.js';
import { hidden, PostgresDatabase, type PostgresSchema } from '../storage/postgres.js';
import { copyStoppedFiles, MigrateStoreError, type HeldCopy } from './held-files.js';

/** One table copied: where from, where to, and how many rows (checked equal on both sides). */
export interface CopiedTable {
  schema: string;
  table: string;
  rows: number;
}

export interface MigrateReport {
  copied: CopiedTable[];
  /** SQLite tables left out because they are empty and PostgreSQL has no such table (yet). */
  emptyWithoutCounterpart: string[];
}

/** The tables each engine's migrations keep about themselves: never copied. */
const BOOKKEEPING = new Set(['layout_readers', 'layout_steps', 'layout_steps_lock']);
/** Rows a bind may carry at most (PostgreSQL's limit is 65535 parameters). */
const MAX_PARAMETERS = 30_000;

interface Plan {
  schema: string;
  table: string;
  columns: { name: string; type: string }[];
  source: Database.Database;
  rows: number;
}

/** Copies the files `config` names into `to` laid out as `schemas` (this release's; a test's own); `workDir` is removed after. */
export async function migrateStore(config: Config, to: PostgresUrl, workDir: string, schemas: readonly PostgresSchema[] = POSTGRES_SCHEMAS): Promise<MigrateReport> {
  const copies = copyStoppedFiles(config, join(workDir, 'copies'));
  try {
    const key = serverKey(config);
    await refuseNonEmpty(to);
    const database = await PostgresDatabase.open(to, schemas, () => undefined);
    await database.close();
    try {
      return await copyAll(to, copies, key);
    } catch (error) {
      await dropSchemas(to, schemas).catch(() => undefined); // the database was empty: leave it so, for a second try
      throw error;
    }
  } finally {
    for (const copy of copies) copy.db.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function serverKey(config: Config): Buffer {
  const path = Community.keyFile(config);
  if (!existsSync(path)) {
    throw new MigrateStoreError(`the server key ${path} ($OVERLAY_DB.key) is missing: restore it from the backup it came with (npm run restore); without it every rater and voter would count as new`);
  }
  return readFileSync(path);
}

/** A client on `to`, closed after `work`; its errors' messages have the password cut out. */
async function withClient<T>(to: PostgresUrl, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: to.url, connectionTimeoutMillis: 10_000, application_name: 'toilet-finder migrate-store' });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await work(client);
  } catch (error) {
    if (error instanceof MigrateStoreError) throw error;
    const message = hidden((error as Error).message || String(error), to.secrets);
    throw Object.assign(new Error(`PostgreSQL database ${to.shown}: ${message}`), { code: (error as { code?: string }).code });
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function refuseNonEmpty(to: PostgresUrl): Promise<void> {
  const found = await withClient(to, async (client) => {
    // pg_class, not information_schema: that lists only what this role may use, and a table of another role counts too
    const { rows } = await client.query<{ name: string }>(
      `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
         AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%' ORDER BY 1`,
    );
    return rows.map((row) => row.name);
  });
  if (found.length === 0) return;
  const shown = found.length > 5 ? `${found.slice(0, 5).join(', ')} and ${found.length - 5} more` : found.join(', ');
  throw new MigrateStoreError(`the PostgreSQL database ${to.shown} is not empty (it holds ${shown}): nothing was copied. Name a new, empty database (createdb), or drop this one first if it is a failed earlier attempt`);
}

async function copyAll(to: PostgresUrl, copies: readonly HeldCopy[], key: Buffer): Promise<MigrateReport> {
  return withClient(to, async (client) => {
    const { plans, emptyWithoutCounterpart } = await planCopies(client, copies);
    await client.query('BEGIN');
    for (const plan of plans) await copyTable(client, plan);
    await client.query('INSERT INTO accounts.server_key (id, key) VALUES (1, $1)', [key]);
    for (const plan of plans) await setSequences(client, plan);
    const copied: CopiedTable[] = [];
    for (const plan of plans) copied.push(await checkedCount(client, plan));
    await client.query('COMMIT');
    return { copied, emptyWithoutCounterpart };
  });
}

/** What to copy from every file, with PostgreSQL's column types; refuses data that would have nowhere to go. */
async function planCopies(client: pg.Client, copies: readonly HeldCopy[]): Promise<{ plans: Plan[]; emptyWithoutCounterpart: string[] }> {
  const plans: Plan[] = [];
  const emptyWithoutCounterpart: string[] = [];
  const lost: string[] = [];
  for (const { owned, db } of copies) {
    const schema = owned.name;
    const target = await targetColumns(client, schema);
    for (const table of sqliteTables(db)) {
      const rows = db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
      const columns = target.get(table);
      if (columns === undefined) {
        if (rows > 0) lost.push(`${owned.variable} table ${table} (${rows} rows): schema ${schema} has no such table`);
        else emptyWithoutCounterpart.push(`${owned.variable} table ${table}`);
        continue;
      }
      const names = (db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]);
      for (const name of names.filter((column) => !columns.has(column))) {
        const filled = db.prepare(`SELECT count(*) FROM "${table}" WHERE "${name}" IS NOT NULL`).pluck().get() as number;
        if (filled > 0) lost.push(`${owned.variable} column ${table}.${name} (${filled} values): ${schema}.${table} has no such column`);
      }
      plans.push({ schema, table, source: db, rows, columns: names.filter((name) => columns.has(name)).map((name) => ({ name, type: columns.get(name)! })) });
    }
  }
  if (lost.length > 0) {
    throw new MigrateStoreError(`nothing was copied: this release keeps no place in PostgreSQL for ${lost.join('; ')}. Upgrade to a release whose PostgreSQL layout has it, and run this again`);
  }
  return { plans, emptyWithoutCounterpart };
}

function sqliteTables(db: Database.Database): string[] {
  const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid`).pluck().all() as string[];
  return names.filter((name) => !BOOKKEEPING.has(name));
}

/** Per table of the schema, its columns' data types. */
async function targetColumns(client: pg.Client, schema: string): Promise<Map<string, Map<string, string>>> {
  const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1',
    [schema],
  );
  const tables = new Map<string, Map<string, string>>();
  for (const row of rows.filter((r) => !BOOKKEEPING.has(r.table_name))) {
    if (!tables.has(row.table_name)) tables.set(row.table_name, new Map());
    tables.get(row.table_name)!.set(row.column_name, row.data_type);
  }
  return tables;
}

/** A SQLite value as the PostgreSQL stores read the column: 0/1 as false/true; the rest as it is (JSON text, blobs, numbers). */
function converted(value: unknown, type: string): unknown {
  if (value === null) return null;
  if (type === 'boolean') return value !== 0 && value !== '0';
  return value;
}

async function copyTable(client: pg.Client, plan: Plan): Promise<void> {
  if (plan.columns.length === 0 || plan.rows === 0) return;
  const columns = plan.columns.map((column) => `"${column.name}"`).join(', ');
  const perBatch = Math.max(1, Math.floor(MAX_PARAMETERS / plan.columns.length));
  // rowid order where there is one: PostgreSQL's own identity columns then number the rows in the same order
  const ordered = hasRowid(plan.source, plan.table) ? ' ORDER BY rowid' : '';
  const select = plan.source.prepare(`SELECT ${columns} FROM "${plan.table}"${ordered}`).raw();
  let batch: unknown[][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch.map((_, row) => `(${plan.columns.map((__, column) => `$${row * plan.columns.length + column + 1}`).join(', ')})`).join(', ');
    const parameters = batch.flatMap((row) => row.map((value, column) => converted(value, plan.columns[column].type)));
    await client.query(`INSERT INTO "${plan.schema}"."${plan.table}" (${columns}) OVERRIDING SYSTEM VALUE VALUES ${values}`, parameters);
    batch = [];
  };
  for (const row of select.iterate() as Iterable<unknown[]>) {
    batch.push(row);
    if (batch.length === perBatch) await flush();
  }
  await flush();
}

function hasRowid(db: Database.Database, table: string): boolean {
  try {
    db.prepare(`SELECT rowid FROM "${table}" LIMIT 0`).all();
    return true;
  } catch {
    return false; // a WITHOUT ROWID table
  }
}

/** Every sequence of the table's columns (bigserial, identity) set so the next number follows the largest copied. */
async function setSequences(client: pg.Client, plan: Plan): Promise<void> {
  const { rows } = await client.query<{ column_name: string; sequence: string | null }>(
    `SELECT column_name, pg_get_serial_sequence(format('%I.%I', table_schema, table_name), column_name) AS sequence
     FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2`,
    [plan.schema, plan.table],
  );
  for (const { column_name: column, sequence } of rows) {
    if (sequence === null) continue;
    await client.query(`SELECT setval($1, COALESCE(max("${column}"), 1), max("${column}") IS NOT NULL) FROM "${plan.schema}"."${plan.table}"`, [sequence]);
  }
}

async function checkedCount(client: pg.Client, plan: Plan): Promise<CopiedTable> {
  const { rows } = await client.query<{ count: string }>(`SELECT count(*) AS count FROM "${plan.schema}"."${plan.table}"`);
  const rowsThere = Number(rows[0].count);
  if (rowsThere !== plan.rows) {
    throw new MigrateStoreError(`${plan.schema}.${plan.table} holds ${rowsThere} rows after the copy, the SQLite file ${plan.rows}: nothing was kept; report this as a bug`);
  }
  return { schema: plan.schema, table: plan.table, rows: rowsThere };
}

/** Drops the service's schemas again (only ever called on a database this command found empty). */
async function dropSchemas(to: PostgresUrl, schemas: readonly PostgresSchema[]): Promise<void> {
  await withClient(to, (client) => client.query(`DROP SCHEMA IF EXISTS ${schemas.map((schema) => `"${schema.name}"`).join(', ')} CASCADE`));
}
