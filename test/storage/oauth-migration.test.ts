// The accounts database's OAuth step (src/accounts/oauth-tables.ts) on a file the code before it wrote:
// accounts, passkeys and sessions are kept, the OAuth tables arrive, and a grant made afterwards goes with
// its account. The file "before" is made with the list up to the step, wherever the step stands in it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { secretHash } from '../../src/accounts/store.js';
import { ACCOUNTS_DATABASE, ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { OAUTH_TABLES_STEP } from '../../src/oauth/tables.js';
import { SqliteOAuthStore } from '../../src/oauth/sqlite-store.js';
import { openDatabase } from '../../src/storage/database.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';
import { runNow } from '../../src/storage/steps.js';

const dir = tempDir('toilet-oauth-migration');
after(() => dir.remove());

test('an accounts database from before the OAuth step keeps its accounts and sessions and gets the OAuth tables', async () => {
  const path = join(dir.path, 'accounts.db');
  const step = ACCOUNTS_MIGRATIONS.findIndex((m) => m.name === OAUTH_TABLES_STEP.name);
  assert.ok(step > 0, 'the OAuth step is in the list, after the accounts');
  const before = openDatabase(path, { name: 'accounts database', migrations: ACCOUNTS_MIGRATIONS.slice(0, step), ownerOnly: true });
  before.prepare("INSERT INTO accounts (id, user_handle, display_name, email, created_at) VALUES ('acc_000000000000000000000001', ?, 'Ada', NULL, 0)").run(Buffer.alloc(32, 1));
  before.prepare("INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at, verified_at) VALUES (?, 'acc_000000000000000000000001', 0, 0, 0)").run(secretHash('cookie'));
  before.close();

  const store = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
  try {
    assert.equal(userVersion(store.db), ACCOUNTS_MIGRATIONS.length);
    assert.equal((await store.account('acc_000000000000000000000001'))?.display_name, 'Ada');
    assert.notEqual(await store.session(secretHash('cookie')), null);
    const tables = store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND (name LIKE 'oauth%' OR name LIKE 'event%') ORDER BY name").pluck().all();
    assert.deepEqual(tables, ['event_outbox', 'event_relay', 'event_subscriptions', 'oauth_access_tokens', 'oauth_clients', 'oauth_codes', 'oauth_consents', 'oauth_grants', 'oauth_refresh_tokens']);

    const oauthStore = new SqliteOAuthStore(store.db);
    const oauth = oauthStore.tables;
    runNow(oauth.insertClient({ id: 'oc_1', name: 'Agent', redirect_uris: '[]', metadata: '{}', created_at: 0, authorized_at: null, document_expires_at: null }));
    runNow(oauth.insertGrant({ id: 'og_1', account_id: 'acc_000000000000000000000001', client_id: 'oc_1', scope: 'account:events', resource: 'https://x/mcp/account', created_at: 0, last_used_at: 0 }));
    runNow(oauth.insertAccess(secretHash('access'), 'og_1', 10));
    assert.notEqual(runNow(oauth.access(secretHash('access'))), null);
    await store.deleteAccount('acc_000000000000000000000001');
    assert.equal(runNow(oauth.grant('og_1')), null, 'a grant goes with its account');
    assert.equal(runNow(oauth.access(secretHash('access'))), null, 'and its tokens with it');
  } finally {
    await store.close();
  }
});
