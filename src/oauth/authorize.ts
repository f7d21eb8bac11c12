// The authorization endpoint (/oauth/authorize): GET checks the request and shows the consent page (or,
// with no signed-in session, the passkey sign-in first); POST takes the person's Approve or Deny.
// Nothing redirects to a client before its client_id and redirect_uri are checked: until then every error
// is a page of ours (no open redirector); after, errors go back as redirect parameters with `state` and
// `iss` (RFC 9207). The POST must come from our own page (Origin) and carry the single-use form token of
// the consent it answers, bound to the session that saw it. Consent is asked on every authorization: every
// client here registered itself, so nobody vouches for it. Approving needs a passkey sign-in of the last 5
// minutes (issue 38): a copied session cookie alone must not turn into a 30-day grant.
import type { GuardDeps, GuardNeeds } from '../api/guards.js';
import { GuardChain, RECENT_PASSKEY_MS, type SignedIn } from '../api/guards.js';
import type { HttpReply } from '../http/reply.js';
import type { HttpServer } from '../http/server.js';
import { RATE_LIMIT_POLICIES } from '../schemas/operations.js';
import type { AccountsStore } from '../accounts/store.js';
import type { Logger } from '../log.js';
import { formFields, NO_STORE } from './answers.js';
import { isDocumentClientId, type ClientDocuments } from './client-documents.js';
import { redirectUriRegistered } from './clients.js';
import { accountResource, OAUTH_PATHS } from './discovery.js';
import type { Grants } from './grants.js';
import { GRANT_ABSOLUTE_MS, REFRESH_IDLE_MS, SCOPE } from './lifetimes.js';
import { confirmBlock, escapeHtml, OAUTH_PAGE_CSP, pageRefusal, renderOAuthPage, signInBlock } from './page.js';
import type { AuthorizationRequest, ClientRow, OAuthStore } from './store.js';

