// npm run migrate-store on an install the previous release wrote and its people used (test/upgrade/install.ts:
// an account with a passkey and a session, contributions, moderation, a partner claim, an OAuth grant): the
// server stopped, the command copies the SQLite files into an empty PostgreSQL database (a cluster of the
// test's own), and this release started with DATABASE_URL serves what the files held. The files are byte
// for byte as they were; the URL's password is in no line; a database that is not empty and files a running
// server holds are refused. Without git or the release's commit the install cannot be made: skipped, except
// with CI=true, where it fails (as a missing PostgreSQL does).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { main } from '../../src/backup/migrate-store-cli.js';
import { secretHash } from '../../src/accounts/store.js';
import { keptStream } from '../support/streams.js';
import { REPO_DIR } from '../support/paths.js';
import { noPostgres, postgresProgram, startPostgres, type TestPostgres } from '../support/postgres.js';
import { createInstall, kept, startService, stopService, TOILETS, type Install } from '../upgrade/install.js';
import { buildRelease, findPreviousRelease, type BuiltRelease } from '../upgrade/previous-release.js';
import type { MainProcess } from '../community/support.js';
import { POSTGRES_SCHEMAS } from '../../src/databases.js';
import type { PostgresSchema } from '../../src/storage/postgres.js';

const found = findPreviousRelease();
if ('missing' in found && process.env.CI === 'true') throw new Error(`the migrate-store test cannot make an install: ${found.missing}`);
const skip = noPostgres || ('missing' in found ? found.missing : false);

const PASSWORD = 'm0ve-Secret-pw';

const SCHEMAS: readonly PostgresSchema[] = POSTGRES_SCHEMAS;

