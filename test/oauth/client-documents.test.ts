// Client ID Metadata Documents (issue 46): an agent whose client_id is the https URL of its document connects
// to /mcp/account without registering. The documents come from a stand-in host (document-host.ts: https on a
// loopback port with a certificate authority made by openssl for this run, trusted by the service's outbound
// module for this test only). A good document goes all the way through the official SDK's auth() (which
// picks the document because discovery says client_id_metadata_document_supported) to get_my_partner_listings;
// every bad one is refused on our own page with its RFC error code, and nothing is stored; a document is kept
// as long as its caching headers say (at most 24 h), a failure holds off asking again for a minute, and one
// host is asked at most HOST_FETCHES times a minute. Times are the injected clock's.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { BASE_URL, Clock, type Service } from '../community/support.js';
import { Browser } from '../accounts/support.js';
import { claimAs } from '../partners/support.js';
import { DOCUMENT_DEFAULT_FRESH_MS, DOCUMENT_MAX_BYTES, DOCUMENT_MAX_FRESH_MS, documentUrlFault, FAILURE_BACKOFF_MS, freshnessMs, HOST_FETCHES, HOST_WINDOW_MS } from '../../src/oauth/client-documents.js';
import { documentSuite, type DocumentHost } from './document-host.js';
import { accountClient, accountMcp, consentToken, fetchFor, form, page, REDIRECT_URI, RESOURCE, SCOPE } from './support.js';
import { runNow } from '../../src/storage/steps.js';

const START = Date.parse('2024-06-05T08:00:00Z');
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** A valid document for `url`, with what a test changes. */
function documentFor(url: string, changes: Record<string, unknown> = {}) {
  return { client_id: url, client_name: 'Doc Agent', client_uri: 'https://agent.example.test', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...changes };
}

/** GET /oauth/authorize for `clientId` as the SDK would send it. */
function authorizePath(clientId: string, redirectUri = REDIRECT_URI): string {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: CHALLENGE, code_challenge_method: 'S256', resource: RESOURCE, scope: SCOPE, state: 's' });
  return `/oauth/authorize?${query}`;
}

/** The SDK's side of an agent: what an OAuthClientProvider keeps, in memory. */
class DocumentAgent implements OAuthClientProvider {
  saved: { info?: any; tokens?: any; verifier?: string; discovery?: any } = {};
  authorizationUrl: URL | null = null;
  constructor(readonly clientMetadataUrl: string) {}
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata() {
    return { redirect_uris: [REDIRECT_URI], client_name: 'Doc Agent' };
  }
  clientInformation() {
    return this.saved.info;
  }
  saveClientInformation(info: unknown) {
    this.saved.info = info;
  }
  tokens() {
    return this.saved.tokens;
  }
  saveTokens(tokens: unknown) {
    this.saved.tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.saved.verifier = verifier;
  }
  codeVerifier() {
    return this.saved.verifier!;
  }
  saveDiscoveryState(state: unknown) {
    this.saved.discovery = state;
  }
  discoveryState() {
    return this.saved.discovery;
  }
}

