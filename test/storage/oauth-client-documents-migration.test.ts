// The accounts database's client-documents step (src/oauth/client-documents-step.ts) on a file the
// release before it wrote: a registered client with a grant and its refresh token keeps working (it is a
// registered client: no document time), and a client ID metadata document's client (id: its URL) can then be
// stored, granted, and goes with its account like any other. The file "before" is made with the list up to
// the step, wherever the step stands in it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { secretHash } from '../../src/accounts/store.js';
import { ACCOUNTS_DATABASE, ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { OAUTH_CLIENT_DOCUMENTS_STEP } from '../../src/oauth/client-documents-step.js';
import { Grants } from '../../src/oauth/grants.js';
import { SqliteOAuthStore } from '../../src/oauth/sqlite-store.js';
import { openDatabase } from '../../src/storage/database.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';
import { runNow } from '../../src/storage/steps.js';

const dir = tempDir('toilet-oauth-documents-migration');
after(() => dir.remove());

const ACCOUNT = 'acc_000000000000000000000001';
const DAY = 86_400_000;

test('a registered client of the release before keeps its grant; document clients can be stored after the step', async () => {
  const path = join(dir.path, 'accounts.db');
  const step = ACCOUNTS_MIGRATIONS.findIndex((m) => m.name === OAUTH_CLIENT_DOCUMENTS_STEP.name);
  assert.ok(step > 0, 'the step is in the accounts list, after the OAuth tables');
  const before = openDatabase(path, { name: 'accounts database', migrations: ACCOUNTS_MIGRATIONS.slice(0, step), ownerOnly: true });
  before.prepare('INSERT INTO accounts (id, user_handle, display_name, email, created_at) VALUES (?, ?, ?, NULL, 0)').run(ACCOUNT, Buffer.alloc(32, 1), 'Ada');
  const metadata = { client_id: 'oc_0123456789abcdef0123456789abcdef', client_name: 'Old Agent', redirect_uris: ['http://127.0.0.1:9/cb'], grant_types: ['authorization_code', 'refresh_token'] };
  before.prepare('INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at, authorized_at) VALUES (?, ?, ?, ?, 0, 0)').run(metadata.client_id, 'Old Agent', JSON.stringify(metadata.redirect_uris), JSON.stringify(metadata));
  before.prepare("INSERT INTO oauth_grants (id, account_id, client_id, scope, resource, created_at, last_used_at) VALUES ('og_1', ?, ?, 'account:events', 'https://x/mcp/account', ?, ?)").run(ACCOUNT, metadata.client_id, DAY, DAY);
  before.prepare("INSERT INTO oauth_refresh_tokens (token_hash, grant_id, issued_at) VALUES (?, 'og_1', ?)").run(secretHash('refresh'), DAY);
  before.close();

  const store = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
  try {
    assert.equal(userVersion(store.db), ACCOUNTS_MIGRATIONS[ACCOUNTS_MIGRATIONS.length - 1].version);
    const oauthStore = new SqliteOAuthStore(store.db);
    const oauth = oauthStore.tables;
    assert.equal(runNow(oauth.client(metadata.client_id))?.document_expires_at, null, 'a registered client has no document time');
    const refreshed = await new Grants(oauthStore, { info() {}, error() {} }).refresh({ refreshToken: 'refresh', clientId: metadata.client_id, resource: null }, 2 * DAY);
    assert.ok('access_token' in refreshed && refreshed.refresh_token, JSON.stringify(refreshed));

    const url = 'https://agent.example/oauth/client.json';
    runNow(oauth.insertClient({ id: url, name: 'Doc Agent', redirect_uris: '["http://127.0.0.1:9/cb"]', metadata: JSON.stringify({ client_id: url, grant_types: ['authorization_code'] }), created_at: 2 * DAY, authorized_at: 2 * DAY, document_expires_at: 3 * DAY }));
    runNow(oauth.insertGrant({ id: 'og_2', account_id: ACCOUNT, client_id: url, scope: 'account:events', resource: 'https://x/mcp/account', created_at: 2 * DAY, last_used_at: 2 * DAY }));
    assert.deepEqual(runNow(oauth.connections(ACCOUNT)).map((c) => c.client_id).sort(), [metadata.client_id, url].sort(), 'both on the connections page');
    await store.deleteAccount(ACCOUNT);
    assert.equal(runNow(oauth.grant('og_2')), null, "a document client's grant goes with its account");
  } finally {
    await store.close();
  }
});
