// npm start with DATABASE_URL, as an operator meets it: a bad value is refused by the configuration; a database
// that cannot be used (wrong password, nothing listening, a newer release's schema) stops the start with one
// `start failed` line and exit code 1; a good one is said once in the log, with what it keeps and what is
// still in SQLite files. The password appears in no line, whatever happens. Real processes, a real cluster.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig, ConfigError } from '../../src/config.js';
import { claimPort } from '../../src/http/port.js';
import { tempDir } from '../api/support.js';
import { BUILD_DIR, importedData, startMain, TEST_ENV, type Data } from '../community/support.js';
import { noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';

const PASSWORD = 'Very-s3cret-pw';

describe('DATABASE_URL in the configuration', () => {
  const config = (value: string) => loadConfig({ DATABASE_URL: value }).database;

  test('a PostgreSQL URL is taken; messages get it with the password as ***', () => {
    assert.deepEqual(config(`postgresql://svc:${PASSWORD}@db.internal:5432/toilets?sslmode=require`), {
      url: `postgresql://svc:${PASSWORD}@db.internal:5432/toilets?sslmode=require`,
      shown: 'postgresql://svc:***@db.internal:5432/toilets?sslmode=require',
      secrets: [PASSWORD],
    });
    assert.equal(config(`postgres://svc@db/toilets?password=${PASSWORD}`)!.shown, 'postgres://svc@db/toilets?password=***');
    assert.equal(config('postgresql:///toilets?host=/run/postgresql')!.shown, 'postgresql:///toilets?host=/run/postgresql');
    assert.equal(loadConfig({}).database, null);
  });

  test('anything else is refused with what to write, and never with the password', () => {
    const refusals: [string, RegExp][] = [
      [`svc:${PASSWORD}@db/toilets`, /^DATABASE_URL is not a postgresql:\/\/ URL \(its value is not shown: it may hold a password\): use postgresql:\/\/USER:PASSWORD@HOST:5432\/DATABASE$/],
      [`mysql://svc:${PASSWORD}@db/toilets`, /^DATABASE_URL is not a postgresql:\/\/ URL \(its value is not shown/],
      [`db.internal:5432`, /^DATABASE_URL is not a postgresql:\/\/ URL/],
      [`postgresql://svc:${PASSWORD}@db`, /^DATABASE_URL=postgresql:\/\/svc:\*\*\*@db names no database: add it after the host/],
      [`postgresql://svc:${PASSWORD}@/toilets`, /^DATABASE_URL is not a postgresql:\/\/ URL/],
      ['postgresql:/toilets', /^DATABASE_URL=postgresql:\/toilets names no host: use postgresql:\/\/USER:PASSWORD@HOST:5432\/DATABASE \(or \?host=\/run\/postgresql for a socket\)$/],
    ];
    for (const [value, message] of refusals) {
      assert.throws(() => config(value), (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, message);
        assert.ok(!error.message.includes(PASSWORD), error.message);
        return true;
      });
    }
  });
});

describe('npm start with DATABASE_URL', { skip: noPostgres }, () => {
  let cluster: TestPostgres;
  let data: Data;
  let url: string;

  before(async () => {
    cluster = await startPostgres();
    await cluster.passwordRole('toilet_service', PASSWORD);
    cluster.psql('CREATE DATABASE toilets OWNER toilet_service');
    url = `postgresql://toilet_service:${PASSWORD}@127.0.0.1:${cluster.port}/toilets`;
    data = await importedData('monaco');
  });
  after(() => {
    cluster?.stop();
    data?.remove();
  });

  /** A start that must fail: its `start failed` message, with both streams checked for the password. */
  function failedStart(databaseUrl: string): string {
    const empty = tempDir('toilet-pg-start');
    try {
      const env = { ...process.env, ...TEST_ENV, TOILETS_DB: join(empty.path, 'toilets.db'), DATABASE_URL: databaseUrl };
      const run = spawnSync(process.execPath, [join(BUILD_DIR, 'src/main.js')], { env, encoding: 'utf8', timeout: 120_000 });
      assert.equal(run.status, 1, run.stderr);
      assert.ok(!`${run.stdout}${run.stderr}`.includes(PASSWORD), 'the password is in no line');
      const line = run.stderr.split('\n').find((l) => l.includes('start failed'));
      assert.ok(line, run.stderr);
      return JSON.parse(line).message;
    } finally {
      empty.remove();
    }
  }

  test('it serves, and says once what PostgreSQL keeps and what is still in this replica\'s files', async () => {
    const server = await startMain(data, { env: { DATABASE_URL: url } });
    try {
      const notes = server.startLog().split('\n').filter((line) => line.includes('DATABASE_URL is set'));
      assert.equal(notes.length, 1, server.startLog());
      const note = JSON.parse(notes[0]).message;
      assert.match(note, new RegExp(`^DATABASE_URL is set: the server key, contributions, moderation and the OSM note outbox are kept in PostgreSQL \\(postgresql://toilet_service:\\*\\*\\*@127\\.0\\.0\\.1:${cluster.port}/toilets\\); still in SQLite files of this replica, not shared with others: accounts, sessions and passkeys, .* in ACCOUNTS_DB \\(`));
      assert.ok(!server.startLog().includes(PASSWORD) && !server.stderr().includes(PASSWORD));
      assert.equal(cluster.psql('SELECT length(key) FROM accounts.server_key', url.replace(`toilet_service:${PASSWORD}`, 'toilet_test')).trim(), '32');
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'close');
    }
  });

  test('a wrong password: start failed without it, exit 1', () => {
    assert.equal(
      failedStart(url.replace(PASSWORD, `${PASSWORD}-wrong`)),
      `start failed: cannot use the PostgreSQL database postgresql://toilet_service:***@127.0.0.1:${cluster.port}/toilets: password authentication failed for user "toilet_service"`,
    );
  });

  test('nothing listening: start failed without the password, exit 1', async () => {
    const closed = await claimPort('127.0.0.1', 0);
    assert.match(failedStart(url.replace(`:${cluster.port}/`, `:${closed}/`)), new RegExp(`^start failed: cannot use the PostgreSQL database postgresql://toilet_service:\\*\\*\\*@127\\.0\\.0\\.1:${closed}/toilets: connect ECONNREFUSED`));
  });

  test('a schema a newer release wrote: start failed with what to do, exit 1, the schema left as it was', () => {
    const admin = url.replace(`toilet_service:${PASSWORD}`, 'toilet_test');
    cluster.psql("INSERT INTO accounts.layout_steps (name, timestamp) VALUES ('0002 from the future', '2027-01-01T00:00:00.000Z')", admin);
    try {
      assert.match(failedStart(url), /^start failed: cannot use the PostgreSQL database postgresql:\/\/toilet_service:\*\*\*@[^ ]+: schema accounts has layout steps this release of the service does not know \(0002 from the future\): a newer release wrote it\./);
      assert.equal(cluster.psql("SELECT count(*) FROM accounts.layout_steps WHERE name = '0002 from the future'", admin).trim(), '1');
    } finally {
      cluster.psql("DELETE FROM accounts.layout_steps WHERE name = '0002 from the future'", admin);
    }
  });
});
