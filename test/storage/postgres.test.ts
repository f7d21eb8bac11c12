// The PostgreSQL database of DATABASE_URL (src/storage/postgres.ts) on a real cluster of the test's own:
// replicas that start together apply each layout step once; a schema a newer release wrote is refused and
// left as it was; a failing step keeps nothing; the accounts schema is closed to other roles; and no
// message shows the password, whether the password is wrong or nothing listens.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { PostgresDatabase, type PostgresSchema, type PostgresStep } from '../../src/storage/postgres.js';
import { NewerDatabaseError } from '../../src/storage/migrations.js';
import { POSTGRES_SCHEMAS } from '../../src/databases.js';
import { postgresUrl } from '../../src/config-values.js';
import { claimPort } from '../../src/http/port.js';
import { newerRelease, noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';

const NO_LOG = () => {};
let cluster: TestPostgres;

before(async () => {
  if (!noPostgres) cluster = await startPostgres();
});
after(() => cluster?.stop());

function address(url: string) {
  return postgresUrl(url)!;
}

/** One query's rows as psql prints them (unaligned, one per line). */
function psqlAt(url: string, sql: string): string[] {
  return cluster.psql(sql, url).split('\n').filter(Boolean);
}

/** The names in a schema's record of applied steps. */
function applied(url: string, schema: string): string[] {
  return psqlAt(url, `SELECT name FROM ${schema}.layout_steps ORDER BY name`);
}

/** The names of this release's steps of a schema, as layout_steps records them. */
function stepsOf(schema: string): string[] {
  return POSTGRES_SCHEMAS.find((candidate) => candidate.name === schema)!.steps.map((step) => `${String(step.version).padStart(4, '0')} ${step.name}`);
}

test('three replicas starting together on an empty database apply each step once', { skip: noPostgres }, async () => {
  const url = cluster.database('replicas');
  const opened = await Promise.all([1, 2, 3].map(() => PostgresDatabase.open(address(url), POSTGRES_SCHEMAS, NO_LOG)));
  try {
    assert.deepEqual(applied(url, 'accounts'), ['0001 server key', '0002 accounts, passkeys, sessions, challenges, recovery links', '0003 account event log', '0004 partner claims, partner listings, listing figures', '0005 billing customers, checkouts, subscriptions, handled events', '0006 oauth clients, grants, codes, tokens, consents', '0007 event subscriptions, outbox, relay position']);
    assert.deepEqual(applied(url, 'overlay'), ['0001 contributions, moderation, OSM notes and the change log']);
    const again = await PostgresDatabase.open(address(url), POSTGRES_SCHEMAS, NO_LOG);
    await again.close();
    assert.deepEqual(applied(url, 'accounts'), stepsOf('accounts'), 'a later start applies nothing');
  } finally {
    await Promise.all(opened.map((database) => database.close()));
  }
});

test('a schema with a step this release does not know is refused with what to do, and left as it was', { skip: noPostgres }, async () => {
  const url = cluster.database('newer');
  await (await PostgresDatabase.open(address(url), POSTGRES_SCHEMAS, NO_LOG)).close();
  const later = `${String(stepsOf('accounts').length + 1).padStart(4, '0')} a later release's table`;
  psqlAt(url, `INSERT INTO accounts.layout_steps (name, timestamp) VALUES ('${later.replace("'", "''")}', '2027-01-01T00:00:00.000Z')`);
  await assert.rejects(PostgresDatabase.open(address(url), POSTGRES_SCHEMAS, NO_LOG), (error: Error) => {
    assert.ok(error instanceof NewerDatabaseError, error.message);
    assert.match(error.message, /^cannot use the PostgreSQL database postgresql:\/\/toilet_test@127\.0\.0\.1:\d+\/newer: schema accounts has layout steps this release of the service does not know \(\d{4} a later release's table\): a newer release wrote it\. Run that release again \(upgrade the service\), or restore a dump \(pg_dump\) made before the upgrade$/);
    return true;
  });
  assert.deepEqual(applied(url, 'accounts'), [...stepsOf('accounts'), later]);
});

test("a newer release's step that only adds is read by this release as it is; one after it that older code cannot read is refused", { skip: noPostgres }, async () => {
  const url = cluster.database('rolling');
  const known = POSTGRES_SCHEMAS.find((schema) => schema.name === 'accounts')!.steps.length;
  const step = (n: number) => String(known + n).padStart(4, '0');
  const additive: PostgresStep = { version: known + 1, name: 'sign-in notes', readableBy: known, sql: 'CREATE TABLE sign_in_notes (id int PRIMARY KEY)' };
  await (await PostgresDatabase.open(address(url), newerRelease(additive), NO_LOG)).close();
  const older = await PostgresDatabase.open(address(url), POSTGRES_SCHEMAS, NO_LOG);
  assert.deepEqual([...older.newerLayouts], [['accounts', [`${step(1)} sign-in notes`]]], 'read as it is, and noted for the log');
  await older.close();
  assert.deepEqual(psqlAt(url, 'SELECT oldest, version FROM accounts.layout_readers'), [`${known}|${known + 1}`]);

  const incompatible: PostgresStep = { version: known + 2, name: 'server key kinds', sql: "ALTER TABLE server_key ADD COLUMN kind text NOT NULL DEFAULT 'hmac'" };
  await (await PostgresDatabase.open(address(url), newerRelease(additive, incompatible), NO_LOG)).close();
  for (const [release, unknown] of [[POSTGRES_SCHEMAS, `${step(1)} sign-in notes, ${step(2)} server key kinds`], [newerRelease(additive), `${step(2)} server key kinds`]] as const) {
    await assert.rejects(PostgresDatabase.open(address(url), release, NO_LOG), (error: Error) => {
      assert.ok(error instanceof NewerDatabaseError, error.message);
      assert.match(error.message, new RegExp(`: schema accounts has layout steps this release of the service does not know \\(${unknown}\\): a newer release wrote it\\. Run that release again`));
      return true;
    });
  }
  assert.deepEqual(applied(url, 'accounts').slice(-2), [`${step(1)} sign-in notes`, `${step(2)} server key kinds`], 'left as it was');
});

test('a failing step keeps nothing of the start and names the step', { skip: noPostgres }, async () => {
  const url = cluster.database('failing');
  const schemas: PostgresSchema[] = [{ name: 'trial', steps: [
    { version: 1, name: 'first table', sql: 'CREATE TABLE first (id int PRIMARY KEY)' },
    { version: 2, name: 'broken', sql: 'CREATE TABLE second (id int REFERENCES missing (id))' },
  ] }];
  await assert.rejects(PostgresDatabase.open(address(url), schemas, NO_LOG), /schema trial: step 0002 broken failed, no step of this start was kept: relation "missing" does not exist/);
  assert.deepEqual(applied(url, 'trial'), []);
  assert.deepEqual(psqlAt(url, "SELECT count(*) FROM pg_tables WHERE schemaname = 'trial' AND tablename = 'first'"), ['0']);
});

test('another role of the cluster cannot read the accounts schema (the server key in it)', { skip: noPostgres }, async () => {
  const url = cluster.database('private');
  await (await PostgresDatabase.open(address(url), POSTGRES_SCHEMAS, NO_LOG)).close();
  cluster.psql('CREATE ROLE toilet_dump LOGIN');
  const client = new pg.Client({ connectionString: url.replace('toilet_test@', 'toilet_dump@') });
  await client.connect();
  try {
    await assert.rejects(client.query('SELECT key FROM accounts.server_key'), (error: Error & { code?: string }) => error.code === '42501');
  } finally {
    await client.end();
  }
});

test('a wrong password and a port nothing listens on fail with the URL shown without its password', { skip: noPostgres }, async () => {
  const password = 'Sup3r-secret-pw';
  await cluster.passwordRole('toilet_pw', password);
  cluster.psql('CREATE DATABASE service OWNER toilet_pw');
  const right = `postgresql://toilet_pw:${password}@127.0.0.1:${cluster.port}/service`;
  await (await PostgresDatabase.open(address(right), POSTGRES_SCHEMAS, NO_LOG)).close();
  const wrong = `postgresql://toilet_pw:${password}x@127.0.0.1:${cluster.port}/service`;
  await assert.rejects(PostgresDatabase.open(address(wrong), [], NO_LOG), (error: Error) => {
    assert.equal(error.message, `cannot use the PostgreSQL database postgresql://toilet_pw:***@127.0.0.1:${cluster.port}/service: password authentication failed for user "toilet_pw"`);
    return true;
  });
  const closed = await claimPort('127.0.0.1', 0); // free a moment ago: nothing listens there
  await assert.rejects(PostgresDatabase.open(address(`postgresql://toilet_pw:${password}@127.0.0.1:${closed}/service`), [], NO_LOG), (error: Error) => {
    assert.match(error.message, new RegExp(`^cannot use the PostgreSQL database postgresql://toilet_pw:\\*\\*\\*@127\\.0\\.0\\.1:${closed}/service: connect ECONNREFUSED`));
    assert.ok(!error.message.includes(password));
    return true;
  });
});
