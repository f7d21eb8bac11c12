// The operator's account commands (`npm run moderate -- moderators …`, `accounts recovery-link …`) run
// in-process on the databases of a running server: the role with its shorter sessions, its withdrawal
// ending the sessions, recovery links that work once for 15 minutes, every action in the moderation log
// without the person's name or address.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { describe, test } from 'node:test';
import { Clock, moderate } from '../community/support.js';
import { accountsSuite, Browser } from './support.js';

const START = '2024-06-05T08:00:00Z';
const HOUR = 3_600_000;

describe('moderators and recovery links', () => {
  const clock = new Clock(Date.parse(START));
  const suite = accountsSuite(clock);

  test('moderators add, list, remove: the role shortens sessions, its withdrawal ends them; all logged', async () => {
    clock.set(START);
    const ada = new Browser(suite.service);
    const account = await ada.signUp('Ada', 'ada@example.org');
    assert.equal((await moderate(suite.data, ['moderators', 'add', account.id])).status, 2, 'a reason is required');
    const added = await moderate(suite.data, ['moderators', 'add', account.id, '--reason', 'runs the Monaco queue']);
    assert.equal(added.status, 0, added.stderr);
    assert.equal((await ada.request('GET', '/account')).json.moderator, true);
    const list = await moderate(suite.data, ['moderators', 'list', '--json']);
    assert.deepEqual(list.json.map((m: { id: string }) => m.id), [account.id]);

    clock.ms += 13 * HOUR;
    assert.equal((await ada.request('GET', '/account')).status, 401, 'a moderator session ends after 12 hours idle');
    assert.equal((await ada.signIn()).status, 200);
    const removed = await moderate(suite.data, ['moderators', 'remove', account.id, '--reason', 'stepped down']);
    assert.equal(removed.status, 0, removed.stderr);
    assert.match(removed.stdout, /1 session ended/);
    assert.equal((await ada.request('GET', '/account')).status, 401, 'withdrawing the role ends the sessions');
    assert.equal((await moderate(suite.data, ['moderators', 'remove', account.id, '--reason', 'again'])).status, 1);

    const log = await moderate(suite.data, ['log', '--json']);
    assert.deepEqual(log.json.slice(0, 2).map((e: { action: string; target: string }) => [e.action, e.target]), [['withdraw_moderator', account.id], ['grant_moderator', account.id]]);
    assert.equal(JSON.stringify(log.json).includes('ada@example.org'), false);
    assert.equal(JSON.stringify(log.json).includes('Ada'), false);
    clock.set(START);
  });

  test('a recovery link registers a new passkey once, within 15 minutes, and ends the old sessions', async () => {
    clock.set(START);
    const owner = new Browser(suite.service);
    const account = await owner.signUp('Grace');
    const linked = await moderate(suite.data, ['accounts', 'recovery-link', account.id, '--reason', 'lost phone, identity checked by mail', '--json']);
    assert.equal(linked.status, 0, linked.stderr);
    const url = new URL(linked.json.url);
    assert.equal(url.origin + url.pathname, 'https://toilets.example.test/account/recover');
    const token = url.hash.slice(1);
    assert.equal(JSON.stringify((await moderate(suite.data, ['log', '--json'])).json).includes(token), false, 'the token is not logged');

    const lost = new Browser(suite.service, '198.51.100.50'); // a new device, no passkey
    const options = await lost.request('POST', '/account/passkey-options', { body: { recovery_token: token } });
    assert.equal(options.status, 200, JSON.stringify(options.json));
    const recovered = await lost.request('POST', '/account/recovery', { body: { recovery_token: token, credential: lost.authenticator.register(options.json) } });
    assert.equal(recovered.status, 201, JSON.stringify(recovered.json));
    assert.equal(recovered.json.id, account.id);
    assert.equal((await lost.request('GET', '/account')).json.id, account.id, 'signed in');
    assert.equal((await owner.request('GET', '/account')).status, 401, 'the sessions before the recovery ended');
    assert.equal((await lost.signIn()).status, 200, 'the new passkey signs in');

    const again = await lost.request('POST', '/account/passkey-options', { body: { recovery_token: token } });
    assert.equal(again.status, 400, 'used once');

    clock.ms = Date.now(); // the command runs on the real clock
    const late = await moderate(suite.data, ['accounts', 'recovery-link', account.id, '--reason', 'again', '--json']);
    clock.ms = Date.parse(late.json.expires_at);
    const expired = await lost.request('POST', '/account/passkey-options', { body: { recovery_token: new URL(late.json.url).hash.slice(1) } });
    assert.equal(expired.status, 400, 'expired after 15 minutes');
    clock.set(START);
  });

  test('the account commands take account ids only: an e-mail address nobody verified names nobody', async () => {
    clock.set(START);
    const squatter = new Browser(suite.service);
    const first = await squatter.signUp('Not the operator', 'operator@example.org');
    for (const args of [['moderators', 'add', 'operator@example.org'], ['moderators', 'remove', 'operator@example.org'], ['accounts', 'recovery-link', 'operator@example.org']]) {
      const refused = await moderate(suite.data, [...args, '--reason', 'meant the operator']);
      assert.equal(refused.status, 2, `${args.join(' ')}: ${refused.stdout}`);
      assert.match(refused.stderr, /acc_/, 'the message asks for the account id');
      assert.match(refused.stderr, /account page/, 'and says where its owner finds it');
    }
    assert.equal((await squatter.request('GET', '/account')).json.moderator, false, 'the account that typed the address is no moderator');
    assert.match((await moderate(suite.data, ['--help'])).stdout, /acc_… id only/);
    assert.equal((await moderate(suite.data, ['moderators', 'add', first.id, '--reason', 'by id'])).status, 0);
  });

  test('an account command refused by a locked accounts database says so, and changes nothing', async () => {
    clock.set(START);
    const account = await new Browser(suite.service).signUp('Grace', 'grace@example.org');
    // another process holding the file's write lock past the command's busy timeout
    const holder = new Database(suite.service.app.config.accountsDb);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const refused = await moderate(suite.data, ['moderators', 'add', account.id, '--reason', 'runs the queue']);
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /^the accounts database cannot be changed now: .*; nothing was changed, run the command again once that is mended\n$/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const list = await moderate(suite.data, ['moderators', 'list', '--json']);
    assert.equal(list.json.some((m: { id: string }) => m.id === account.id), false, 'the refused grant was not made');
  });
});
