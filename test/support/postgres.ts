// A PostgreSQL cluster of the test's own: Debian's `postgresql` binaries, a fresh data folder in a
// temporary directory, listening on loopback only (and on a socket in that folder), stopped and removed at
// the end. PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user (runuser).
// Without the binaries the tests that need it are skipped, except in CI (CI=true), where .ci/run installs
// them and a skip would hide the write side's PostgreSQL path.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { claimPort } from '../../src/http/port.js';
import { POSTGRES_SCHEMAS } from '../../src/databases.js';
import { PostgresDatabase, type PostgresSchema, type PostgresStep } from '../../src/storage/postgres.js';
import { postgresUrl } from '../../src/config-values.js';

/** The newest installed major version's binaries, or null. */
function binariesDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return majors.length === 0 ? null : join(root, majors[0], 'bin');
}

const BIN = binariesDir();
if (BIN === null && process.env.CI === 'true') throw new Error('PostgreSQL is missing: .ci/run installs it (apt-get install postgresql)');

/** The path of a PostgreSQL client program (pg_dump, pg_restore) of the installed binaries. */
export function postgresProgram(name: string): string {
  if (BIN === null) throw new Error(noPostgres as string);
  return join(BIN, name);
}

/** A skip reason for node:test, or false when a cluster can start. */
export const noPostgres: string | false = BIN === null ? 'PostgreSQL is not installed (apt-get install postgresql); CI fails instead of skipping' : false;

export interface TestPostgres {
  /** `postgresql://…` for the superuser `toilet_test` (trust authentication on loopback), database `postgres`. */
  url: string;
  port: number;
  /** Where the cluster's files and socket live; gone after stop(). */
  dir: string;
  /** Runs one SQL text through psql (in `database`, a URL; default `url`) and returns its unaligned, tuples-only output. */
  psql(sql: string, database?: string): string;
  /** A database of its own for one test (`CREATE DATABASE`), as the superuser's URL. */
  database(name: string): string;
  /**
   * A login role that must give `password` over TCP (scram-sha-256; every other role stays trusted); resolves
   * once the server refuses that role a wrong password.
   */
  passwordRole(name: string, password: string): Promise<void>;
  /** Shuts the server down (fast: connections are ended) and keeps its files, as an outage does. */
  pause(): void;
  /** Starts the paused server again on the same port and files. */
  resume(): void;
  /** Stops the cluster (fast shutdown) and removes its folder. */
  stop(): void;
}

const USER = 'toilet_test';
const asRoot = userInfo().uid === 0;

/** Runs a PostgreSQL binary as the user it accepts; throws with its output when it fails. */
function run(binary: string, args: string[]): string {
  const command = asRoot ? ['runuser', ['-u', 'postgres', '--', join(BIN!, binary), ...args]] as const : [join(BIN!, binary), args] as const;
  const done = spawnSync(command[0], [...command[1]], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed (${done.error?.message ?? `exit ${done.status}`}):\n${done.stdout}${done.stderr}`);
  return done.stdout;
}

/**
 * Starts a fresh cluster; call stop() in an after() hook. Tests run it without flushing to disk (fsync,
 * full-page writes and synchronous commit off: nothing here outlives the run); `durable` keeps PostgreSQL's
 * defaults, for a bench that compares its writes with SQLite's synchronous=FULL ones.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<TestPostgres> {
  if (BIN === null) throw new Error(noPostgres as string);
  const dir = mkdtempSync(join(tmpdir(), 'toilet-pg-'));
  if (asRoot) chownSync(dir, Number(run0('id', ['-u', 'postgres'])), Number(run0('id', ['-g', 'postgres'])));
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', USER, '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await claimPort('127.0.0.1', 0);
  const unflushed = options.durable ? '' : ' -c fsync=off -c full_page_writes=off -c synchronous_commit=off';
  const serverOptions = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}${unflushed}`;
  const start = () => run('pg_ctl', ['-D', data, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  start();
  const url = `postgresql://${USER}@127.0.0.1:${port}/postgres`;
  const psql = (sql: string, database = url) => run('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', database, '-c', sql]);
  return {
    url,
    port,
    dir,
    psql,
    database(name) {
      psql(`CREATE DATABASE ${name}`);
      return `postgresql://${USER}@127.0.0.1:${port}/${name}`;
    },
    async passwordRole(name, password) {
      psql(`CREATE ROLE ${name} LOGIN PASSWORD '${password}'`);
      const hba = join(data, 'pg_hba.conf');
      writeFileSync(hba, `host all ${name} 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
      psql('SELECT pg_reload_conf()');
      await refusesWrongPassword(`postgresql://${name}:not-${password}@127.0.0.1:${port}/postgres`);
    },
    pause() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume: start,
    stop() {
      try {
        // a test that failed while the server was paused left it stopped: only the folder is left to remove
        if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The cluster of a test file: started before its first test (unless `noPostgres`), stopped after its last. */
export function fileCluster(): { readonly cluster: TestPostgres } {
  const held: { cluster?: TestPostgres } = {};
  before(async () => {
    if (!noPostgres) held.cluster = await startPostgres();
  });
  after(() => held.cluster?.stop());
  return {
    get cluster() {
      return held.cluster ?? assert.fail('the cluster has not started (PostgreSQL missing?)');
    },
  };
}

/** A plain command as the current user (the ids of `postgres`). */
function run0(command: string, args: string[]): string {
  const done = spawnSync(command, args, { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${done.stderr}`);
  return done.stdout.trim();
}

/** Waits until the reloaded pg_hba.conf is in force: a connection with a wrong password fails (a guard of 200 tries). */
async function refusesWrongPassword(url: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
    } catch (error) {
      if ((error as { code?: string }).code === '28P01') return;
      throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the server still trusts the role after pg_reload_conf()');
}

/** POSTGRES_SCHEMAS as a newer release has them: `steps` after the accounts schema's (rolling upgrades). */
export function newerRelease(...steps: PostgresStep[]): PostgresSchema[] {
  return POSTGRES_SCHEMAS.map((schema) => (schema.name === 'accounts' ? { ...schema, steps: [...schema.steps, ...steps] } : schema));
}

/**
 * A fresh database of `cluster` as one place a store is kept: each open() is one more process over it (its
 * own pool, every schema of this release), `store` makes the store from that pool; close() ends every pool.
 */
export function postgresPlace<Store>(cluster: TestPostgres, name: string, store: (database: PostgresDatabase) => Store): { open(): Promise<Store>; close(): Promise<void> } {
  const address = postgresUrl(cluster.database(name))!;
  const opened: PostgresDatabase[] = [];
  return {
    open: async () => {
      const database = await PostgresDatabase.open(address, POSTGRES_SCHEMAS, () => {});
      opened.push(database);
      return store(database);
    },
    close: async () => {
      await Promise.all(opened.map((database) => database.close()));
    },
  };
}
