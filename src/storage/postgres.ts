// The PostgreSQL database of DATABASE_URL: one `pg` pool per process, Kysely queries per schema over it,
// and each schema's layout brought up to date when it opens. A schema's steps are Kysely migrations named
// by their zero-padded number; Kysely's Migrator runs the pending ones in one transaction under a session
// advisory lock and reads what was applied only once it holds the lock, so replicas starting together apply
// each step once. A schema holding steps this code does not know was written by a newer release: read as
// it is when those steps only added what this code ignores (each step's `readableBy`, kept per schema in
// `layout_readers`: rolling upgrades, docs/SCALING.md), refused otherwise, as a SQLite file with a higher
// user_version is (migrations.ts). No message this module makes shows the password: the driver's are cut
// before they leave it.
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql, type Migration as KyselyMigration } from 'kysely';
import { checkReadableBy, NewerDatabaseError, neededRelease } from './migrations.js';
import { errorCode } from './errors.js';

/** One step of a schema's layout: SQL run with the schema as the search path, inside the run's transaction. */
export interface PostgresStep {
  /** 1 for the schema's first step, then one more per step, without gaps (collectSteps). */
  version: number;
  name: string;
  sql: string;
  /** The oldest layout version whose code still reads the schema after this step (Migration.readableBy). */
  readableBy?: number;
}

/** A schema of the service's own and the steps of its layout (src/databases.ts lists them). */
export interface PostgresSchema {
  name: string;
  steps: readonly PostgresStep[];
}

/** DATABASE_URL as the configuration reads it (src/config-values.ts, PostgresUrl). */
export interface PostgresAddress {
  url: string;
  shown: string;
  secrets: readonly string[];
}

/** How long a connection attempt may take before the start (or a write) gives up on it. */
const CONNECT_TIMEOUT_MS = 10_000;
/** How soon a listening connection that was lost is opened again. */
const LISTEN_RETRY_MS = 1000;
/** Each schema's record of the steps it had, in the schema itself. */
const STEPS_TABLE = 'layout_steps';
/** Each schema's oldest layout version whose code reads it, and the version it was recorded at (one row; kept by every step this code runs). */
const READERS_TABLE = 'layout_readers';

export class PostgresDatabase {
  private closing: Promise<void> | null = null;
  /** Per schema with steps of a newer release that this one still reads, those steps' names (for the log). */
  readonly newerLayouts = new Map<string, string[]>();

  private constructor(
    private readonly root: Kysely<unknown>,
    private readonly address: PostgresAddress,
  ) {}

  /** The URL as messages show it (password ***). */
  get shown(): string {
    return this.address.shown;
  }

