// The accounts database's client-bounds step (src/accounts/oauth-client-bounds.ts) on a file the release
// before it wrote: a client registered then, with more and longer redirect URIs than a registration may
// have now and never authorized, keeps working on the upgraded server (authorization, code, tokens), and
// it is not taken for a client nobody authorized within an hour. The file "before" is made with the list
// up to the step, wherever the step stands in it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { OAUTH_CLIENT_BOUNDS_STEP } from '../../src/oauth/client-bounds-step.js';
import { openDatabase } from '../../src/storage/database.js';
import { userVersion } from '../../src/storage/migrations.js';
import { BASE_URL, Clock, importedData } from '../community/support.js';
import { Browser, startAccountsService } from '../accounts/support.js';
import { approve, form, RESOURCE, SCOPE } from '../oauth/support.js';
import { startAuthorization } from '@modelcontextprotocol/client';
import { runNow } from '../../src/storage/steps.js';

const START = Date.parse('2024-06-05T08:00:00Z');
const DAY = 86_400_000;

test('a client the previous release registered keeps working after the client-bounds step', async () => {
  const data = await importedData();
  const clock = new Clock(START);
  const step = ACCOUNTS_MIGRATIONS.findIndex((m) => m.name === OAUTH_CLIENT_BOUNDS_STEP.name);
  assert.ok(step > 0, 'the step is in the accounts list, after the OAuth tables');
  // ten redirect URIs of up to 2,000 characters: what the previous release let a client register
  const uris = Array.from({ length: 10 }, (_, i) => `http://127.0.0.1:9/${'p'.repeat(1900)}${i}`);
  const metadata = { client_id: 'oc_0123456789abcdef0123456789abcdef', client_id_issued_at: (START - 2 * DAY) / 1000, client_name: 'Old Agent', redirect_uris: uris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], scope: SCOPE };
  const path = join(data.dir, 'accounts.db');
  const before = openDatabase(path, { name: 'accounts database', migrations: ACCOUNTS_MIGRATIONS.slice(0, step), ownerOnly: true });
  before.prepare('INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at) VALUES (?, ?, ?, ?, ?)').run(metadata.client_id, 'Old Agent', JSON.stringify(uris), JSON.stringify(metadata), START - 2 * DAY);
  before.close();

  const service = await startAccountsService(data, clock, { ACCOUNTS_DB: path, ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
  try {
    assert.equal(userVersion(service.app.accounts.file.db), ACCOUNTS_MIGRATIONS[ACCOUNTS_MIGRATIONS.length - 1].version);
    await service.app.oauth.cleanUp();
    assert.notEqual(runNow(service.app.oauth.store.tablesIn(null).client(metadata.client_id)), null, 'not deleted as a client nobody authorized within an hour');
    const browser = new Browser(service);
    await browser.signUp('Ada');
    const redirectUri = uris[9];
    const { authorizationUrl, codeVerifier } = await startAuthorization(BASE_URL, {
      metadata: { issuer: BASE_URL, authorization_endpoint: `${BASE_URL}/oauth/authorize`, token_endpoint: `${BASE_URL}/oauth/token`, response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] },
      clientInformation: { client_id: metadata.client_id },
      redirectUrl: redirectUri,
      scope: SCOPE,
      resource: new URL(RESOURCE),
    });
    const back = await approve(browser, authorizationUrl);
    const tokens = await form(service, '/oauth/token', { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: redirectUri, client_id: metadata.client_id, code_verifier: codeVerifier, resource: RESOURCE });
    assert.equal(tokens.status, 200, JSON.stringify(tokens.json));
    assert.ok(tokens.json.refresh_token, 'registered for refresh_token: gets one');
  } finally {
    await service.close();
    data.remove();
  }
});