/** Runs the command in this process with the install's environment. */
async function migrateStore(env: Record<string, string>, to: string, schemas = SCHEMAS): Promise<{ status: number; out: string; err: string }> {
  const [stdout, stderr] = [keptStream(), keptStream()];
  const status = await main(['--to', to], { env: { ...process.env, ...env }, stdout, stderr }, schemas);
  return { status, out: stdout.text, err: stderr.text };
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('an install of the previous release moved to PostgreSQL with npm run migrate-store', { skip, timeout: 600_000 }, () => {
  let cluster: TestPostgres;
  let release: BuiltRelease;
  let install: Install;
  let files: string[];
  let target: string;
  let moved: MainProcess | undefined;

  before(async () => {
    cluster = await startPostgres();
    release = buildRelease(found as { commit: string; via: string });
    install = await createInstall(release.dir, release.node);
    files = [install.env.OVERLAY_DB, `${install.env.OVERLAY_DB}.key`, install.env.ACCOUNTS_DB];
    await cluster.passwordRole('mover', PASSWORD);
    cluster.psql('CREATE DATABASE toilets OWNER mover');
    target = `postgresql://mover:${PASSWORD}@127.0.0.1:${cluster.port}/toilets`;
  });
  after(async () => {
    if (moved?.child.exitCode === null) await stopService(moved);
    install?.data.remove();
    cluster?.stop();
  });

  test('refused while a server holds the SQLite files; nothing is copied', async () => {
    const running = await startService(REPO_DIR, release.dir, install);
    try {
      const run = await migrateStore(install.env, target);
      assert.equal(run.status, 1, run.out);
      assert.match(run.err, /^OVERLAY_DB \(\S+\) is in use: .*-wal .*Stop the server/);
      assert.equal(cluster.psql("SELECT count(*) FROM pg_namespace WHERE nspname IN ('overlay', 'accounts')", `${cluster.url.replace(/\/postgres$/, '')}/toilets`).trim(), '0');
    } finally {
      await stopService(running);
    }
  });

  test('refused: a database that is not empty, named by what it holds, the password in no line', async () => {
    cluster.psql('CREATE DATABASE other OWNER mover');
    cluster.psql('CREATE TABLE public.notes (id int); INSERT INTO public.notes VALUES (1)', `postgresql://toilet_test@127.0.0.1:${cluster.port}/other`);
    const run = await migrateStore(install.env, target.replace('/toilets', '/other'));
    assert.equal(run.status, 1);
    assert.match(run.err, /^the PostgreSQL database postgresql:\/\/mover:\*\*\*@127\.0\.0\.1:\d+\/other is not empty \(it holds public\.notes\): nothing was copied/);
    assert.ok(!`${run.out}${run.err}`.includes(PASSWORD));
  });

  test('refused: a table the PostgreSQL layout has no place for, named; the database left empty', async () => {
    cluster.psql('CREATE DATABASE partial OWNER mover');
    // this release's layout without its OAuth step (accounts step 6): the install's grant would have nowhere to go
    const withoutOAuth = SCHEMAS.map((schema) => (schema.name === 'accounts' ? { ...schema, steps: schema.steps.filter((step) => step.version < 6) } : schema));
    const run = await migrateStore(install.env, target.replace('/toilets', '/partial'), withoutOAuth);
    assert.equal(run.status, 1, run.out);
    assert.match(run.err, /^nothing was copied: this release keeps no place in PostgreSQL for .*ACCOUNTS_DB table oauth_grants \(1 rows\): schema accounts has no such table/);
    assert.equal(cluster.psql("SELECT count(*) FROM pg_namespace WHERE nspname IN ('overlay', 'accounts', 'cluster')", `${cluster.url.replace(/\/postgres$/, '')}/partial`).trim(), '0', 'as empty as it was');
  });

  test('copies every table and the key, prints the row counts it checked, leaves the files as they were', async () => {
    const before = files.map(sha256);
    const run = await migrateStore(install.env, target);
    assert.equal(run.status, 0, run.err);
    assert.ok(!`${run.out}${run.err}`.includes(PASSWORD), 'the password is in no line');
    for (const file of [files[0], files[2]]) assert.deepEqual(readdirSync(dirname(file)).filter((name) => /-(wal|shm)$/.test(name)), [], `nothing left beside ${file}`);
    const printed = new Map([...run.out.matchAll(/^(\w+)\.(\w+): (\d+) rows$/gm)].map(([, schema, table, rows]) => [`${schema}.${table}`, Number(rows)]));
    for (const [schema, file] of [['overlay', install.env.OVERLAY_DB], ['accounts', install.env.ACCOUNTS_DB]] as const) {
      const db = new Database(file, { readonly: true });
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'layout_readers'").pluck().all() as string[];
      for (const table of tables) {
        const rows = db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
        if (rows > 0) assert.equal(printed.get(`${schema}.${table}`), rows, `${schema}.${table}`);
        if (printed.has(`${schema}.${table}`)) assert.equal(Number(cluster.psql(`SELECT count(*) FROM ${schema}.${table}`, target).trim()), rows, `${schema}.${table} in PostgreSQL`);
      }
      db.close();
    }
    assert.ok((printed.get('overlay.ratings') ?? 0) >= 2 && (printed.get('accounts.partner_claims') ?? 0) === 1 && (printed.get('accounts.oauth_grants') ?? 0) === 1, run.out);
    assert.deepEqual(files.map(sha256), before, 'the SQLite files and the key file are byte for byte as they were');
    const key = cluster.psql("SELECT encode(key, 'hex') FROM accounts.server_key", target).trim();
    assert.equal(key, readFileSync(files[1]).toString('hex'));
  });

  test('this release on DATABASE_URL serves the contributions, the moderation, the claim and the session', async () => {
    // the overlay and its key only in PostgreSQL now: moved aside, so what is served comes from there
    renameSync(files[0], `${files[0]}.moved`);
    renameSync(files[1], `${files[1]}.moved`);
    moved = await startService(REPO_DIR, release.dir, { data: install.data, env: { ...install.env, DATABASE_URL: target } });
    install.site.url = moved.url;
    for (const [id, old] of install.before.toilets) assert.deepEqual(kept(await install.site.client.toilet(id)), kept(old), id);
    assert.equal((await install.site.client.toilet(TOILETS.claimed)).partner.name, 'Café du Casino', 'the approved claim');
    const account = await install.browser.request('GET', '/account');
    assert.deepEqual([account.status, account.json.id], [200, install.account], 'the session still signs in');
    const cookie = (install.browser.cookie ?? '').split('=').slice(1).join('=');
    const hash = secretHash(decodeURIComponent(cookie)).toString('hex');
    assert.equal(cluster.psql(`SELECT count(*) FROM accounts.sessions WHERE token_hash = '\\x${hash}' AND account_id = '${install.account}'`, target).trim(), '1', 'the session in PostgreSQL');
    assert.equal(cluster.psql(`SELECT count(*) FROM accounts.passkeys WHERE account_id = '${install.account}'`, target).trim(), '1');
    assert.equal(cluster.psql(`SELECT status FROM accounts.partner_claims WHERE id = '${install.claim}'`, target).trim(), 'approved');
    assert.equal(cluster.psql(`SELECT moderator FROM accounts.accounts WHERE id = '${install.account}'`, target).trim(), 't', 'a SQLite 1 is a boolean true');

    // the sequences go on after the copied numbers: a new report and change follow the old ones
    const lastChange = Number(cluster.psql('SELECT max(seq) FROM overlay.changes', target).trim());
    const report = await install.site.client.post(`/api/v1/toilets/${TOILETS.rated}/reports`, { kind: 'wrong_hours' }, { ip: '198.51.100.60' });
    assert.equal(report.status, 201, JSON.stringify(report.json));
    assert.equal(cluster.psql('SELECT count(*) FROM overlay.reports', target).trim(), '2');
    assert.ok(Number(cluster.psql('SELECT max(seq) FROM overlay.changes', target).trim()) > lastChange);
  });

  /** What the moved service answers for a toilet, before it stops. */
  const fetchToilet = (id: string) => install.site.client.toilet(id);
  /** Runs a PostgreSQL client program; throws with its output when it fails. */
  const pgProgram = (name: string, args: string[]) => {
    const ran = spawnSync(postgresProgram(name), args, { encoding: 'utf8' });
    assert.equal(ran.status, 0, `${name}: ${ran.stderr}`);
    assert.ok(!`${ran.stdout}${ran.stderr}`.includes(PASSWORD), `${name} shows no password`);
  };

  test('pg_dump of the moved database, restored into a new one: this release serves the same there', async () => {
    const answers = new Map<string, unknown>();
    for (const id of install.before.toilets.keys()) answers.set(id, kept(await fetchToilet(id)));
    await stopService(moved!);
    const file = join(install.data.dir, 'toilets.dump');
    pgProgram('pg_dump', ['--format=custom', `--file=${file}`, target]);
    cluster.psql('CREATE DATABASE restored OWNER mover');
    const restored = target.replace('/toilets', '/restored');
    pgProgram('pg_restore', ['--exit-on-error', '--single-transaction', '--no-owner', `--dbname=${restored}`, file]);
    for (const table of ['overlay.reports', 'overlay.changes', 'overlay.moderation_log', 'accounts.server_key', 'accounts.sessions', 'accounts.passkeys', 'accounts.partner_claims', 'accounts.oauth_grants']) {
      assert.equal(cluster.psql(`SELECT count(*) FROM ${table}`, restored), cluster.psql(`SELECT count(*) FROM ${table}`, target), table);
    }
    moved = await startService(REPO_DIR, release.dir, { data: install.data, env: { ...install.env, DATABASE_URL: restored } });
    install.site.url = moved.url;
    for (const [id, answer] of answers) assert.deepEqual(kept(await install.site.client.toilet(id)), answer, id);
    const account = await install.browser.request('GET', '/account');
    assert.deepEqual([account.status, account.json.id], [200, install.account]);
  });
});