  /**
   * Connects and brings every schema's layout up to date. Rejects with a message that names the database
   * (password hidden) and says what failed; a newer release's schema with a NewerDatabaseError.
   * `onIdleError` hears of a pooled connection lost between queries (the pool replaces it).
   */
  static async open(address: PostgresAddress, schemas: readonly PostgresSchema[], onIdleError: (message: string) => void): Promise<PostgresDatabase> {
    const pool = new pg.Pool({ connectionString: address.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'toilet-finder', types: { getTypeParser: typeParser } });
    pool.on('error', (error) => onIdleError(hidden(messageOf(error), address.secrets)));
    // a connection lost while a query holds it (PostgreSQL shutting down) fails that query, which says so;
    // without a listener of its own the client's 'error' event would end the process
    pool.on('connect', (client) => client.on('error', () => undefined));
    const database = new PostgresDatabase(new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) }), address);
    try {
      await sql`SELECT 1`.execute(database.root);
      for (const schema of schemas) await database.migrate(schema);
      return database;
    } catch (error) {
      await database.close().catch(() => undefined); // the start's own error is the one to tell
      throw database.failure(error);
    }
  }

  /** Queries on the tables of one schema (`Tables`: their rows, as Kysely types them). */
  schema<Tables>(name: string): Kysely<Tables> {
    return (this.root as Kysely<Tables>).withSchema(name);
  }

  /** Answers once the server has answered a query (the readiness probe); rejects with the driver's error when it cannot. */
  async reachable(): Promise<void> {
    await sql`SELECT 1`.execute(this.root);
  }

  /**
   * LISTENs on `channel` on a connection of its own and calls `heard` on each notification, and once each
   * time the connection is (re)made, since notifications sent while it was away are lost: the caller then
   * looks for itself. A lost connection is made again every second until the returned function stops it.
   */
  listen(channel: string, heard: () => void): () => Promise<void> {
    let client: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | null = null;
    const connect = async () => {
      retry = null;
      const next = new pg.Client({ connectionString: this.address.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'toilet-finder listen' });
      let gone = false;
      const lost = () => {
        if (gone) return;
        gone = true;
        if (client === next) client = null;
        next.removeAllListeners('notification');
        void next.end().catch(() => undefined);
        if (!stopped && retry === null) (retry = setTimeout(() => void connect(), LISTEN_RETRY_MS)).unref();
      };
      next.on('error', lost);
      next.on('end', lost);
      next.on('notification', () => heard());
      try {
        await next.connect();
        await next.query(`LISTEN "${channel}"`);
      } catch {
        lost();
        return;
      }
      if (stopped) {
        gone = true;
        return void next.end().catch(() => undefined);
      }
      client = next;
      heard();
    };
    void connect();
    return async () => {
      stopped = true;
      if (retry !== null) clearTimeout(retry);
      const last = client;
      client = null;
      last?.removeAllListeners('end');
      await last?.end().catch(() => undefined);
    };
  }

  /** Ends the pool's connections once the queries under way are done; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= this.root.destroy();
    return this.closing;
  }

  private async migrate(schema: PostgresSchema): Promise<void> {
    const migrations: Record<string, KyselyMigration> = {};
    for (const step of schema.steps) {
      checkReadableBy(step);
      migrations[stepName(step)] = {
        up: async (db) => {
          await sql.raw(`SET LOCAL search_path TO "${schema.name}";\n${step.sql}`).execute(db);
          await recordOldestReader(db, step);
        },
      };
    }
    const migrator = new Migrator({
      db: this.root,
      provider: { getMigrations: async () => migrations },
      migrationTableSchema: schema.name,
      migrationTableName: STEPS_TABLE,
      migrationLockTableName: `${STEPS_TABLE}_lock`,
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error === undefined) return;
    if (/^corrupted migrations/.test(messageOf(error))) return this.newer(schema);
    const failed = results?.find((result) => result.status === 'Error');
    const step = failed === undefined ? '' : `step ${failed.migrationName} failed, no step of this start was kept: `;
    throw Object.assign(new Error(`the layout of schema ${schema.name}: ${step}${messageOf(error)}`, { cause: error }), { code: errorCode(error) });
  }

  /**
   * A schema that had steps this release does not know: noted when they all come after this release's
   * and the schema's oldest reader is this release or an earlier one, else refused.
   */
  private async newer(schema: PostgresSchema): Promise<void> {
    const known = new Set(schema.steps.map(stepName));
    const latest = schema.steps.at(-1)?.version ?? 0;
    const tables = this.root.withSchema(schema.name);
    const rows = (await tables.selectFrom(STEPS_TABLE as never).select(sql<string>`name`.as('name')).execute()) as { name: string }[];
    const applied = rows.map((row) => row.name);
    const unknown = applied.filter((name) => !known.has(name));
    const newest = Math.max(...applied.map((name) => Number.parseInt(name, 10)));
    // recorded at another version (a step run without this record): only the newest step's release reads it
    const reader = await sql<{ oldest: number; version: number }>`SELECT oldest, version FROM ${sql.table(`${schema.name}.${READERS_TABLE}`)}`.execute(this.root).catch(() => ({ rows: [] }));
    const oldest = reader.rows[0]?.version === newest ? reader.rows[0].oldest : newest;
    const inLine = [...known].every((name) => applied.includes(name)) && unknown.every((name) => Number.parseInt(name, 10) > latest);
    if (inLine && oldest <= latest) {
      this.newerLayouts.set(schema.name, unknown);
      return;
    }
    throw new NewerDatabaseError(
      `schema ${schema.name} has layout steps this release of the service does not know (${unknown.join(', ') || 'in another order'})${inLine ? neededRelease(oldest, newest) : ''}: ` +
        'a newer release wrote it. Run that release again (upgrade the service), or restore a dump (pg_dump) made before the upgrade',
    );
  }

  /** Any failure of open(), as the start-failed line shows it: the database named, the password nowhere. */
  private failure(error: unknown): Error {
    const message = `cannot use the PostgreSQL database ${this.shown}: ${hidden(messageOf(error), this.address.secrets)}`;
    if (error instanceof NewerDatabaseError) return new NewerDatabaseError(message);
    return Object.assign(new Error(message), { code: errorCode(error) });
  }
}

/**
 * Keeps the schema's oldest reader after `step`, in the step's transaction (its search path): the later
 * of the one before and the step's own; a schema without the table yet had every step before needed.
 */
async function recordOldestReader(db: Kysely<unknown>, step: PostgresStep): Promise<void> {
  const ownReader = step.readableBy ?? step.version;
  await sql
    .raw(
      `CREATE TABLE IF NOT EXISTS ${READERS_TABLE} (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), oldest integer NOT NULL, version integer NOT NULL);\n` +
        `INSERT INTO ${READERS_TABLE} (oldest, version) VALUES (GREATEST(${ownReader}, ${step.version - 1}), ${step.version}) ON CONFLICT (only_row) DO UPDATE SET ` +
        `oldest = CASE WHEN ${READERS_TABLE}.version = ${step.version - 1} THEN GREATEST(${READERS_TABLE}.oldest, ${ownReader}) ELSE GREATEST(${ownReader}, ${step.version - 1}) END, version = ${step.version}`,
    )
    .execute(db);
}

/** bigint (int8) columns as numbers: the service's are epoch milliseconds and row numbers, far below 2^53. */
function typeParser(oid: number, format?: string): (value: string) => unknown {
  if (oid === pg.types.builtins.INT8) return Number;
  return pg.types.getTypeParser(oid, format as 'text');
}

function stepName(step: PostgresStep): string {
  return `${String(step.version).padStart(4, '0')} ${step.name}`;
}

/** An error's message; a refused connection to a name with several addresses is an AggregateError without one. */
function messageOf(error: unknown): string {
  const { message, errors, code } = error as { message?: string; errors?: unknown[]; code?: string };
  if (message) return message;
  if (Array.isArray(errors) && errors.length > 0) return errors.map(messageOf).join('; ');
  return code ?? String(error);
}

/** `text` with every secret in it replaced by ***. */
export function hidden(text: string, secrets: readonly string[]): string {
  return secrets.reduce((shown, secret) => shown.split(secret).join('***'), text);
}
