// The authorization endpoint (/oauth/authorize): GET checks the request and shows the consent page (or,
// with no signed-in session, the passkey sign-in first); POST takes the person's Approve or Deny.
// Nothing redirects to a client before its client_id and redirect_uri are checked: until then every error
// is a page of ours (no open redirector); after, errors go back as redirect parameters with `state` and
// `iss` (RFC 9207). The POST must come from our own page (Origin) and carry the single-use form token of
// the consent it answers, bound to the session that saw it. Consent is asked on every authorization: every
// client here registered itself or describes itself in its own document, so nobody vouches for it. Approving needs a passkey sign-in of the last 5
// minutes (issue 38): a copied session cookie alone must not turn into a 30-day grant. While the storage
// cannot take a write the answer is a 503 page of ours until the client is checked, and after it the
// redirect with `temporarily_unavailable` (RFC 6749 section 4.1.2.1).
import type { GuardDeps } from '../api/guards.js';
import { GuardChain, RECENT_PASSKEY_MS, type SignedIn } from '../api/guards.js';
import type { HttpReply } from '../http/reply.js';
import type { HttpServer } from '../http/server.js';
import { routeIn } from '../schemas/operations.js';
import type { AccountsStore } from '../accounts/store.js';
import type { Logger } from '../log.js';
import { NO_STORE, unavailableStorage } from './answers.js';
import { formFields } from '../http/form.js';
import { STORAGE_RETRY_SECONDS } from '../api/server-hooks.js';
import { isDocumentClientId, type ClientDocuments } from './client-documents.js';
import { redirectUriRegistered } from './clients.js';
import { accountResource } from './discovery.js';
import { OAUTH_PATHS, OAUTH_ROUTES } from './operations.js';
import type { Grants } from './grants.js';
import { SCOPE } from './lifetimes.js';
import { errorPage, OAUTH_PAGE_CSP, orUnavailablePage, pageRefusal } from './page.js';
import { confirmPage, consentPage, signInPage } from './consent-page.js';
import type { AuthorizationRequest, ClientRow, OAuthStore } from './store.js';
import { LANGUAGE_HEADERS, say } from './text/texts.js';
import type { PageLanguage } from '../web/page-language.js';

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_CHARS = 1000;

export interface AuthorizeDeps {
  guards: GuardDeps;
  baseUrl: string;
  store: OAuthStore;
  accounts: AccountsStore;
  grants: Grants;
  documents: ClientDocuments;
  log: Logger;
}

/** What an authorization request comes to: a page of ours, a redirect to the client, or a request to consent to. */
type Checked = { page: HttpReply } | { redirect: string } | { request: AuthorizationRequest };

