// The pages of an authorization request that is valid: sign in first, confirm with a passkey, or the consent
// itself, in the visitor's language. What the client says about itself is marked as such everywhere; a
// client ID metadata document's client is shown with the host its document came from (the draft asks for it:
// the name is the client's own choice, the host is where it lives), and a loopback-only return address gets a
// warning (MCP: any program on the person's computer can listen there).
import type { HttpReply } from '../http/reply.js';
import type { PageLanguage } from '../web/page-language.js';
import { isDocumentClientId } from './client-documents.js';
import { OAUTH_PATHS } from './operations.js';
import { GRANT_ABSOLUTE_MS, REFRESH_IDLE_MS } from './lifetimes.js';
import { confirmBlock, escapeHtml, renderOAuthPage, signInBlock } from './page.js';
import type { AuthorizationRequest, ClientRow } from './store.js';
import { say, sayHtml, type Language } from './text/texts.js';

const DAY_MS = 86_400_000;
const LOOPBACK_REDIRECT = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)[:/]/;

/** The host a document's client describes itself at, or null for a registered client. */
function documentHost(client: ClientRow): string | null {
  return isDocumentClientId(client.id) ? new URL(client.id).host : null;
}

/** The client as it describes itself, marked as such. */
function selfDescribed(lang: Language, client: ClientRow): string {
  const host = documentHost(client);
  return host === null ? say(lang, 'client.self', { name: client.name }) : say(lang, 'client.selfAt', { name: client.name, host });
}

export function signInPage(language: PageLanguage, client: ClientRow, returnPath: string): HttpReply {
  const { lang } = language;
  const main = signInBlock(lang, say(lang, 'authorize.signInAsks', { client: selfDescribed(lang, client) }), returnPath);
  return renderOAuthPage({ language, title: say(lang, 'authorize.signInTitle', { name: client.name }), main, signIn: true });
}

export function confirmPage(language: PageLanguage, client: ClientRow, recentPasskeyMs: number): HttpReply {
  const { lang } = language;
  const main = confirmBlock(lang, say(lang, 'authorize.confirmAsks', { client: selfDescribed(lang, client), days: GRANT_ABSOLUTE_MS / DAY_MS, minutes: recentPasskeyMs / 60_000 }));
  return renderOAuthPage({ language, title: say(lang, 'authorize.confirmTitle', { name: client.name }), main, signIn: true });
}

export function consentPage(language: PageLanguage, client: ClientRow, request: AuthorizationRequest, accountName: string, token: string): HttpReply {
  const { lang } = language;
  const t = (key: Parameters<typeof say>[1]) => escapeHtml(say(lang, key));
  const returnHost = new URL(request.redirect_uri).host;
  const home = (JSON.parse(client.metadata) as { client_uri?: string }).client_uri;
  const host = documentHost(client);
  const name = escapeHtml(client.name);
  const trusted = host === null || host === returnHost ? escapeHtml(returnHost) : sayHtml(lang, 'consent.hostsAnd', { first: escapeHtml(host), second: escapeHtml(returnHost) });
  const main = `<p>${sayHtml(lang, 'consent.asks', { client: `<strong>${name}</strong> <span class="hint">${t('consent.nameHint')}</span>`, account: `<strong>${escapeHtml(accountName)}</strong>` })}</p>
<dl>
${host === null ? '' : `<dt>${t('consent.describedAt')}</dt><dd><strong>${escapeHtml(host)}</strong><br><span class="hint">${escapeHtml(client.id)}<br>${sayHtml(lang, 'consent.describedHint', { host: escapeHtml(host) })}</span></dd>`}
<dt>${t('consent.returnsTo')}</dt><dd><strong>${escapeHtml(returnHost)}</strong><br><span class="hint">${escapeHtml(request.redirect_uri)}</span></dd>
${home ? `<dt>${t('consent.homePage')}</dt><dd>${escapeHtml(home)}</dd>` : ''}
</dl>
${host !== null && LOOPBACK_REDIRECT.test(request.redirect_uri) ? `<p class="warning">${sayHtml(lang, 'consent.loopback', { host: escapeHtml(returnHost), name })}</p>` : ''}
<h2>${t('consent.gets')}</h2>
<ul class="grants">
<li>${t('consent.read')}</li>
<li>${t('consent.events')}</li>
</ul>
<p>${t('consent.cannot')}</p>
<h2>${t('consent.howLong')}</h2>
<p>${sayHtml(lang, 'consent.until', { link: `<a href="${OAUTH_PATHS.connections}">${t('consent.connectionsLink')}</a>`, absolute: GRANT_ABSOLUTE_MS / DAY_MS, idle: REFRESH_IDLE_MS / DAY_MS })}</p>
<p class="warning">${sayHtml(lang, 'consent.warning', { name, hosts: trusted })}</p>
<form method="post" action="${OAUTH_PATHS.authorize}">
<input type="hidden" name="consent" value="${escapeHtml(token)}">
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">${t('consent.approve')}</button>
<button type="submit" name="decision" value="deny">${t('consent.deny')}</button>
</div>
</form>`;
  const title = host === null ? say(lang, 'consent.title', { name: client.name }) : say(lang, 'consent.titleAt', { name: client.name, host });
  return renderOAuthPage({ language, title, main });
}
