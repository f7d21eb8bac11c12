// The accounts database's step 9 (src/account-events/outbox-once-step.ts) on a file at layout 8, as the
// release before it wrote it (test/fixtures/accounts-layout-8.sql) with an outbox in it: a copy of a
// delivery is dropped (the first kept), every other row stays, and no relay can queue that delivery again.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { SqliteEventStore } from '../../src/account-events/store.js';
import { OUTBOX_ONCE_STEP } from '../../src/account-events/outbox-once-step.js';
import { ACCOUNTS_DATABASE } from '../../src/databases.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';
import { REPO_DIR } from '../support/paths.js';

const dir = tempDir('toilet-outbox-once');
after(() => dir.remove());
const T0 = Date.parse('2024-06-05T08:00:00Z');

test('the outbox-once step keeps one of each delivery a layout-8 file holds, and every other row', async () => {
  const path = join(dir.path, 'accounts.db');
  const written = new Database(path);
  written.exec(readFileSync(join(REPO_DIR, 'test', 'fixtures', 'accounts-layout-8.sql'), 'utf8'));
  assert.equal(userVersion(written), OUTBOX_ONCE_STEP.version - 1);
  written.prepare("INSERT INTO accounts (id, user_handle, display_name, created_at) VALUES ('acc_1', x'01', 'Ada', ?)").run(T0);
  written.prepare("INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at) VALUES ('client', 'Agent', '[]', '{}', ?)").run(T0);
  written.prepare("INSERT INTO oauth_grants (id, account_id, client_id, scope, resource, created_at, last_used_at) VALUES ('og_1', 'acc_1', 'client', 'partner', 'r', ?, ?)").run(T0, T0);
  written.prepare("INSERT INTO event_subscriptions (id, grant_id, name, arguments, url, secret, refresh_before, after_seq, created_at) VALUES ('sub_1', 'og_1', 'partner.profile.updated', '{}', 'https://hooks.example/a', 'whsec_x', ?, 0, ?)").run(T0 + 3_600_000, T0);
  const outbox = written.prepare("INSERT INTO event_outbox (subscription_id, webhook_id, url, secret, body, attempts, next_attempt_at) VALUES ('sub_1', ?, 'https://hooks.example/a', 'whsec_x', ?, ?, ?)");
  outbox.run('evt_1', '{"first":true}', 2, T0);
  outbox.run('evt_1', '{"copy":true}', 0, T0);
  outbox.run('evt_2', '{}', 0, T0);
  written.prepare('INSERT INTO event_relay (id, last_seq) VALUES (1, 2)').run();
  written.close();

  const accounts = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
  try {
    assert.equal(userVersion(accounts.db), OUTBOX_ONCE_STEP.version);
    const store = new SqliteEventStore(accounts.db);
    const rows = () => store.due(T0, 100).then((due) => due.map((row) => [row.webhook_id, row.body, row.attempts]));
    assert.deepEqual(await rows(), [['evt_1', '{"first":true}', 2], ['evt_2', '{}', 0]]);
    assert.equal(await store.cursor(), 2, "the relay's place is kept");
    const [subscription] = await store.liveOfAccount('acc_1', 'partner.profile.updated', T0, T0 - 3_600_000);
    assert.equal(await store.record([{ subscription, webhookId: 'evt_2', body: '{}' }, { subscription, webhookId: 'evt_3', body: '{}' }], 2, 3, T0), true);
    assert.deepEqual((await rows()).map(([id]) => id), ['evt_1', 'evt_2', 'evt_3'], 'evt_2 is not queued twice');
  } finally {
    await accounts.close();
  }
});
