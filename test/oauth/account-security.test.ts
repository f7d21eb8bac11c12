// Issue 38's account-side defects of the authorization server, through the real service: approving a
// consent needs a recent passkey (a stolen cookie alone gets no 30-day grant); sign-out everywhere can end
// the connections too and an operator recovery ends them all; what one registration stores is bounded, and
// clients nobody authorized go within an hour and are bounded in number; loopback redirect URIs match any
// port (RFC 8252 section 7.3); refresh tokens go only to clients registered for the refresh_token grant.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BASE_URL, Clock, moderate } from '../community/support.js';
import { accountsSuite, Browser, startAccountsService } from '../accounts/support.js';
import { approve, authorizationRequest, connect, consentToken, fetchFor, form, newAgent, page, REDIRECT_URI, RESOURCE } from './support.js';
import { runNow } from '../../src/storage/steps.js';

const START = Date.parse('2024-06-05T08:00:00Z');
const MINUTE = 60_000;

describe('account security of OAuth (issue 38)', () => {
  const clock = new Clock(START);
  const suite = accountsSuite(clock);
  const works = async (token: string) => (await suite.service.app.oauth.grants.verifyAccess(token, clock.ms)) !== null;
  const refreshes = async (agent: { client: { client_id: string } }, token: string) =>
    (await form(suite.service, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token, client_id: agent.client.client_id })).status === 200;
  const register = (body: unknown, ip = '203.0.113.80') =>
    fetchFor(suite.service, ip)(`${BASE_URL}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  test('approving a consent needs a passkey sign-in from the last 5 minutes: a stolen cookie alone gets no grant', async () => {
    clock.ms = START;
    const browser = new Browser(suite.service);
    await browser.signUp('Ada');
    const agent = await newAgent(suite.service);
    const { authorizationUrl } = await authorizationRequest(agent);
    const early = consentToken((await page(browser, authorizationUrl.href)).text);

    clock.ms += 6 * MINUTE;
    const stale = await page(browser, authorizationUrl.href);
    assert.equal(stale.status, 200);
    assert.doesNotMatch(stale.text, /name="consent"/, 'no consent form for a session whose passkey is older than 5 minutes');
    assert.match(stale.text, /Confirm it is you/);
    assert.match(stale.text, /id="sign-in"/, 'the page offers the passkey');
    const refused = await page(browser, '/oauth/authorize', { consent: early, decision: 'approve' });
    assert.equal(refused.status, 401, refused.text.slice(0, 300));
    assert.equal(refused.headers.get('location'), null, 'no code goes to the client');

    assert.equal((await browser.signIn()).status, 200);
    const back = await approve(browser, authorizationUrl);
    assert.ok(back.searchParams.get('code'), 'after a fresh passkey the consent is approved');
  });

  test('sign-out everywhere ends the connections too when asked (connections=all), and says how many', async () => {
    clock.ms = START;
    const browser = new Browser(suite.service);
    await browser.signUp('Grace');
    const other = new Browser(suite.service);
    for (const [id, passkey] of browser.authenticator.passkeys) other.authenticator.passkeys.set(id, passkey);
    assert.equal((await other.signIn()).status, 200);
    const agent = await newAgent(suite.service);
    const tokens = await connect(browser, agent);

    const sessionsOnly = await browser.request('DELETE', '/account/sessions');
    assert.equal(sessionsOnly.status, 200);
    assert.deepEqual(sessionsOnly.json, { ended: 1, connections_ended: 0 });
    assert.ok(await works(tokens.access_token), 'without connections=all the connections stay');

    const everything = await browser.request('DELETE', '/account/sessions?connections=all');
    assert.equal(everything.status, 200, JSON.stringify(everything.json));
    assert.deepEqual(everything.json, { ended: 0, connections_ended: 1 });
    assert.ok(!await works(tokens.access_token), 'the access token stops at once');
    assert.equal(await refreshes(agent, tokens.refresh_token!), false, 'and the refresh token with it');

    const wrong = await browser.request('DELETE', '/account/sessions?connections=some');
    assert.equal(wrong.status, 400);
    assert.deepEqual(wrong.json.invalid_params.map((p: { name: string }) => p.name), ['connections']);
  });

  test('an operator recovery ends every grant of the account', async () => {
    const owner = new Browser(suite.service);
    clock.ms = Date.now(); // the command runs on the real clock
    const account = await owner.signUp('Linus');
    const agent = await newAgent(suite.service);
    const tokens = await connect(owner, agent);
    const linked = await moderate(suite.data, ['accounts', 'recovery-link', account.id, '--reason', 'lost every passkey', '--json']);
    assert.equal(linked.status, 0, linked.stderr);
    const token = new URL(linked.json.url).hash.slice(1);
    const lost = new Browser(suite.service, '198.51.100.51');
    const options = await lost.request('POST', '/account/passkey-options', { body: { recovery_token: token } });
    const recovered = await lost.request('POST', '/account/recovery', { body: { recovery_token: token, credential: lost.authenticator.register(options.json) } });
    assert.equal(recovered.status, 201, JSON.stringify(recovered.json));
    assert.ok(!await works(tokens.access_token), 'the access token of the grant before the recovery stops');
    assert.equal(await refreshes(agent, tokens.refresh_token!), false, 'its refresh token too');
    clock.ms = START;
  });

  test('a registration stores at most 5 redirect URIs of at most 512 characters; more is the RFC 7591 error', async () => {
    const long = `https://agent.example/${'a'.repeat(512 - 'https://agent.example/'.length + 1)}`;
    for (const [body, why] of [
      [{ redirect_uris: Array.from({ length: 6 }, (_, i) => `https://agent.example/cb${i}`) }, 'six URIs'],
      [{ redirect_uris: [long] }, 'a URI of 513 characters'],
    ] as const) {
      const refused = await register(body);
      assert.equal(refused.status, 400, why);
      const error: any = await refused.json();
      assert.equal(error.error, 'invalid_redirect_uri', why);
      assert.match(error.error_description, /5|512/, why);
    }
    assert.equal((await register({ redirect_uris: Array.from({ length: 5 }, (_, i) => `https://agent.example/${'b'.repeat(480)}${i}`) })).status, 201, 'five URIs of 500 characters');
    const uri = (await register({ redirect_uris: ['https://agent.example/cb'], client_uri: `https://agent.example/${'c'.repeat(600)}` })) as Response;
    assert.equal(uri.status, 400, 'client_uri is bounded as well');
  });

  test('a client nobody authorized within an hour of registering is deleted; an authorized one stays', async () => {
    clock.ms = START;
    const oauth = suite.service.app.oauth;
    const idle = await newAgent(suite.service, 'Idle Agent');
    const used = await newAgent(suite.service, 'Used Agent');
    const browser = new Browser(suite.service);
    await browser.signUp('Hedy');
    const { authorizationUrl } = await authorizationRequest(used);
    await approve(browser, authorizationUrl);
    clock.ms += 59 * MINUTE;
    await oauth.cleanUp();
    assert.notEqual(runNow(oauth.store.tablesIn(null).client(idle.client.client_id)), null, 'kept for an hour');
    clock.ms += 2 * MINUTE;
    await oauth.cleanUp();
    assert.equal(runNow(oauth.store.tablesIn(null).client(idle.client.client_id)), null, 'gone after an hour without an authorization');
    assert.notEqual(runNow(oauth.store.tablesIn(null).client(used.client.client_id)), null, 'an authorized client stays');
    clock.ms = START;
  });

  test('stored never-authorized clients are bounded (OAUTH_PENDING_CLIENTS_MAX): the oldest is evicted first, registration never locks out', async () => {
    clock.ms = START;
    const bounded = await startAccountsService(suite.data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', OAUTH_PENDING_CLIENTS_MAX: '5' });
    try {
      const count = () => bounded.app.accounts.file.db.prepare('SELECT count(*) FROM oauth_clients WHERE authorized_at IS NULL').pluck().get() as number;
      const registerThere = async (ip: string) => {
        const answer = await fetchFor(bounded, ip)(`${BASE_URL}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }) });
        assert.equal(answer.status, 201);
        return ((await answer.json()) as any).client_id as string;
      };
      bounded.app.accounts.file.db.prepare('DELETE FROM oauth_clients WHERE authorized_at IS NULL').run();
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        clock.ms += 1000;
        ids.push(await registerThere(`203.0.113.${90 + i}`));
      }
      assert.equal(count(), 5, 'never more than the bound');
      assert.deepEqual(ids.map((id) => runNow(bounded.app.oauth.store.tablesIn(null).client(id)) !== null), [false, false, false, true, true, true, true, true], 'the oldest went first');
    } finally {
      await bounded.close();
      clock.ms = START;
    }
  });

  test('loopback redirect URIs match any port (RFC 8252 section 7.3); the path and the rest still match exactly', async () => {
    clock.ms = START;
    const agent = await newAgent(suite.service);
    const browser = new Browser(suite.service);
    await browser.signUp('Alan');
    const { authorizationUrl, codeVerifier } = await authorizationRequest(agent);
    const otherPort = new URL(authorizationUrl);
    otherPort.searchParams.set('redirect_uri', 'http://127.0.0.1:54321/callback');
    const back = await approve(browser, otherPort);
    assert.equal(back.origin, 'http://127.0.0.1:54321', 'sent back to the port the native client listens on');
    const exchanged = await form(suite.service, '/oauth/token', { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:54321/callback', client_id: agent.client.client_id, code_verifier: codeVerifier, resource: RESOURCE });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.json));
    for (const uri of ['http://127.0.0.1:54321/other', 'http://localhost:54321/callback', 'http://127.0.0.1:54321/callback?x=1']) {
      const wrong = new URL(authorizationUrl);
      wrong.searchParams.set('redirect_uri', uri);
      const answer = await page(browser, wrong.href);
      assert.equal(answer.status, 400, uri);
      assert.equal(answer.headers.get('location'), null, uri);
    }
    const https = (await (await register({ redirect_uris: ['https://agent.example:8443/cb'] })).json()) as any;
    const httpsRequest = new URL(authorizationUrl);
    httpsRequest.searchParams.set('client_id', https.client_id);
    httpsRequest.searchParams.set('redirect_uri', 'https://agent.example:9443/cb');
    assert.equal((await page(browser, httpsRequest.href)).status, 400, 'an https port is matched exactly');
  });

  test('refresh tokens go only to clients registered for the refresh_token grant', async () => {
    clock.ms = START;
    const browser = new Browser(suite.service);
    await browser.signUp('Barbara');
    const registered = (await (await register({ redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code'] })).json()) as any;
    assert.deepEqual(registered.grant_types, ['authorization_code']);
    const agent = await newAgent(suite.service);
    const { authorizationUrl, codeVerifier } = await authorizationRequest({ ...agent, client: registered });
    const code = (await approve(browser, authorizationUrl)).searchParams.get('code')!;
    const tokens = await form(suite.service, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: registered.client_id, code_verifier: codeVerifier, resource: RESOURCE });
    assert.equal(tokens.status, 200);
    assert.equal(tokens.json.refresh_token, undefined, 'no refresh token for a client without the refresh_token grant');
    assert.ok(await works(tokens.json.access_token));
    const both = await connect(browser, agent);
    assert.ok(both.refresh_token, 'a client registered for it gets one');
  });
});