export function registerAuthorization(server: HttpServer, deps: AuthorizeDeps): void {
  const { baseUrl, store, accounts, grants, documents, log } = deps;
  const chain = new GuardChain(deps.guards);
  const resource = accountResource(baseUrl);
  const secure = baseUrl.startsWith('https:');

  chain.operation(server, routeIn(OAUTH_ROUTES, 'get', OAUTH_PATHS.authorize), {
    contentSecurityPolicy: OAUTH_PAGE_CSP,
    headers: LANGUAGE_HEADERS,
    renderRefusal: pageRefusal(secure),
    handle: (request, context) => orUnavailablePage(request, secure, log, async (language) => {
      const query = new URLSearchParams(request.query);
      const found = repeatedParameter(language, query) ?? (await findClient(language, query.get('client_id'), context.nowMs));
      if ('page' in found) return found.page;
      const checked = checkRequest(language, query, found.client, baseUrl, resource);
      if ('page' in checked) return checked.page;
      if ('redirect' in checked) return redirect(checked.redirect);
      const { client } = found;
      if (context.session === null) return signInPage(language, client, `${request.path}?${request.query}`);
      if (!recentPasskey(context.session, context.nowMs)) return confirmPage(language, client, RECENT_PASSKEY_MS);
      const account = (await accounts.account(context.session.account))!;
      const session = context.session;
      const token = await backToClientWhenUnavailable(checked.request, () => grants.startConsent(checked.request, session.tokenHash, context.nowMs));
      return typeof token === 'string' ? consentPage(language, client, checked.request, account.display_name, token) : token;
    }),
  });

  chain.operation(server, routeIn(OAUTH_ROUTES, 'post', OAUTH_PATHS.authorize), {
    contentSecurityPolicy: OAUTH_PAGE_CSP,
    headers: ['content-type', ...LANGUAGE_HEADERS],
    renderRefusal: pageRefusal(secure),
    handle: (request, context) => orUnavailablePage(request, secure, log, async (language) => {
      const { lang } = language;
      const fault = (status: number, key: 'notWhole' | 'signedOut' | 'confirmFirst' | 'ended') =>
        errorPage(language, status, say(lang, `error.${key}Title`), say(lang, `error.${key}`, { minutes: RECENT_PASSKEY_MS / 60_000 }));
      const form = formFields(request.headers['content-type'], request.body);
      const token = form?.get('consent');
      const decision = form?.get('decision');
      if (token === undefined || (decision !== 'approve' && decision !== 'deny')) return fault(400, 'notWhole');
      if (context.session === null) return fault(401, 'signedOut');
      if (decision === 'approve' && !recentPasskey(context.session, context.nowMs)) return fault(401, 'confirmFirst');
      const consent = await grants.takeConsent(token, context.session.tokenHash, context.nowMs);
      if (consent === null) return fault(400, 'ended');
      if (decision === 'deny') {
        log.info('oauth authorization denied', { client: consent.client_id });
        return redirect(withParams(consent.redirect_uri, { error: 'access_denied', error_description: 'The person denied the request.', state: consent.state, iss: baseUrl }));
      }
      const account = context.session.account;
      const code = await backToClientWhenUnavailable(consent, () => grants.issueCode(consent, account, context.nowMs));
      if (typeof code !== 'string') return code;
      log.info('oauth authorization approved', { client: consent.client_id, account });
      return redirect(withParams(consent.redirect_uri, { code, state: consent.state, iss: baseUrl }));
    }),
  });

  /** What `write` answers, or while the storage cannot take it, the checked client's redirect with temporarily_unavailable. */
  async function backToClientWhenUnavailable(request: Pick<AuthorizationRequest, 'redirect_uri' | 'state'>, write: () => Promise<string>): Promise<string | HttpReply> {
    try {
      return await write();
    } catch (error) {
      const trouble = unavailableStorage(error, log, OAUTH_PATHS.authorize);
      if (trouble === null) throw error;
      const error_description = `The service cannot store anything right now (${trouble}): start the authorization again in ${STORAGE_RETRY_SECONDS} seconds.`;
      return redirect(withParams(request.redirect_uri, { error: 'temporarily_unavailable', error_description, state: request.state, iss: baseUrl }));
    }
  }

  /**
   * The client a client_id names: a registered one, or the one its client ID metadata document describes
   * (fetched when the stored copy is not fresh); else our own page, with the RFC error code and what is wrong.
   */
  async function findClient(language: PageLanguage, clientId: string | null, nowMs: number): Promise<{ client: ClientRow } | { page: HttpReply }> {
    const { lang } = language;
    if (clientId !== null && isDocumentClientId(clientId)) {
      const resolved = await documents.resolve(clientId, nowMs);
      if ('client' in resolved) return resolved;
      const { error, error_description } = resolved.refused;
      const status = error === 'temporarily_unavailable' ? 503 : 400;
      return { page: errorPage(language, status, say(lang, 'error.unidentifiedTitle'), say(lang, 'error.unidentified'), { code: error, detail: error_description }) };
    }
    const client = clientId === null ? null : await store.read((tables) => tables.client(clientId));
    if (client === null) return { page: errorPage(language, 400, say(lang, 'error.unknownAppTitle'), say(lang, 'error.unknownApp'), { code: 'invalid_client' }) };
    return { client };
  }
}

/** Each parameter may appear once (RFC 6749 section 3.1); our own page when one repeats. */
function repeatedParameter(language: PageLanguage, query: URLSearchParams): { page: HttpReply } | null {
  const seen = new Set<string>();
  for (const name of query.keys()) {
    if (seen.has(name)) return { page: errorPage(language, 400, say(language.lang, 'error.malformedTitle'), say(language.lang, 'error.malformed', { name }), { code: 'invalid_request' }) };
    seen.add(name);
  }
  return null;
}

/** Checks an authorization request of a known client in the order that keeps errors off unvalidated redirect URIs. */
function checkRequest(language: PageLanguage, query: URLSearchParams, client: ClientRow, issuer: string, resource: string): Checked {
  const redirectUri = query.get('redirect_uri');
  if (redirectUri === null || !redirectUriRegistered(JSON.parse(client.redirect_uris) as string[], redirectUri)) {
    return { page: errorPage(language, 400, say(language.lang, 'error.unknownReturnTitle'), say(language.lang, 'error.unknownReturn', { name: client.name })) };
  }
  const state = query.get('state');
  const fail = (error: string, description: string): Checked => ({ redirect: withParams(redirectUri, { error, error_description: description, state, iss: issuer }) });
  if (query.get('response_type') !== 'code') return fail('unsupported_response_type', 'response_type must be code.');
  if (query.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'PKCE is required with code_challenge_method=S256 (plain is refused).');
  const challenge = query.get('code_challenge');
  if (challenge === null || !CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge must be BASE64URL(SHA-256(code_verifier)), 43 characters.');
  if (query.get('resource') !== resource) return fail('invalid_target', `resource must be ${resource} (RFC 8707).`);
  const scope = query.get('scope') ?? SCOPE;
  if (scope.split(' ').some((s) => s !== SCOPE)) return fail('invalid_scope', `The only scope is ${SCOPE}.`);
  if (state !== null && state.length > MAX_STATE_CHARS) return fail('invalid_request', `state may be at most ${MAX_STATE_CHARS} characters.`);
  return { request: { client_id: client.id, redirect_uri: redirectUri, code_challenge: challenge, resource, scope: SCOPE, state } };
}

/** Approving a consent makes a 30-day credential: like every sensitive operation, it needs a passkey of the last 5 minutes. */
function recentPasskey(session: SignedIn, nowMs: number): boolean {
  return nowMs - session.verifiedAtMs <= RECENT_PASSKEY_MS;
}

function withParams(uri: string, params: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}

function redirect(location: string): HttpReply {
  return { status: 303, headers: ['Location', location, ...NO_STORE] };
}
