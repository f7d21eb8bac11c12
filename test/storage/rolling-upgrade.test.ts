// A rolling upgrade on one PostgreSQL database (docs/SCALING.md, "Rolling upgrades"): replicas of this
// release (`main.js` processes) and a newer release's start on the same database, the newer release
// being this code's migration runner with one step more in the accounts schema. A step that only adds
// (readableBy): the running replica goes on serving, and another replica of this release starts on the
// newer layout, saying so once. A step after it that this release cannot read: a replica of this release
// that starts then is refused with a `start failed` line and exit 1; the ones running go on answering.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PostgresDatabase, type PostgresStep } from '../../src/storage/postgres.js';
import { POSTGRES_SCHEMAS } from '../../src/databases.js';
import { postgresUrl } from '../../src/config-values.js';
import { BUILD_DIR, importedData, startMain, TEST_ENV, type Data, type MainProcess } from '../support/server.js';
import { newerRelease, noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';

const NEAREST = '/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=3';
const KNOWN = POSTGRES_SCHEMAS.find((schema) => schema.name === 'accounts')!.steps.length;
const stepName = (version: number, name: string) => `${String(version).padStart(4, '0')} ${name}`;
const ADDITIVE: PostgresStep = { version: KNOWN + 1, name: 'sign-in notes', readableBy: KNOWN, sql: 'CREATE TABLE sign_in_notes (id int PRIMARY KEY)' };
const INCOMPATIBLE: PostgresStep = { version: KNOWN + 2, name: 'server key kinds', sql: "ALTER TABLE server_key ADD COLUMN kind text NOT NULL DEFAULT 'hmac'" };

describe('replicas of this release beside a newer one on one PostgreSQL database', { skip: noPostgres, timeout: 300_000 }, () => {
  let cluster: TestPostgres;
  let url: string;
  let data: Data;
  const running: MainProcess[] = [];

  /** A replica of this release: its own overlay file, the shared database. */
  async function replica(name: string): Promise<MainProcess> {
    const main = await startMain(data, { env: { DATABASE_URL: url, OVERLAY_DB: join(data.dir, `${name}-overlay.db`), ACCOUNTS_DB: join(data.dir, `${name}-accounts.db`) } });
    running.push(main);
    return main;
  }

  /** The newer release's start: its migration on the shared database. */
  async function newerReleaseStarts(...steps: PostgresStep[]): Promise<void> {
    await (await PostgresDatabase.open(postgresUrl(url)!, newerRelease(...steps), () => {})).close();
  }

  async function serves(main: MainProcess): Promise<void> {
    assert.equal((await fetch(main.url + NEAREST)).status, 200);
    assert.equal((await fetch(`${main.url}/readyz`)).status, 200);
  }

  before(async () => {
    cluster = await startPostgres();
    url = cluster.database('rolling');
    data = await importedData('monaco');
  });
  after(async () => {
    for (const main of running.filter((m) => m.child.exitCode === null)) {
      main.child.kill('SIGTERM');
      await once(main.child, 'close');
    }
    cluster?.stop();
    data?.remove();
  });

  test('a newer release adds a step this one still reads: the running replica goes on, another starts on it and says so once', async () => {
    const a = await replica('a');
    await newerReleaseStarts(ADDITIVE);
    await serves(a);
    const b = await replica('b');
    await serves(b);
    const notes = b.startLog().split('\n').filter((line) => line.includes('layout steps of a newer release'));
    assert.deepEqual(notes.map((line) => JSON.parse(line).message), [
      `schema accounts has layout steps of a newer release (${stepName(KNOWN + 1, 'sign-in notes')}) that this release still reads: serving it as it is; upgrade this replica too (docs/SCALING.md, "Rolling upgrades")`,
    ]);
    assert.equal(b.stderr(), '');
  });

  test('a newer release adds a step this one cannot read: a replica of this release starting then is refused, start failed, exit 1', async () => {
    await newerReleaseStarts(ADDITIVE, INCOMPATIBLE);
    const env = { ...process.env, ...TEST_ENV, TOILETS_DB: data.toiletsDb, OVERLAY_DB: join(data.dir, 'c-overlay.db'), ACCOUNTS_DB: join(data.dir, 'c-accounts.db'), DATABASE_URL: url };
    const run = spawnSync(process.execPath, [join(BUILD_DIR, 'src/main.js')], { env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 1, run.stderr);
    const line = run.stderr.split('\n').find((l) => l.includes('start failed'));
    assert.ok(line, run.stderr);
    assert.equal(
      JSON.parse(line).message,
      `start failed: cannot use the PostgreSQL database ${postgresUrl(url)!.shown}: schema accounts has layout steps this release of the service does not know ` +
        `(${stepName(KNOWN + 1, 'sign-in notes')}, ${stepName(KNOWN + 2, 'server key kinds')}): a newer release wrote it. ` +
        'Run that release again (upgrade the service), or restore a dump (pg_dump) made before the upgrade',
    );
    // the replicas that were running read from memory and go on answering (docs/SCALING.md says to stop them first)
    for (const main of running) await serves(main);
  });
});
