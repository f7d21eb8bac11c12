// The accounts' HTTP path once end to end with the accounts core in PostgreSQL (DATABASE_URL, a cluster of
// the test's own; the service is assembled with the accounts in its accounts schema, as it will run once the
// stores that reference the accounts move too: src/stores.ts): sign-up, the session, passkey sign-in on a
// second device, sign-out, sign-out everywhere, an operator's recovery link and the deletion, with the real
// passkey verification. Each ending ends every session derived from what it ends, and the rows are in
// PostgreSQL, none in the ACCOUNTS_DB file.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { secretHash } from '../../src/accounts/store.js';
import { Clock, importedData, type Data, type Service } from '../community/support.js';
import { noPostgres, startPostgres, type TestPostgres } from '../support/postgres.js';
import { Browser, startAccountsService } from './support.js';

const START = '2024-06-05T08:00:00Z';
const MINUTE = 60_000;

describe('accounts over HTTP with the accounts in PostgreSQL', { skip: noPostgres }, () => {
  const clock = new Clock(Date.parse(START));
  let cluster: TestPostgres;
  let databaseUrl: string;
  let data: Data;
  let service: Service;
  before(async () => {
    cluster = await startPostgres();
    databaseUrl = cluster.database('accounts_http');
    data = await importedData();
    service = await startAccountsService(data, clock, { DATABASE_URL: databaseUrl, ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' }, undefined, { accountsInPostgres: true });
  });
  after(async () => {
    await service?.close();
    data?.remove();
    cluster?.stop();
  });

  /** How many rows of `table` the accounts schema holds for the account (SQL run by psql, as the operator would). */
  const rows = (table: string, accountId: string) => Number(cluster.psql(`SELECT count(*) FROM accounts.${table} WHERE ${table === 'accounts' ? 'id' : 'account_id'} = '${accountId}'`, databaseUrl).trim());

  test('sign-up, session, passkey sign-in on a second device, sign-out, sign-out everywhere, deletion', async () => {
    clock.set(START);
    const phone = new Browser(service);
    const account = await phone.signUp('Ada', 'ada@example.org');
    assert.deepEqual([rows('accounts', account.id), rows('passkeys', account.id), rows('sessions', account.id)], [1, 1, 1], 'in PostgreSQL');
    assert.equal(service.app.accounts.file.db.prepare('SELECT count(*) FROM accounts').pluck().get(), 0, 'nothing in the ACCOUNTS_DB file');
    const read = await phone.request('GET', '/account');
    assert.deepEqual([read.status, read.json], [200, account]);

    const laptop = new Browser(service, '198.51.100.8');
    const [credential] = phone.authenticator.passkeys.keys();
    laptop.authenticator.passkeys.set(credential, phone.authenticator.passkeys.get(credential)!);
    const signedIn = await laptop.signIn(credential);
    assert.deepEqual([signedIn.status, signedIn.json], [200, account]);
    assert.equal(rows('sessions', account.id), 2);
    assert.equal(Number(cluster.psql(`SELECT counter FROM accounts.passkeys WHERE account_id = '${account.id}'`, databaseUrl).trim()) > 0, true, 'the counter recorded');

    const laptopCookie = laptop.cookie;
    const out = await laptop.request('DELETE', '/session');
    assert.deepEqual([out.status, out.json], [200, { signed_out: true }]);
    const stale = new Browser(service, '198.51.100.9');
    stale.cookie = laptopCookie;
    assert.equal((await stale.request('GET', '/account')).status, 401, 'a signed-out cookie is refused');
    assert.equal(rows('sessions', account.id), 1);

    assert.equal((await laptop.signIn(credential)).status, 200);
    const everywhere = await phone.request('DELETE', '/account/sessions');
    assert.deepEqual([everywhere.status, everywhere.json], [200, { ended: 1, connections_ended: 0 }]);
    assert.equal((await laptop.request('GET', '/account')).status, 401, 'the other session ended');
    assert.equal((await phone.request('GET', '/account')).status, 200, 'this one stays');

    clock.ms += 6 * MINUTE; // deletion needs a passkey of the last 5 minutes
    assert.equal((await phone.request('DELETE', '/account', { body: {} })).status, 401);
    assert.equal((await laptop.signIn(credential)).status, 200);
    const cookies = [phone.cookie, laptop.cookie];
    const deleted = await laptop.request('DELETE', '/account', { body: {} });
    assert.deepEqual([deleted.status, deleted.json], [200, { deleted: true }]);
    for (const cookie of cookies) {
      stale.cookie = cookie;
      assert.equal((await stale.request('GET', '/account')).status, 401, 'no session outlives its account');
    }
    assert.deepEqual([rows('accounts', account.id), rows('passkeys', account.id), rows('sessions', account.id)], [0, 0, 0]);
    const gone = await laptop.signIn(credential);
    assert.deepEqual([gone.status, gone.json.type.endsWith('/problems/sign-in-failed')], [401, true], "the deleted account's passkey signs in no more");
  });

  test("an operator's recovery link: a new passkey once, every earlier session ended", async () => {
    clock.set(START);
    const owner = new Browser(service);
    const account = await owner.signUp('Grace');
    const token = randomBytes(32).toString('base64url');
    await service.app.accounts.store.insertRecovery(secretHash(token), account.id, clock.ms + 15 * MINUTE);

    const found = new Browser(service, '198.51.100.50');
    const options = await found.request('POST', '/account/passkey-options', { body: { recovery_token: token } });
    assert.equal(options.status, 200, JSON.stringify(options.json));
    const recovered = await found.request('POST', '/account/recovery', { body: { recovery_token: token, name: 'New phone', credential: found.authenticator.register(options.json) } });
    assert.deepEqual([recovered.status, recovered.json.id], [201, account.id]);
    assert.equal((await owner.request('GET', '/account')).status, 401, 'whoever held the lost passkey is signed out');
    assert.equal((await found.request('GET', '/account')).status, 200);
    assert.equal(rows('passkeys', account.id), 2);
    assert.equal(rows('sessions', account.id), 1);
    assert.equal(Number(cluster.psql('SELECT count(*) FROM accounts.recovery_links', databaseUrl).trim()), 0, 'the link is used');
    const again = await found.request('POST', '/account/passkey-options', { body: { recovery_token: token } });
    assert.equal(again.status, 400, 'used once');
    assert.equal((await found.signIn()).status, 200, 'the new passkey signs in');
  });
});