describe('client ID metadata documents', () => {
  const clock = new Clock(START);
  const suite = documentSuite(clock);
  let service: Service;
  let host: DocumentHost;
  before(() => {
    ({ service, host } = suite);
  });
  const storedClient = (id: string) => runNow(service.app.oauth.store.tablesIn(null).client(id));
  const consents = () => service.app.accounts.file.db.prepare('SELECT count(*) FROM oauth_consents').pluck().get() as number;

  const signedIn = async (name: string) => {
    const browser = new Browser(service);
    await browser.signUp(name);
    return browser;
  };

  test('discovery says documents are taken; the SDK connects with one, reads its listings, and the grant records the URL', async () => {
    const metadata = (await (await fetchFor(service)(`${BASE_URL}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    assert.equal(metadata.client_id_metadata_document_supported, true);
    assert.ok(metadata.registration_endpoint, 'registration stays');

    const url = host.url('good.example.test');
    host.set(url, { body: documentFor(url), headers: { 'Cache-Control': 'max-age=3600' } });
    const ada = await claimAs(service, 'n4316767608', 'Ada Cafe', '198.51.100.31');
    const agent = new DocumentAgent(url);
    const fetchFn = fetchFor(service);
    assert.equal(await auth(agent, { serverUrl: RESOURCE, fetchFn }), 'REDIRECT');
    assert.equal(agent.saved.info.client_id, url, 'the SDK took the document URL as its client_id, registering nothing');
    assert.equal(agent.authorizationUrl!.searchParams.get('client_id'), url);

    const consent = await page(ada.browser, agent.authorizationUrl!.href);
    assert.equal(consent.status, 200, consent.text.slice(0, 400));
    assert.match(consent.text, /<title>Connect Doc Agent \(good\.example\.test:\d+\) to your account\?/);
    assert.match(consent.text, /Describes itself at<\/dt><dd><strong>good\.example\.test:\d+<\/strong>/);
    assert.match(consent.text, /we have not verified who runs good\.example\.test/);
    assert.match(consent.text, /not verified by us/);
    assert.match(consent.text, /a program on this computer \(127\.0\.0\.1:9\)/, 'a loopback-only redirect gets its warning');
    assert.equal(host.requests(url), 1);

    const answer = await page(ada.browser, '/oauth/authorize', { consent: consentToken(consent.text), decision: 'approve' });
    assert.equal(answer.status, 303, answer.text.slice(0, 300));
    const back = new URL(answer.headers.get('location')!);
    assert.equal(await auth(agent, { serverUrl: RESOURCE, fetchFn, authorizationCode: back.searchParams.get('code')!, iss: back.searchParams.get('iss')! }), 'AUTHORIZED');
    const tokens = agent.saved.tokens;
    assert.ok(tokens.access_token && tokens.refresh_token, 'the document lists refresh_token: it gets one');
    assert.equal(host.requests(url), 1, 'the token exchange used the stored copy');

    const client = await accountClient(service, tokens.access_token);
    try {
      const result = await client.callTool({ name: 'get_my_partner_listings', arguments: {} });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      assert.deepEqual((result.structuredContent as { listings: { id: string }[] }).listings.map((l) => l.id), [ada.listing]);
    } finally {
      await client.close();
    }
    const grants = service.app.accounts.file.db.prepare('SELECT client_id FROM oauth_grants WHERE client_id = ?').pluck().all(url);
    assert.deepEqual(grants, [url], 'the grant records the client URL');
    assert.notEqual(storedClient(url)!.authorized_at, null);

    const refreshed = await form(service, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: url });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.json));
    const connections = await page(ada.browser, '/oauth/connections');
    assert.match(connections.text, /Doc Agent<\/strong><br><span class="hint">not verified by us; described at good\.example\.test:\d+; returns to 127\.0\.0\.1:9/);
    const grantId = /name="grant" value="([^"]+)"/.exec(connections.text)![1];
    assert.equal((await page(ada.browser, '/oauth/connections', { grant: grantId })).status, 303);
    assert.equal((await accountMcp(service, refreshed.json.access_token, 'tools/list')).status, 401, 'revoked on the connections page: the token stops');
  });

  test('a document the client revokes through, and an account deletion, end its grants like a registered client’s', async () => {
    const url = host.url('ends.example.test');
    host.set(url, { body: documentFor(url) });
    const browser = await signedIn('Bea');
    const connect = async () => {
      const consent = await page(browser, authorizePath(url));
      const answer = await page(browser, '/oauth/authorize', { consent: consentToken(consent.text), decision: 'approve' });
      const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
      const tokens = await form(service, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: url, code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', resource: RESOURCE });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.json));
      return tokens.json;
    };
    const first = await connect();
    assert.equal((await form(service, '/oauth/revoke', { token: first.refresh_token, client_id: url })).status, 200);
    assert.equal(await service.app.oauth.grants.verifyAccess(first.access_token, clock.ms), null, 'revoked by the client');
    const second = await connect();
    await browser.signIn();
    assert.equal((await browser.request('DELETE', '/account')).status, 200);
    assert.equal(await service.app.oauth.grants.verifyAccess(second.access_token, clock.ms), null, 'the account deletion ended it');
  });

  test('every bad document is refused with its error on our page, and nothing is stored', async () => {
    const browser = await signedIn('Cy');
    const cases: { name: string; host: string; answer?: (url: string) => Parameters<DocumentHost['set']>[1]; url?: string; error: string; says: RegExp }[] = [
      { name: 'another client_id', host: 'wrongid.example.test', answer: (url) => ({ body: documentFor(url, { client_id: `${url}x` }) }), error: 'invalid_client_metadata', says: /client_id must be its own URL/ },
      { name: 'too large', host: 'large.example.test', answer: (url) => ({ body: documentFor(url, { client_name: 'A'.repeat(50), padding: 'x'.repeat(DOCUMENT_MAX_BYTES) }) }), error: 'invalid_client', says: /larger than 5120 bytes/ },
      { name: 'too slow', host: 'slow.example.test', answer: () => ({ hang: true }), error: 'invalid_client', says: /no answer within 2 s/ },
      { name: 'not JSON', host: 'notjson.example.test', answer: () => ({ body: '{"client_id": ' }), error: 'invalid_client', says: /not valid JSON/ },
      { name: 'a redirect', host: 'moved.example.test', answer: (url) => ({ status: 302, headers: { Location: `${url}.real` } }), error: 'invalid_client', says: /answered 302, a redirect, which is not followed/ },
      { name: 'not found', host: 'gone.example.test', error: 'invalid_client', says: /answered 404, not 200/ },
      { name: 'an unknown grant type', host: 'granttype.example.test', answer: (url) => ({ body: documentFor(url, { grant_types: ['authorization_code', 'client_credentials'] }) }), error: 'invalid_client_metadata', says: /grant_types may hold/ },
      { name: 'a confidential client', host: 'secret.example.test', answer: (url) => ({ body: documentFor(url, { token_endpoint_auth_method: 'client_secret_basic' }) }), error: 'invalid_client_metadata', says: /public clients only/ },
      { name: 'a bad redirect URI', host: 'redirect.example.test', answer: (url) => ({ body: documentFor(url, { redirect_uris: ['http://agent.example.test/cb'] }) }), error: 'invalid_redirect_uri', says: /neither https nor http on a loopback/ },
      { name: 'no client_name', host: 'noname.example.test', answer: (url) => ({ body: documentFor(url, { client_name: undefined }) }), error: 'invalid_client_metadata', says: /no client_name/ },
      { name: 'a private address', host: 'intranet.example.test', url: 'https://intranet.example.test/oauth/client.json', error: 'invalid_client', says: /resolves to 10\.0\.0\.7, which is not a public address/ },
      { name: 'loopback on port 443', host: 'loop.example.test', url: 'https://loop.example.test/oauth/client.json', error: 'invalid_client', says: /resolves to 127\.0\.0\.1, which is not a public address/ },
      { name: 'a URL with a query', host: 'query.example.test', url: `${host.url('query.example.test')}?v=1`, error: 'invalid_client', says: /client_id has a query/ },
    ];
    for (const c of cases) {
      const url = c.url ?? host.url(c.host);
      if (c.answer) host.set(url, c.answer(url));
      const refused = await page(browser, authorizePath(url));
      assert.equal(refused.status, 400, `${c.name}: ${refused.text.slice(0, 300)}`);
      assert.match(refused.text, new RegExp(`<code>${c.error}</code>`), c.name);
      assert.match(refused.text.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))), c.says, c.name);
      assert.equal(refused.headers.get('location'), null, `${c.name}: never sent back to an unchecked redirect URI`);
      assert.equal(storedClient(url), null, `${c.name}: nothing stored`);
    }
    assert.equal(consents(), 0, 'no consent recorded');
    assert.equal(host.requests(`${host.url('moved.example.test')}.real`), 0, 'the redirect was not followed');
    assert.equal(host.requests(host.url('query.example.test')), 0, 'a URL with a query is not fetched');

    const wrongRedirect = host.url('otherredirect.example.test');
    host.set(wrongRedirect, { body: documentFor(wrongRedirect) });
    const elsewhere = await page(browser, authorizePath(wrongRedirect, 'https://evil.example.test/cb'));
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.text, /did not register/);
  });

  test('a failed document is not asked again for a minute; fixed, it works after that', async () => {
    const browser = await signedIn('Dee');
    const url = host.url('fixed.example.test');
    host.set(url, { body: '{oops' });
    assert.equal((await page(browser, authorizePath(url))).status, 400);
    host.set(url, { body: documentFor(url, { client_name: 'Fixed Agent' }) });
    const again = await page(browser, authorizePath(url));
    assert.equal(again.status, 400);
    assert.match(again.text, /not valid JSON/, 'the same refusal, without asking');
    assert.equal(host.requests(url), 1);
    clock.ms += FAILURE_BACKOFF_MS;
    const fixed = await page(browser, authorizePath(url));
    assert.match(fixed.text, /Fixed Agent/);
    assert.equal(host.requests(url), 2);
  });

  test('a document is kept as its caching headers say, at most 24 hours, and fetched again when stale', async () => {
    const browser = await signedIn('Eve');
    const url = host.url('changing.example.test');
    host.set(url, { body: documentFor(url, { client_name: 'Agent One' }), headers: { 'Cache-Control': 'public, max-age=120' } });
    assert.match((await page(browser, authorizePath(url))).text, /Agent One/);
    host.set(url, { body: documentFor(url, { client_name: 'Agent Two' }), headers: { 'Cache-Control': 'max-age=100000000' } });
    clock.ms += 119_000;
    assert.match((await page(browser, authorizePath(url))).text, /Agent One/, 'still fresh: the stored copy');
    assert.equal(host.requests(url), 1);
    clock.ms += 1_000;
    assert.match((await page(browser, authorizePath(url))).text, /Agent Two/, 'stale: fetched again');
    assert.equal(host.requests(url), 2);
    assert.equal(storedClient(url)!.name, 'Agent Two');
    assert.equal(storedClient(url)!.document_expires_at, clock.ms + DOCUMENT_MAX_FRESH_MS, 'a year of max-age is held to 24 hours');
  });

  test('one host is fetched at most HOST_FETCHES times a minute', async () => {
    const browser = await signedIn('Fay');
    const urls = Array.from({ length: HOST_FETCHES + 1 }, (_, i) => host.url('busy.example.test', `/agents/${i}.json`));
    for (const url of urls) host.set(url, { body: documentFor(url) });
    for (const url of urls.slice(0, HOST_FETCHES)) assert.equal((await page(browser, authorizePath(url))).status, 200);
    const refused = await page(browser, authorizePath(urls[HOST_FETCHES]));
    assert.equal(refused.status, 503);
    assert.match(refused.text, /<code>temporarily_unavailable<\/code>/);
    assert.match(refused.text, /the most it is asked for; try again in 60 s/);
    assert.equal(host.requests(urls[HOST_FETCHES]), 0, 'not fetched');
    assert.equal(storedClient(urls[HOST_FETCHES]), null);
    const other = host.url('quiet.example.test');
    host.set(other, { body: documentFor(other) });
    assert.equal((await page(browser, authorizePath(other))).status, 200, 'another host has its own budget');
    clock.ms += HOST_WINDOW_MS;
    assert.equal((await page(browser, authorizePath(urls[HOST_FETCHES]))).status, 200, 'a minute later');
    assert.equal(host.requests(urls[HOST_FETCHES]), 1);
  });
});

test('a document URL is https with a path, without query, fragment, credentials or dot segments, in normal form', () => {
  assert.equal(documentUrlFault('https://app.example/oauth/client.json'), null);
  assert.equal(documentUrlFault('https://app.example:8443/c'), null, 'a port is the outbound rule’s to refuse');
  for (const [url, fault] of [
    ['http://app.example/c.json', /not an https URL/],
    ['https://app.example/', /no path/],
    ['https://app.example', /no path/],
    ['https://u:p@app.example/c', /user name/],
    ['https://app.example/c#x', /fragment/],
    ['https://app.example/c?x=1', /query/],
    ['https://app.example/a/../c', /\. or \.\. path segment/],
    ['https://app.example/a/%2e%2e/c', /\. or \.\. path segment/],
    ['https://APP.example/c', /normal form/],
  ] as const) {
    assert.match(documentUrlFault(url) ?? 'accepted', fault, url);
  }
});

test('freshness: max-age less Age, no-store and no-cache none, Expires against Date, a default, at most 24 hours', () => {
  assert.equal(freshnessMs({ 'cache-control': 'public, max-age=300' }), 300_000);
  assert.equal(freshnessMs({ 'cache-control': 'max-age=300', age: '100' }), 200_000);
  assert.equal(freshnessMs({ 'cache-control': 'no-store' }), 0);
  assert.equal(freshnessMs({ 'cache-control': 'no-cache, max-age=300' }), 0);
  assert.equal(freshnessMs({ expires: 'Wed, 05 Jun 2024 09:00:00 GMT', date: 'Wed, 05 Jun 2024 08:00:00 GMT' }), 3_600_000);
  assert.equal(freshnessMs({ expires: '0', date: 'Wed, 05 Jun 2024 08:00:00 GMT' }), 0);
  assert.equal(freshnessMs({}), DOCUMENT_DEFAULT_FRESH_MS);
  assert.equal(freshnessMs({ 'cache-control': 'max-age=999999999' }), DOCUMENT_MAX_FRESH_MS);
});
