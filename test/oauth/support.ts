// Shared by the OAuth and /mcp/account tests: the real service with accounts, a fetch for the official
// client SDK's OAuth helpers that sends BASE_URL's requests to the loopback server, and the person's side
// of an authorization (the consent page read and answered with the browser's session cookie).
import assert from 'node:assert/strict';
import { Client, discoverAuthorizationServerMetadata, exchangeAuthorization, registerClient, startAuthorization, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BASE_URL, SITE_ORIGIN, type Service } from '../community/support.js';
import type { Browser } from '../accounts/support.js';

export const RESOURCE = `${BASE_URL}/mcp/account`;
export const REDIRECT_URI = 'http://127.0.0.1:9/callback';
export const SCOPE = 'account:events';

/** The server an agent talks to: a test service, or any at `url` (read at each request). */
type Site = Pick<Service, 'url'>;

/** A fetch that sends requests for BASE_URL to the test server, from one client address. */
export function fetchFor(service: Site, ip = '203.0.113.50') {
  return (url: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.set('X-Forwarded-For', ip);
    return fetch(String(url).replace(BASE_URL, service.url), { ...init, headers, redirect: 'manual' });
  };
}

export interface Page {
  status: number;
  headers: Headers;
  text: string;
}

/** A page request of the browser (its session cookie, the site's Origin on POSTs unless told otherwise). */
export async function page(browser: Browser, path: string, form?: Record<string, string>, origin: string | null = SITE_ORIGIN): Promise<Page> {
  const headers: Record<string, string> = { 'X-Forwarded-For': browser.ip };
  if (browser.cookie !== null) headers.Cookie = browser.cookie;
  if (form !== undefined && origin !== null) headers.Origin = origin;
  if (form !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(`${browser.service.url}${path.replace(BASE_URL, '')}`, {
    method: form === undefined ? 'GET' : 'POST',
    headers,
    body: form === undefined ? undefined : new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The single-use form token of a consent page. */
export function consentToken(html: string): string {
  const match = /name="consent" value="([^"]+)"/.exec(html);
  assert.ok(match, `a consent page with its form token: ${html.slice(0, 400)}`);
  return match[1];
}

export type RegisteredClient = Awaited<ReturnType<typeof registerClient>>;
export type Metadata = NonNullable<Awaited<ReturnType<typeof discoverAuthorizationServerMetadata>>>;

/** An agent: the SDK's discovery and registration against the service. */
export async function newAgent(service: Site, name = 'Test Agent', ip?: string): Promise<{ metadata: Metadata; client: RegisteredClient; fetchFn: ReturnType<typeof fetchFor> }> {
  const fetchFn = fetchFor(service, ip);
  const metadata = await discoverAuthorizationServerMetadata(BASE_URL, { fetchFn });
  assert.ok(metadata);
  const client = await registerClient(BASE_URL, { metadata, clientMetadata: { redirect_uris: [REDIRECT_URI], client_name: name, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }, fetchFn });
  return { metadata, client, fetchFn };
}

/** The authorization URL the SDK builds (PKCE S256, resource, scope, state) and its verifier. */
export async function authorizationRequest(agent: { metadata: Metadata; client: RegisteredClient }, state = 'state-1') {
  return startAuthorization(BASE_URL, { metadata: agent.metadata, clientInformation: agent.client, redirectUrl: REDIRECT_URI, scope: SCOPE, state, resource: new URL(RESOURCE) });
}

/** The redirect the consent page's Approve sends the browser to, as a URL. */
export async function approve(browser: Browser, authorizationUrl: URL, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const consent = await page(browser, authorizationUrl.href);
  assert.equal(consent.status, 200, consent.text.slice(0, 300));
  const answer = await page(browser, '/oauth/authorize', { consent: consentToken(consent.text), decision });
  assert.equal(answer.status, 303, answer.text.slice(0, 300));
  return new URL(answer.headers.get('location')!);
}

/** The whole flow for a signed-in browser: authorization, consent, code exchange. Returns the tokens. */
export async function connect(browser: Browser, agent: { metadata: Metadata; client: RegisteredClient; fetchFn: ReturnType<typeof fetchFor> }) {
  const { authorizationUrl, codeVerifier } = await authorizationRequest(agent);
  const back = await approve(browser, authorizationUrl);
  return exchangeAuthorization(BASE_URL, {
    metadata: agent.metadata,
    clientInformation: agent.client,
    authorizationCode: back.searchParams.get('code')!,
    iss: back.searchParams.get('iss')!,
    codeVerifier,
    redirectUri: REDIRECT_URI,
    resource: new URL(RESOURCE),
    fetchFn: agent.fetchFn,
  });
}

/** A form POST to a client endpoint (token, revoke) as a client sends it. */
export async function form(service: Site, path: string, fields: Record<string, string>): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetchFor(service)(`${BASE_URL}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

export const MODERN = '2026-07-28';

/** A raw 2026-07-28 request to /mcp/account, for what clients hide (status, WWW-Authenticate, cache hints). */
export async function accountMcp(service: Service, token: string | null, method: string, params: Record<string, unknown> = {}, extraHeaders: Record<string, string> = {}) {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': MODERN,
    'Mcp-Method': method,
    'X-Forwarded-For': '203.0.113.70',
    ...extraHeaders,
  };
  if (typeof params.name === 'string') headers['Mcp-Name'] = params.name;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' } } } };
  const response = await fetch(`${service.url}/mcp/account`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text === '' ? undefined : JSON.parse(text) };
}

/** The official client pinned to 2026-07-28 on /mcp/account with the access token. */
export async function accountClient(service: Site, accessToken: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp/account`), { requestInit: { headers: { Authorization: `Bearer ${accessToken}` } } }));
  return client;
}