const PAGE_NEEDS: GuardNeeds = { rateLimit: RATE_LIMIT_POLICIES.perIp, guards: { session: 'optional' } };
const DECISION_NEEDS: GuardNeeds = { rateLimit: RATE_LIMIT_POLICIES.perIp, guards: { origin: 'site', session: 'optional' } };
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_CHARS = 1000;
const LOOPBACK_REDIRECT = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)[:/]/;

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

  chain.route(server, {
    method: 'GET',
    pattern: OAUTH_PATHS.authorize,
    needs: PAGE_NEEDS,
    contentSecurityPolicy: OAUTH_PAGE_CSP,
    renderRefusal: pageRefusal,
    handle: async (request, context) => {
      const query = new URLSearchParams(request.query);
      const found = repeatedParameter(query) ?? (await findClient(query.get('client_id'), context.nowMs));
      if ('page' in found) return found.page;
      const checked = checkRequest(query, found.client, baseUrl, resource);
      if ('page' in checked) return checked.page;
      if ('redirect' in checked) return redirect(checked.redirect);
      const { client } = found;
      if (context.session === null) {
        return renderOAuthPage({ title: `Sign in to connect ${client.name}`, main: signInBlock(`${selfDescribed(client)} asks to read your partner listings. Sign in to decide.`, `${request.path}?${request.query}`), signIn: true });
      }
      if (!recentPasskey(context.session, context.nowMs)) {
        return renderOAuthPage({ title: `Confirm it is you to connect ${client.name}`, main: confirmBlock(`${selfDescribed(client)} asks to read your partner listings for up to ${GRANT_ABSOLUTE_MS / 86_400_000} days. Connecting an app needs your passkey again (at most every ${RECENT_PASSKEY_MS / 60_000} minutes), so a copied session cookie cannot do it.`), signIn: true });
      }
      const account = accounts.account(context.session.account)!;
      const token = grants.startConsent(checked.request, context.session.tokenHash, context.nowMs);
      return consentPage(client, checked.request, account.display_name, token);
    },
  });

  chain.route(server, {
    method: 'POST',
    pattern: OAUTH_PATHS.authorize,
    needs: DECISION_NEEDS,
    contentSecurityPolicy: OAUTH_PAGE_CSP,
    headers: ['content-type'],
    body: { maxBytes: 4096, tooLargeStatus: 400 },
    renderRefusal: pageRefusal,
    handle: (request, context) => {
      const form = formFields(request.headers['content-type'], request.body);
      const token = form?.get('consent');
      const decision = form?.get('decision');
      if (token === undefined || (decision !== 'approve' && decision !== 'deny')) {
        return errorPage(400, 'The form was not sent whole', 'Answer the consent page with its Approve or Deny button.');
      }
      if (context.session === null) return errorPage(401, 'You are signed out', 'Sign in again from the app that asked, and decide once more.');
      if (decision === 'approve' && !recentPasskey(context.session, context.nowMs)) {
        return errorPage(401, 'Confirm it is you first', `Approving needs a passkey sign-in from the last ${RECENT_PASSKEY_MS / 60_000} minutes. Go back to the app and start the connection again: the page then asks for your passkey. Nothing was shared.`);
      }
      const consent = grants.takeConsent(token, context.session.tokenHash, context.nowMs);
      if (consent === null) return errorPage(400, 'This consent form has ended', 'It was answered already, is older than 10 minutes, or was shown to another session. Start the connection again from the app.');
      if (decision === 'deny') {
        log.info('oauth authorization denied', { client: consent.client_id });
        return redirect(withParams(consent.redirect_uri, { error: 'access_denied', error_description: 'The person denied the request.', state: consent.state, iss: baseUrl }));
      }
      const code = grants.issueCode(consent, context.session.account, context.nowMs);
      log.info('oauth authorization approved', { client: consent.client_id, account: context.session.account });
      return redirect(withParams(consent.redirect_uri, { code, state: consent.state, iss: baseUrl }));
    },
  });

  function consentPage(client: ClientRow, request: AuthorizationRequest, accountName: string, token: string): HttpReply {
    const redirectUrl = new URL(request.redirect_uri);
    const metadata = JSON.parse(client.metadata) as { client_uri?: string };
    const days = (ms: number) => `${ms / 86_400_000} days`;
    const documentHost = isDocumentClientId(client.id) ? new URL(client.id).host : null;
    const main = `<p><strong>${escapeHtml(client.name)}</strong> <span class="hint">(the name the app gave itself; not verified by us)</span> asks to act for your account, <strong>${escapeHtml(accountName)}</strong>.</p>
<dl>
${documentHost === null ? '' : `<dt>Describes itself at</dt><dd><strong>${escapeHtml(documentHost)}</strong><br><span class="hint">${escapeHtml(client.id)}: the app's own description, fetched from there; we have not verified who runs ${escapeHtml(documentHost)}</span></dd>`}
<dt>Returns you to</dt><dd><strong>${escapeHtml(redirectUrl.host)}</strong><br><span class="hint">${escapeHtml(request.redirect_uri)}</span></dd>
${metadata.client_uri ? `<dt>Says its home page is</dt><dd>${escapeHtml(metadata.client_uri)}</dd>` : ''}
</dl>
${documentHost !== null && LOOPBACK_REDIRECT.test(request.redirect_uri) ? `<p class="warning">It returns you to a program on this computer (${escapeHtml(redirectUrl.host)}): any program here could claim to be ${escapeHtml(client.name)}.</p>` : ''}
<h2>It gets</h2>
<ul class="grants">
<li>Read access to your partner claims, billing state and partner profiles (conditions, hours, temporary closures).</li>
<li>Account events: notices when a claim's status or a profile changes, sent to an address the app chooses.</li>
</ul>
<p>It cannot change anything, and it does not see your passkeys or your e-mail address.</p>
<h2>For how long</h2>
<p>Until you revoke it on <a href="${OAUTH_PATHS.connections}">your connections page</a>, at most ${days(GRANT_ABSOLUTE_MS)}; it ends sooner when the app does not use it for ${days(REFRESH_IDLE_MS)}.</p>
<p class="warning">Approve only if you started this from ${escapeHtml(client.name)} yourself and trust ${escapeHtml(documentHost === null || documentHost === redirectUrl.host ? redirectUrl.host : `${documentHost} and ${redirectUrl.host}`)}.</p>
<form method="post" action="${OAUTH_PATHS.authorize}">
<input type="hidden" name="consent" value="${escapeHtml(token)}">
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`;
    return renderOAuthPage({ title: documentHost === null ? `Connect ${client.name} to your account?` : `Connect ${client.name} (${documentHost}) to your account?`, main });
  }

  /**
   * The client a client_id names: a registered one, or the one its client ID metadata document describes
   * (fetched when the stored copy is not fresh); else our own page, with the RFC error code and what is wrong.
   */
  async function findClient(clientId: string | null, nowMs: number): Promise<{ client: ClientRow } | { page: HttpReply }> {
    if (clientId !== null && isDocumentClientId(clientId)) {
      const resolved = await documents.resolve(clientId, nowMs);
      if ('client' in resolved) return resolved;
      const { error, error_description } = resolved.refused;
      const status = error === 'temporarily_unavailable' ? 503 : 400;
      return { page: errorPage(status, 'The app cannot be identified', `${error_description} Nothing was shared, and you are not sent back to the app.`, error) };
    }
    const client = clientId === null ? null : store.client(clientId);
    if (client === null) return { page: errorPage(400, 'Unknown app', 'The app that sent you here is not registered with this service (client_id is missing or unknown). Nothing was shared.', 'invalid_client') };
    return { client };
  }
}

/** The client as it describes itself, marked as such; a document's client with the host of its document. */
function selfDescribed(client: ClientRow): string {
  const host = isDocumentClientId(client.id) ? `, described at ${new URL(client.id).host}` : '';
  return `${client.name} (a name it gave itself${host}; not verified by us)`;
}

/** Each parameter may appear once (RFC 6749 section 3.1); our own page when one repeats. */
function repeatedParameter(query: URLSearchParams): { page: HttpReply } | null {
  const seen = new Set<string>();
  for (const name of query.keys()) {
    if (seen.has(name)) return { page: errorPage(400, 'The request is malformed', `The parameter ${name} appears more than once; each may appear once. Start again from the app.`, 'invalid_request') };
    seen.add(name);
  }
  return null;
}

/** Checks an authorization request of a known client in the order that keeps errors off unvalidated redirect URIs. */
function checkRequest(query: URLSearchParams, client: ClientRow, issuer: string, resource: string): Checked {
  const redirectUri = query.get('redirect_uri');
  if (redirectUri === null || !redirectUriRegistered(JSON.parse(client.redirect_uris) as string[], redirectUri)) {
    return { page: errorPage(400, 'Unknown return address', `${client.name} asked to return you to an address it did not register (redirect_uri missing or not one of its registered URIs). Nothing was shared, and you are not sent there.`) };
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

/** A page of ours for a request that cannot go back to the app; `error` is its RFC 6749 code, shown for the app's developer. */
function errorPage(status: number, title: string, detail: string, error?: string): HttpReply {
  const code = error === undefined ? '' : `\n<p class="hint">Error code for the app's developer: <code>${escapeHtml(error)}</code></p>`;
  return renderOAuthPage({ title, main: `<p>${escapeHtml(detail)}</p>${code}`, status });
}

