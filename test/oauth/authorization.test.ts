// The authorization server through the real service with the official client SDK's OAuth helpers:
// discovery, registration, the code flow with a passkey sign-in and consent, every PKCE, redirect URI,
// code, refresh and revocation rule of issue 34, and the consent page's security (CSRF token, Origin,
// framing, no redirect to an unvalidated URI).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { discoverOAuthProtectedResourceMetadata, exchangeAuthorization, refreshAuthorization } from '@modelcontextprotocol/client';
import { BASE_URL, Clock, importedData, type Data, type Service } from '../community/support.js';
import { Browser, startAccountsService } from '../accounts/support.js';
import { approve, authorizationRequest, connect, consentToken, fetchFor, form, newAgent, page, REDIRECT_URI, RESOURCE, SCOPE } from './support.js';

const START = Date.parse('2024-06-05T08:00:00Z');
const DAY = 86_400_000;

describe('OAuth for agents', () => {
  let data: Data;
  let service: Service;
  const clock = new Clock(START);
  /** Whether an access token opens its grant now (the check /mcp/account makes on every request). */
  const works = async (token: string) => (await service.app.oauth.grants.verifyAccess(token, clock.ms)) !== null;

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  const signedIn = async (name = 'Ada') => {
    const browser = new Browser(service);
    await browser.signUp(name);
    return browser;
  };

  test('discovery: the root document stays the open one; /mcp/account names this server, which offers S256 only', async () => {
    const fetchFn = fetchFor(service);
    const root: any = await (await fetchFn(`${BASE_URL}/.well-known/oauth-protected-resource`)).json();
    assert.deepEqual({ resource: root.resource, authorization_servers: root.authorization_servers, bearer_methods_supported: root.bearer_methods_supported }, { resource: BASE_URL, authorization_servers: [], bearer_methods_supported: [] });
    const resource = await discoverOAuthProtectedResourceMetadata(RESOURCE, {}, fetchFn);
    assert.equal(resource.resource, RESOURCE);
    assert.deepEqual(resource.authorization_servers, [BASE_URL]);
    assert.deepEqual(resource.scopes_supported, [SCOPE]);
    assert.deepEqual(resource.bearer_methods_supported, ['header']);
    const { metadata } = await newAgent(service);
    assert.equal(metadata.issuer, BASE_URL);
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(metadata.response_types_supported, ['code']);
    assert.deepEqual(metadata.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(metadata.token_endpoint_auth_methods_supported, ['none']);
    assert.equal(metadata.registration_endpoint, `${BASE_URL}/oauth/register`);
    assert.equal((metadata as any).revocation_endpoint, `${BASE_URL}/oauth/revoke`);
    assert.deepEqual(metadata.scopes_supported, [SCOPE]);
    assert.equal(metadata.authorization_response_iss_parameter_supported, true);
  });

  test('registration: public clients with https or loopback redirect URIs; errors in RFC 7591 form; no-store', async () => {
    const register = (body: unknown, ip = '203.0.113.60') =>
      fetchFor(service, ip)(`${BASE_URL}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const ok = await register({ redirect_uris: ['https://agent.example/cb', 'http://[::1]:8123/cb'], client_name: 'Agent' });
    assert.equal(ok.status, 201);
    assert.equal(ok.headers.get('cache-control'), 'no-store');
    const client: any = await ok.json();
    assert.match(client.client_id, /^oc_[0-9a-f]{32}$/);
    assert.equal(client.token_endpoint_auth_method, 'none');
    assert.equal(client.client_secret, undefined);
    for (const [uri, why] of [
      ['http://agent.example/cb', 'plain http beyond loopback'],
      ['https://agent.example/cb#x', 'a fragment'],
      ['javascript:alert(1)', 'another scheme'],
      ['https://user:pw@agent.example/cb', 'credentials'],
      ['/relative', 'not absolute'],
    ]) {
      const refused = await register({ redirect_uris: [uri] });
      assert.equal(refused.status, 400, why);
      assert.equal(((await refused.json()) as any).error, 'invalid_redirect_uri', why);
    }
    const confidential = await register({ redirect_uris: ['https://agent.example/cb'], token_endpoint_auth_method: 'client_secret_basic' });
    assert.equal(confidential.status, 400);
    const body: any = await confidential.json();
    assert.equal(body.error, 'invalid_client_metadata');
    assert.match(body.error_description, /public clients/);
    assert.equal((await register({ redirect_uris: ['https://agent.example/cb'], scope: 'admin' })).status, 400);
  });

  test('registration is bounded per client address (the sign-in attempts budget), answered 429 with Retry-After in RFC form', async () => {
    const limited = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const register = () => fetchFor(limited, '203.0.113.61')(`${BASE_URL}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }) });
      for (let i = 0; i < 3; i++) assert.equal((await register()).status, 201);
      const refused = await register();
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal(((await refused.json()) as any).error, 'rate_limited');
      assert.equal((await fetchFor(limited, '203.0.113.62')(`${BASE_URL}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }) })).status, 201, 'another address has its own budget');
    } finally {
      await limited.close();
    }
  });

  test('the code flow: passkey sign-in first, then consent naming the client (not verified), host, scope and lifetime; code with state and iss; tokens', async () => {
    clock.ms = START;
    const agent = await newAgent(service, 'Friendly <b>Agent</b>');
    const { authorizationUrl, codeVerifier } = await authorizationRequest(agent, 'opaque state/with=chars');
    const browser = new Browser(service);
    await browser.signUp('Grace');
    browser.cookie = null;
    const signInPage = await page(browser, authorizationUrl.href);
    assert.equal(signInPage.status, 200);
    assert.match(signInPage.text, /Sign in with a passkey/);
    assert.match(signInPage.text, /src="\/oauth\/sign-in\.js"/);
    assert.doesNotMatch(signInPage.text, /name="consent"/, 'no consent before sign-in');
    const signUp = /href="(\/signup\?next=[^"]+)"/.exec(signInPage.text)![1];
    assert.equal(decodeURIComponent(signUp.slice('/signup?next='.length)), `${authorizationUrl.pathname}${authorizationUrl.search}`, 'sign-up comes back to this authorization');
    assert.equal((await browser.signIn()).status, 200);
    const consent = await page(browser, authorizationUrl.href);
    assert.equal(consent.status, 200);
    assert.match(consent.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    assert.equal(consent.headers.get('cache-control'), 'no-store');
    assert.match(consent.text, /Friendly &#60;b&#62;Agent&#60;\/b&#62;/, 'the client name is escaped');
    assert.match(consent.text, /not verified by us/);
    assert.match(consent.text, /127\.0\.0\.1:9/);
    assert.match(consent.text, /partner claims, billing state and partner profiles/);
    assert.match(consent.text, /at most 30 days/);
    assert.match(consent.text, /Grace/);
    const answer = await page(browser, '/oauth/authorize', { consent: consentToken(consent.text), decision: 'approve' });
    assert.equal(answer.status, 303);
    const back = new URL(answer.headers.get('location')!);
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT_URI);
    assert.equal(back.searchParams.get('state'), 'opaque state/with=chars');
    assert.equal(back.searchParams.get('iss'), BASE_URL);
    const tokens = await exchangeAuthorization(BASE_URL, { metadata: agent.metadata, clientInformation: agent.client, authorizationCode: back.searchParams.get('code')!, iss: BASE_URL, codeVerifier, redirectUri: REDIRECT_URI, resource: new URL(RESOURCE), fetchFn: agent.fetchFn });
    assert.equal(tokens.token_type, 'Bearer');
    assert.equal(tokens.scope, SCOPE);
    assert.ok(tokens.expires_in! <= 3600);
    assert.ok(tokens.refresh_token);
    assert.ok(await works(tokens.access_token));
    clock.ms += 3600_000;
    assert.ok(!await works(tokens.access_token), 'an access token lasts at most an hour');
  });

  test('Deny redirects with access_denied and the state; the consent form token is single-use and bound to its session', async () => {
    const agent = await newAgent(service);
    const browser = await signedIn();
    const { authorizationUrl } = await authorizationRequest(agent, 's2');
    const denied = await approve(browser, authorizationUrl, 'deny');
    assert.equal(denied.searchParams.get('error'), 'access_denied');
    assert.equal(denied.searchParams.get('state'), 's2');
    assert.equal(denied.searchParams.get('code'), null);

    const consent = await page(browser, authorizationUrl.href);
    const token = consentToken(consent.text);
    const other = await signedIn('Mallory');
    const stolen = await page(other, '/oauth/authorize', { consent: token, decision: 'approve' });
    assert.equal(stolen.status, 400, 'another session cannot use the form token');
    assert.equal(stolen.headers.get('location'), null);
    const again = await page(browser, '/oauth/authorize', { consent: token, decision: 'approve' });
    assert.equal(again.status, 400, 'the token was taken by its first use, whatever the outcome');
  });

  test('the consent POST without its token, or from another origin, is refused and redirects nowhere', async () => {
    const agent = await newAgent(service);
    const browser = await signedIn();
    const { authorizationUrl } = await authorizationRequest(agent);
    const token = consentToken((await page(browser, authorizationUrl.href)).text);
    const missing = await page(browser, '/oauth/authorize', { decision: 'approve' });
    assert.equal(missing.status, 400);
    assert.equal(missing.headers.get('location'), null);
    const crossSite = await page(browser, '/oauth/authorize', { consent: token, decision: 'approve' }, 'https://evil.example');
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.headers.get('location'), null);
    assert.match(crossSite.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    const noOrigin = await page(browser, '/oauth/authorize', { consent: token, decision: 'approve' }, null);
    assert.equal(noOrigin.status, 403, 'a POST without Origin (and without Sec-Fetch-Site: same-origin) is not from our page');
    const ok = await page(browser, '/oauth/authorize', { consent: token, decision: 'approve' });
    assert.equal(ok.status, 303, 'refused attempts did not use the token up');
  });

  test('unknown client or unregistered redirect URI: our own error page, never a redirect', async () => {
    const agent = await newAgent(service);
    const browser = await signedIn();
    const { authorizationUrl } = await authorizationRequest(agent);
    const evil = new URL(authorizationUrl);
    evil.searchParams.set('redirect_uri', 'https://evil.example/steal');
    const mismatch = await page(browser, evil.href);
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.headers.get('location'), null);
    assert.doesNotMatch(mismatch.text, /evil\.example/, 'the page does not even link there');
    const unknown = new URL(authorizationUrl);
    unknown.searchParams.set('client_id', 'oc_00000000000000000000000000000000');
    unknown.searchParams.set('response_type', 'token');
    const page2 = await page(browser, unknown.href);
    assert.equal(page2.status, 400);
    assert.equal(page2.headers.get('location'), null);
    const near = new URL(authorizationUrl);
    near.searchParams.set('redirect_uri', `${REDIRECT_URI}/`);
    assert.equal((await page(browser, near.href)).status, 400, 'matched exactly: a trailing slash is another URI');
  });

  test('PKCE: a missing challenge or plain is refused at authorization; a wrong or missing verifier at the token endpoint', async () => {
    const agent = await newAgent(service);
    const browser = await signedIn();
    const { authorizationUrl, codeVerifier } = await authorizationRequest(agent);
    for (const change of [(u: URL) => u.searchParams.delete('code_challenge'), (u: URL) => u.searchParams.set('code_challenge_method', 'plain'), (u: URL) => u.searchParams.delete('code_challenge_method')]) {
      const url = new URL(authorizationUrl);
      change(url);
      const answer = await page(browser, url.href);
      assert.equal(answer.status, 303);
      const back = new URL(answer.headers.get('location')!);
      assert.equal(back.searchParams.get('error'), 'invalid_request');
      assert.equal(back.searchParams.get('state'), 'state-1');
      assert.equal(back.searchParams.get('iss'), BASE_URL);
    }
    const back = await approve(browser, authorizationUrl);
    const code = back.searchParams.get('code')!;
    const exchange = (verifier: string | null) =>
      form(service, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: agent.client.client_id, resource: RESOURCE, ...(verifier === null ? {} : { code_verifier: verifier }) });
    const missing = await exchange(null);
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error, 'invalid_request');
    const wrong = await exchange(`${codeVerifier.slice(0, -1)}${codeVerifier.endsWith('A') ? 'B' : 'A'}`);
    assert.equal(wrong.json.error, 'invalid_grant');
    assert.match(wrong.json.error_description, /code_verifier/);
    const right = await exchange(codeVerifier);
    assert.equal(right.status, 200, 'failed attempts did not use the code');
  });

  test('resource and scope: another resource is invalid_target, another scope invalid_scope; the token endpoint checks resource and redirect_uri', async () => {
    const agent = await newAgent(service);
    const browser = await signedIn();
    const { authorizationUrl, codeVerifier } = await authorizationRequest(agent);
    for (const [name, value, error] of [['resource', `${BASE_URL}/mcp`, 'invalid_target'], ['scope', 'account:events admin', 'invalid_scope']]) {
      const url = new URL(authorizationUrl);
      url.searchParams.set(name, value);
      const back = new URL((await page(browser, url.href)).headers.get('location')!);
      assert.equal(back.searchParams.get('error'), error);
    }
    const code = (await approve(browser, authorizationUrl)).searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', code, client_id: agent.client.client_id, code_verifier: codeVerifier };
    assert.equal((await form(service, '/oauth/token', { ...base, redirect_uri: REDIRECT_URI, resource: `${BASE_URL}/mcp` })).json.error, 'invalid_target');
    assert.equal((await form(service, '/oauth/token', { ...base, redirect_uri: 'http://127.0.0.1:9/other' })).json.error, 'invalid_grant');
    const other = await newAgent(service);
    const stolen = await form(service, '/oauth/token', { ...base, redirect_uri: REDIRECT_URI, client_id: other.client.client_id });
    assert.equal(stolen.json.error, 'invalid_grant', 'a code works for its own client only');
    const unknown = await form(service, '/oauth/token', { ...base, redirect_uri: REDIRECT_URI, client_id: 'oc_nobody' });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.json.error, 'invalid_client');
    assert.equal((await form(service, '/oauth/token', { ...base, redirect_uri: REDIRECT_URI })).status, 200);
  });

  test('a reused code is refused and revokes every token issued from it; an expired code (over 60 s) is refused', async () => {
    clock.ms = START;
    const agent = await newAgent(service);
    const browser = await signedIn();
    const { authorizationUrl, codeVerifier } = await authorizationRequest(agent);
    const code = (await approve(browser, authorizationUrl)).searchParams.get('code')!;
    const fields = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: agent.client.client_id, code_verifier: codeVerifier, resource: RESOURCE };
    const first = await form(service, '/oauth/token', fields);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    assert.ok(await works(first.json.access_token));
    const second = await form(service, '/oauth/token', fields);
    assert.equal(second.status, 400);
    assert.equal(second.json.error, 'invalid_grant');
    assert.ok(!await works(first.json.access_token), 'the access token issued from the code is revoked');
    assert.equal((await form(service, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.json.refresh_token, client_id: agent.client.client_id })).json.error, 'invalid_grant');

    const late = await authorizationRequest(agent);
    const lateCode = (await approve(browser, late.authorizationUrl)).searchParams.get('code')!;
    clock.ms += 61_000;
    const expired = await form(service, '/oauth/token', { ...fields, code: lateCode, code_verifier: late.codeVerifier });
    assert.equal(expired.json.error, 'invalid_grant');
    assert.match(expired.json.error_description, /expired/);
  });

  test('refresh tokens rotate; reuse of an old one revokes the whole grant', async () => {
    clock.ms = START;
    const agent = await newAgent(service);
    const browser = await signedIn();
    const tokens = await connect(browser, agent);
    const refresh = (token: string) => refreshAuthorization(BASE_URL, { metadata: agent.metadata, clientInformation: agent.client, refreshToken: token, resource: new URL(RESOURCE), fetchFn: agent.fetchFn });
    const next = await refresh(tokens.refresh_token!);
    assert.notEqual(next.refresh_token, tokens.refresh_token);
    assert.notEqual(next.access_token, tokens.access_token);
    assert.ok(await works(next.access_token));
    const reuse = await form(service, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: agent.client.client_id });
    assert.equal(reuse.json.error, 'invalid_grant');
    assert.match(reuse.json.error_description, /revoked/);
    assert.ok(!await works(next.access_token), 'the grant ended: its newest access token too');
    await assert.rejects(refresh(next.refresh_token!), 'and its newest refresh token');
  });

  test('refresh tokens end 7 days after their last use and 30 days after the grant', async () => {
    clock.ms = START;
    const agent = await newAgent(service);
    const browser = await signedIn();
    const idle = await connect(browser, agent);
    const refresh = (token: string) => form(service, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token, client_id: agent.client.client_id });
    clock.ms += 7 * DAY;
    const late = await refresh(idle.refresh_token!);
    assert.equal(late.json.error, 'invalid_grant');
    assert.match(late.json.error_description, /unused for 7 days/);

    clock.ms = START;
    let token = (await connect(browser, agent)).refresh_token!;
    for (let day = 6; day < 30; day += 6) {
      clock.ms = START + day * DAY;
      const next = await refresh(token);
      assert.equal(next.status, 200, `day ${day}`);
      token = next.json.refresh_token;
    }
    clock.ms = START + 30 * DAY;
    const ended = await refresh(token);
    assert.equal(ended.json.error, 'invalid_grant');
    assert.match(ended.json.error_description, /30 days after approval/);
  });

  test('revocation by the client (RFC 7009): 200 always; a refresh token ends its grant at once', async () => {
    clock.ms = START;
    const agent = await newAgent(service);
    const browser = await signedIn();
    const tokens = await connect(browser, agent);
    const unknown = await form(service, '/oauth/revoke', { token: 'nonsense', client_id: agent.client.client_id });
    assert.equal(unknown.status, 200);
    const other = await newAgent(service);
    await form(service, '/oauth/revoke', { token: tokens.refresh_token!, client_id: other.client.client_id });
    assert.ok(await works(tokens.access_token), "another client cannot revoke this client's tokens");
    const revoked = await form(service, '/oauth/revoke', { token: tokens.refresh_token!, token_type_hint: 'refresh_token', client_id: agent.client.client_id });
    assert.equal(revoked.status, 200);
    assert.ok(!await works(tokens.access_token));
    const access = await connect(browser, agent);
    await form(service, '/oauth/revoke', { token: access.access_token, client_id: agent.client.client_id });
    assert.ok(!await works(access.access_token), 'an access token can be revoked alone');
  });

  test('the connections page lists connected clients and revokes one; account deletion revokes every grant', async () => {
    clock.ms = START;
    const browser = await signedIn('Linus');
    const first = await newAgent(service, 'First Agent');
    const second = await newAgent(service, 'Second Agent');
    const a = await connect(browser, first);
    const b = await connect(browser, second);
    const listed = await page(browser, '/oauth/connections');
    assert.equal(listed.status, 200);
    assert.match(listed.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    assert.match(listed.text, /First Agent/);
    assert.match(listed.text, /Second Agent/);
    assert.match(listed.text, /2024-06-05/);
    const grantIds = [...listed.text.matchAll(/name="grant" value="(og_[0-9a-f]+)"/g)].map((m) => m[1]);
    assert.equal(grantIds.length, 2);
    const crossSite = await page(browser, '/oauth/connections', { grant: grantIds[0] }, 'https://evil.example');
    assert.equal(crossSite.status, 403);
    assert.ok(await works(a.access_token));
    const stranger = await signedIn('Stranger');
    assert.equal((await page(stranger, '/oauth/connections', { grant: grantIds[0] })).status, 404, "another account's grant cannot be revoked");
    const revoked = await page(browser, '/oauth/connections', { grant: grantIds[0] });
    assert.equal(revoked.status, 303);
    assert.ok(!await works(a.access_token));
    assert.ok(await works(b.access_token));
    const after = await page(browser, '/oauth/connections?revoked=1');
    assert.doesNotMatch(after.text, /First Agent/);
    assert.match(after.text, /is revoked/);
    assert.match((await page(new Browser(service), '/oauth/connections')).text, /Sign in with a passkey/);

    await browser.signIn();
    const deleted = await browser.request('DELETE', '/account');
    assert.equal(deleted.status, 200, JSON.stringify(deleted.json));
    assert.ok(!await works(b.access_token), 'deleting the account ended its grants');
  });
});
