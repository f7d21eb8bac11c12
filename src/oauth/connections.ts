// /oauth/connections: the signed-in person's connected apps (name, since, last used) with a Revoke button
// each. Revoking ends the grant at once: its tokens stop working on the next request and its event
// subscriptions get a terminated envelope. The Revoke POST must come from this page (Origin); the session
// cookie is SameSite=Lax, so another site's form carries none.
import { GuardChain, type GuardDeps } from '../api/guards.js';
import type { HttpServer } from '../http/server.js';
import { routeIn } from '../schemas/operations.js';
import type { Logger } from '../log.js';
import { NO_STORE } from './answers.js';
import { formFields } from '../http/form.js';
import { isDocumentClientId } from './client-documents.js';
import { OAUTH_PATHS, OAUTH_ROUTES } from './operations.js';
import type { Grants } from './grants.js';
import { errorPage, escapeHtml, OAUTH_PAGE_CSP, orUnavailablePage, pageRefusal, renderOAuthPage, signInBlock } from './page.js';
import type { ConnectionRow, OAuthStore } from './store.js';
import { formatDay, LANGUAGE_HEADERS, say, type Language, type PageTextKey } from './text/texts.js';

export interface ConnectionsDeps {
  guards: GuardDeps;
  store: OAuthStore;
  grants: Grants;
  log: Logger;
  baseUrl: string;
}

export function registerConnections(server: HttpServer, deps: ConnectionsDeps): void {
  const { store, grants, log } = deps;
  const chain = new GuardChain(deps.guards);
  const secure = deps.baseUrl.startsWith('https:');

  chain.operation(server, routeIn(OAUTH_ROUTES, 'get', OAUTH_PATHS.connections), {
    contentSecurityPolicy: OAUTH_PAGE_CSP,
    headers: LANGUAGE_HEADERS,
    renderRefusal: pageRefusal(secure),
    handle: (request, context) => orUnavailablePage(request, secure, deps.log, async (language) => {
      const title = say(language.lang, 'connections.title');
      if (context.session === null) return renderOAuthPage({ language, title, main: signInBlock(language.lang, say(language.lang, 'connections.signIn'), OAUTH_PATHS.connections), signIn: true });
      const revoked = new URLSearchParams(request.query).get('revoked') === '1';
      const { account } = context.session;
      return renderOAuthPage({ language, title, main: connectionsList(language.lang, await store.read((tables) => tables.connections(account)), revoked) });
    }),
  });

  chain.operation(server, routeIn(OAUTH_ROUTES, 'post', OAUTH_PATHS.connections), {
    contentSecurityPolicy: OAUTH_PAGE_CSP,
    headers: ['content-type', ...LANGUAGE_HEADERS],
    renderRefusal: pageRefusal(secure),
    handle: (request, context) => orUnavailablePage(request, secure, deps.log, async (language) => {
      const refused = (status: number, key: 'connections.signedOut' | 'connections.noSuch') => errorPage(language, status, say(language.lang, 'error.refusedTitle'), say(language.lang, key));
      if (context.session === null) return refused(401, 'connections.signedOut');
      const grantId = formFields(request.headers['content-type'], request.body)?.get('grant');
      if (grantId === undefined || !(await grants.revokeForAccount(grantId, context.session.account))) return refused(404, 'connections.noSuch');
      log.info('oauth grant revoked by the account', { account: context.session.account, grant: grantId });
      return { status: 303, headers: ['Location', `${OAUTH_PATHS.connections}?revoked=1`, ...NO_STORE] };
    }),
  });
}

function connectionsList(lang: Language, connections: ConnectionRow[], revoked: boolean): string {
  const t = (key: PageTextKey) => escapeHtml(say(lang, key));
  const done = revoked ? `<p role="status">${t('connections.revoked')}</p>` : '';
  if (connections.length === 0) return `${done}<p>${t('connections.none')}</p>`;
  const rows = connections
    .map(
      (c) => `<tr><td><strong>${escapeHtml(c.client_name)}</strong><br><span class="hint">${escapeHtml(clientHint(lang, c))}</span></td><td>${formatDay(lang, c.created_at)}</td><td>${formatDay(lang, c.last_used_at)}</td>
<td><form method="post" action="${OAUTH_PATHS.connections}"><input type="hidden" name="grant" value="${escapeHtml(c.id)}"><button type="submit">${t('connections.revoke')}</button></form></td></tr>`,
    )
    .join('\n');
  return `${done}<p>${t('connections.intro')}</p>
<table><thead><tr><th scope="col">${t('connections.app')}</th><th scope="col">${t('connections.since')}</th><th scope="col">${t('connections.lastUsed')}</th><th scope="col"><span class="hint">${t('connections.action')}</span></th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

/** "not verified by us; described at <the document's host>; returns to <redirect hosts>". */
function clientHint(lang: Language, connection: ConnectionRow): string {
  const hosts = [...new Set((JSON.parse(connection.client_metadata) as { redirect_uris: string[] }).redirect_uris.map((uri) => new URL(uri).host))].join(', ');
  const described = isDocumentClientId(connection.client_id) ? [say(lang, 'connections.describedAt', { host: new URL(connection.client_id).host })] : [];
  return [say(lang, 'connections.notVerified'), ...described, say(lang, 'connections.returnsTo', { hosts })].join('; ');
}
