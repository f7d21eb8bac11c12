// events/subscribe and events/unsubscribe on /mcp/account while the accounts file, where the subscriptions
// are kept, is locked by another process (a second connection holding its write lock, as a stuck operator
// command would): each answers the JSON-RPC error the endpoint answers for a store that cannot be reached
// (HTTP 503, Retry-After, code -32000 saying why and when to send again), never an internal error; nothing
// of the refused call is kept, and the same call succeeds once the file is free.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Clock, importedData, type Data, type Service } from '../community/support.js';
import { startAccountsService } from '../accounts/support.js';
import { claimAs } from '../partners/support.js';
import { accountMcp, connect, newAgent } from '../oauth/support.js';
import { Receiver } from '../oauth/receiver.js';
import { STORAGE_RETRY_SECONDS } from '../../src/api/server-hooks.js';

const LOCKED = 'the database is locked by another process';
const EVENT = 'partner.claim.status_changed';

describe('account events with the accounts file locked by another process', () => {
  let data: Data;
  let service: Service;
  let token: string;
  let receiver: Receiver;
  const clock = new Clock(Math.floor(Date.now() / 1000) * 1000);

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', OUTBOUND_ALLOW_PRIVATE: '1' });
    const ada = await claimAs(service, 'n4316767608', 'Ada Cafe', '198.51.100.41');
    token = (await connect(ada.browser, await newAgent(service))).access_token;
    receiver = await new Receiver().start();
  });
  after(async () => {
    receiver.close();
    await service.close();
    data.remove();
  });

  /** The refusal a store that cannot take a write gets on /mcp/account (src/account-mcp/endpoint.ts). */
  const assertUnavailable = (answer: Awaited<ReturnType<typeof accountMcp>>, what: string) => {
    assert.equal(answer.status, 503, `${what}: ${JSON.stringify(answer.json)}`);
    assert.equal(answer.headers.get('retry-after'), String(STORAGE_RETRY_SECONDS), what);
    assert.equal(answer.json.id, 1, what);
    assert.equal(answer.json.error.code, -32000, what);
    assert.ok(answer.json.error.message.includes(LOCKED), answer.json.error.message);
    assert.ok(answer.json.error.message.includes(`${STORAGE_RETRY_SECONDS} seconds`), answer.json.error.message);
    assert.deepEqual(answer.json.error.data, { retry_after_seconds: STORAGE_RETRY_SECONDS }, what);
  };

  test('subscribe and unsubscribe answer 503 with Retry-After and error -32000; both succeed once the file is free', async () => {
    const delivery = { mode: 'webhook', url: receiver.url, secret: `whsec_${randomBytes(32).toString('base64')}` };
    const subscription = { name: EVENT, arguments: {}, delivery, cursor: null };
    const first = await accountMcp(service, token, 'events/subscribe', subscription);
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.match(first.json.result.id, /^sub_/);

    // The relay's polls write to the same file: one meeting the lock would withdraw the extension (events/*
    // answer -32601 until a poll writes again), which is the relay's answer, not this one. Its polls are
    // stopped and its last state kept, so that the calls below meet the lock themselves.
    const { relay } = service.app.accountEvents;
    await relay.close();
    relay.ready = () => true;
    const holder = new Database(service.app.accounts.file.path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      assertUnavailable(await accountMcp(service, token, 'events/subscribe', subscription), 'a refresh');
      assertUnavailable(await accountMcp(service, token, 'events/subscribe', { ...subscription, name: 'partner.profile.updated' }), 'a new subscription');
      assertUnavailable(await accountMcp(service, token, 'events/unsubscribe', { name: EVENT, arguments: {}, delivery: { url: receiver.url } }), 'an unsubscribe');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }

    const subscribed = () => service.app.accounts.file.db.prepare('SELECT name FROM event_subscriptions ORDER BY name').pluck().all();
    assert.deepEqual(subscribed(), [EVENT], 'the subscription made before is kept, the refused one not made');
    const again = await accountMcp(service, token, 'events/unsubscribe', { name: EVENT, arguments: {}, delivery: { url: receiver.url } });
    assert.equal(again.status, 200, JSON.stringify(again.json));
    assert.equal(again.json.error, undefined, JSON.stringify(again.json));
    assert.deepEqual(subscribed(), [], 'the refused unsubscribe, sent again, is done');
  });
});
