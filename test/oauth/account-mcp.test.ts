// /mcp/account as a resource server: the Bearer token checked on every request against its grant, the
// WWW-Authenticate answers protocol-notes section 3 describes (401 naming the resource metadata and the
// scope; 403 insufficient_scope), wrong audience refused, the legacy era refused, private never-cached
// discovery, the per-IP budget, and revocation taking effect on the next request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runNow } from '../../src/storage/steps.js';
import { secretHash } from '../../src/accounts/store.js';
import { BASE_URL, Clock, importedData, type Data, type Service } from '../community/support.js';
import { Browser, startAccountsService } from '../accounts/support.js';
import { accountClient, accountMcp, connect, form, MODERN, newAgent, page } from './support.js';

const START = Date.parse('2024-06-05T08:00:00Z');
const METADATA = `${BASE_URL}/.well-known/oauth-protected-resource/mcp/account`;

describe('/mcp/account', () => {
  let data: Data;
  let service: Service;
  const clock = new Clock(START);

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_MINUTE: '1000' });
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  const connected = async () => {
    const browser = new Browser(service);
    await browser.signUp('Ada');
    const agent = await newAgent(service);
    return { browser, agent, tokens: await connect(browser, agent) };
  };

  test('no token, a malformed or unknown token: 401 with WWW-Authenticate naming the resource metadata and the scope', async () => {
    for (const authorization of [null, 'Basic abc', 'Bearer', 'Bearer not-a-token']) {
      const answer = await accountMcp(service, null, 'server/discover', {}, authorization === null ? {} : { Authorization: authorization });
      assert.equal(answer.status, 401, String(authorization));
      const challenge = answer.headers.get('www-authenticate')!;
      assert.match(challenge, /^Bearer /);
      assert.match(challenge, new RegExp(`resource_metadata="${METADATA}"`));
      assert.match(challenge, /scope="account:events"/);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.ok(answer.headers.get('ratelimit-policy'), 'the per-IP budget counted it');
    }
  });

  test('a valid token: discovery is private, never cached, modern only; the legacy era is refused', async () => {
    const { tokens } = await connected();
    const discover = await accountMcp(service, tokens.access_token, 'server/discover');
    assert.equal(discover.status, 200, JSON.stringify(discover.json));
    assert.deepEqual(discover.json.result.supportedVersions, [MODERN]);
    assert.equal(discover.json.result.ttlMs, 0);
    assert.equal(discover.json.result.cacheScope, 'private');
    const legacy = await fetch(`${service.url}/mcp/account`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    assert.equal(legacy.status, 400);
    assert.equal(((await legacy.json()) as any).error.code, -32022);

    const client = await accountClient(service, tokens.access_token);
    assert.equal(client.getProtocolEra(), 'modern');
    await client.close();
  });

  test('wrong audience is 401, a token without the scope 403 insufficient_scope', async () => {
    const { tokens } = await connected();
    const store = service.app.oauth.store.tablesIn(null);
    const grant = runNow(store.access(secretHash(tokens.access_token)))!;
    const forge = (token: string, changes: { resource?: string; scope?: string }) => {
      const id = `og_${token}`;
      runNow(store.insertGrant({ ...grant, id, ...changes }));
      runNow(store.insertAccess(secretHash(token), id, clock.ms + 3_600_000));
    };
    forge('for-public-mcp', { resource: `${BASE_URL}/mcp` });
    const wrongAudience = await accountMcp(service, 'for-public-mcp', 'server/discover');
    assert.equal(wrongAudience.status, 401);
    assert.match(wrongAudience.headers.get('www-authenticate')!, /invalid_token/);
    forge('no-scope', { scope: 'other' });
    const noScope = await accountMcp(service, 'no-scope', 'server/discover');
    assert.equal(noScope.status, 403);
    const challenge = noScope.headers.get('www-authenticate')!;
    assert.match(challenge, /error="insufficient_scope"/);
    assert.match(challenge, /scope="account:events"/);
    assert.match(challenge, new RegExp(`resource_metadata="${METADATA}"`));
  });

  test('revocation from the connections page, by the client, and account deletion stop the very next request', async () => {
    const { browser, agent, tokens } = await connected();
    assert.equal((await accountMcp(service, tokens.access_token, 'server/discover')).status, 200);
    const listed = await page(browser, '/oauth/connections');
    const grant = /name="grant" value="(og_[0-9a-f]+)"/.exec(listed.text)![1];
    assert.equal((await page(browser, '/oauth/connections', { grant })).status, 303);
    assert.equal((await accountMcp(service, tokens.access_token, 'server/discover')).status, 401);

    const second = await connect(browser, agent);
    assert.equal((await accountMcp(service, second.access_token, 'server/discover')).status, 200);
    await form(service, '/oauth/revoke', { token: second.refresh_token!, client_id: agent.client.client_id });
    assert.equal((await accountMcp(service, second.access_token, 'server/discover')).status, 401);

    const third = await connect(browser, agent);
    assert.equal((await accountMcp(service, third.access_token, 'server/discover')).status, 200);
    await browser.signIn();
    assert.equal((await browser.request('DELETE', '/account')).status, 200);
    assert.equal((await accountMcp(service, third.access_token, 'server/discover')).status, 401);
  });

  test('the per-IP budget of REST and /mcp applies, token or not', async () => {
    const limited = await startAccountsService(data, clock, { RATE_LIMIT_PER_MINUTE: '2' });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await accountMcp(limited, null, 'server/discover')).status, 401);
      const refused = await accountMcp(limited, null, 'server/discover');
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
    } finally {
      await limited.close();
    }
  });
});
