// The event subscriptions' store (src/account-events/store.ts) over a real accounts database: the relay's
// place moves with the deliveries it queues, once (a second record from the same place queues nothing), a
// grant's end queues one envelope per subscription of it, and subscriptions go with their grant. The file's
// implementation only: the PostgreSQL one comes with OAuth's tables there (src/account-events/README.md).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { SqliteEventStore } from '../../src/account-events/store.js';
import { ACCOUNTS_DATABASE } from '../../src/databases.js';
import { tempDir } from '../support/extracts.js';

const dir = tempDir('toilet-event-store');
after(() => dir.remove());

const T0 = Date.parse('2024-06-05T08:00:00Z');
const ACCOUNT = 'acc_000000000000000000000001';

test('the relay records from its place once; a grant that ends queues its envelopes; subscriptions go with it', async () => {
  const accounts = new SqliteAccountsStore(join(dir.path, 'accounts.db'), ACCOUNTS_DATABASE);
  try {
    const db = accounts.db;
    db.prepare('INSERT INTO accounts (id, user_handle, display_name, created_at) VALUES (?, ?, ?, ?)').run(ACCOUNT, Buffer.from(ACCOUNT), 'Ada', T0);
    db.prepare("INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at) VALUES ('client', 'Agent', '[]', '{}', ?)").run(T0);
    db.prepare("INSERT INTO oauth_grants (id, account_id, client_id, scope, resource, created_at, last_used_at) VALUES ('og_1', ?, 'client', 'partner', 'https://example.test/mcp/account', ?, ?)").run(ACCOUNT, T0, T0);
    const store = new SqliteEventStore(db);
    const subscription = { id: 'sub_1', grant_id: 'og_1', name: 'partner.profile.updated', arguments: '{}', url: 'https://hooks.example/a', secret: 'whsec_x', refresh_before: T0 + 3_600_000, after_seq: 0, created_at: T0 };
    await store.upsert(subscription);
    await store.upsert({ ...subscription, id: 'sub_2', url: 'https://hooks.example/b' });
    const live = await store.liveOfAccount(ACCOUNT, 'partner.profile.updated', T0, T0 - 3_600_000);
    assert.deepEqual(live.map((s) => s.id).sort(), ['sub_1', 'sub_2']);

    assert.equal(await store.cursor(), null, 'no place before the first record');
    const delivery = { subscription: live[0], webhookId: 'evt_1', body: '{"seq":1}' };
    assert.equal(await store.record([delivery], null, 1, T0), true);
    assert.equal(await store.cursor(), 1);
    assert.equal(await store.record([delivery], null, 1, T0), false, 'recorded already from that place');
    assert.equal((await store.due(T0, 10)).length, 1, 'queued once');

    assert.equal(await store.enqueueForGrant('og_1', 'msg_terminated_1', '{"type":"terminated"}', T0), 2, 'one envelope per subscription');
    assert.deepEqual((await store.due(T0, 10)).map((row) => row.webhook_id), ['evt_1', 'msg_terminated_1', 'msg_terminated_1']);
    db.prepare("DELETE FROM oauth_grants WHERE id = 'og_1'").run();
    assert.equal(await store.countOfGrant('og_1'), 0, 'the subscriptions went with their grant');
    assert.equal((await store.due(T0, 10)).length, 3, 'what was queued is still delivered (its URL and secret are in the row)');
  } finally {
    await accounts.close();
  }
});
