// The dump's own PostgreSQL role (deploy/postgresql/dump-role.sql, docs/PRIVACY.md): on a database the
// service laid out and wrote to (a cluster of the test's own), the role the file grants reads every table
// of the overlay schema, so `npm run dump` with DUMP_DATABASE_URL naming it writes the dump with the
// contributions, and is refused every table of the accounts schema (the accounts, sessions, the server key).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DUMP_FILES } from '../../src/dumps/dump.js';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dump, importedData, serviceClient, TEST_ENV, TEST_START, type Data } from '../community/support.js';
import { serve } from '../support/server.js';
import { REPO_DIR } from '../support/paths.js';
import { noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';

const PASSWORD = 'dump-r0le-pw';
const CONFIRMED = 'n6720523794'; // Monaco

describe('the dump role of deploy/postgresql/dump-role.sql', { skip: noPostgres }, () => {
  let cluster: TestPostgres;
  let data: Data;
  let service: string;
  let dumper: string;
  before(async () => {
    cluster = await startPostgres();
    service = cluster.database('toilets');
    data = await importedData();
    const served = await serve({ db: data.toiletsDb, overlayDb: data.overlayDb, env: { ...TEST_ENV, DATABASE_URL: service }, now: () => Date.parse(TEST_START), openStorage: true, reach: 'socket' });
    try {
      const client = serviceClient(served.origin);
      const confirmed = await client.post(`/api/v1/toilets/${CONFIRMED}/confirmations`, {}, { ip: '198.51.100.7', token: await client.token('198.51.100.7') });
      assert.equal(confirmed.status, 201, JSON.stringify(confirmed.json));
    } finally {
      await served.close();
    }
    await cluster.passwordRole('toilet_dump', PASSWORD);
    cluster.psql(readFileSync(join(REPO_DIR, 'deploy/postgresql/dump-role.sql'), 'utf8'), service);
    dumper = `postgresql://toilet_dump:${PASSWORD}@127.0.0.1:${cluster.port}/toilets`;
  });
  after(() => {
    data?.remove();
    cluster?.stop();
  });

  test('the role is refused every table of the accounts schema', () => {
    for (const table of ['server_key', 'accounts', 'sessions', 'passkeys', 'partner_claims', 'oauth_grants']) {
      assert.throws(() => cluster.psql(`SELECT count(*) FROM accounts.${table}`, dumper), /permission denied for schema accounts/, table);
    }
  });

  test('npm run dump as that role (DUMP_DATABASE_URL) writes the dump with the contributions', async () => {
    const run = await dump(data, { DATABASE_URL: service, DUMP_DATABASE_URL: dumper });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^wrote \d+ toilets to /);
    assert.ok(!`${run.stdout}${run.stderr}`.includes(PASSWORD));
    const connected = cluster.psql("SELECT count(*) FROM pg_stat_activity WHERE usename = 'toilet_dump'", service).trim();
    assert.equal(connected, '0', 'the dump closed its connections');
    const csv = gunzipSync(readFileSync(join(data.dir, 'dumps', DUMP_FILES.csv))).toString('utf8').split('\n');
    const [header, row] = [csv[0].split(','), csv.find((line) => line.startsWith(`${CONFIRMED},`))!.split(',')];
    assert.equal(row[header.indexOf('confirmations')], '1', 'the confirmation, read from the overlay schema as that role');
  });

  test('the dump connects as DUMP_DATABASE_URL: with a wrong password it is refused, the password shown nowhere', async () => {
    const run = await dump(data, { DATABASE_URL: service, DUMP_DATABASE_URL: dumper.replace(PASSWORD, 'wrong-pw') });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /password authentication failed for user "toilet_dump"/);
    assert.ok(!`${run.stdout}${run.stderr}`.includes('wrong-pw'));
  });
});
