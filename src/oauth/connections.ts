// /oauth/connections: the signed-in person's connected apps (name, since, last used) with a Revoke button
// each. Revoking ends the grant at once: its tokens stop working on the next request and its event
// subscriptions get a terminated envelope. The Revoke POST must come from this page (Origin); the session
// cookie is SameSite=Lax, so another site's form carries none.
import { GuardChain, type GuardDeps, type GuardNeeds } from '../api/guards.js';
import type { HttpReply } from '../http/reply.js';
import type { HttpServer } from '../http/server.js';
import { RATE_LIMIT_POLICIES } from '../schemas/operations.js';
import type { Logger } from '../log.js';
import { formFields, NO_STORE } from './answers.js';
import { isDocumentClientId } from './client-documents.js';
import { OAUTH_PATHS } from './discovery.js';
import type { Grants } from './grants.js';
import { escapeHtml, OAUTH_PAGE_CSP, pageRefusal, renderOAuthPage, signInBlock } from './page.js';
import type { ConnectionRow, OAuthStore } from './store.js';

const PAGE_NEEDS: GuardNeeds = { rateLimit: RATE_LIMIT_POLICIES.perIp, guards: { session: 'optional' } };
const REVOKE_NEEDS: GuardNeeds = { rateLimit: RATE_LIMIT_POLICIES.perIp, guards: { origin: 'site', session: 'optional' } };

export interface ConnectionsDeps {
  guards: GuardDeps;
  store: OAuthStore;
  grants: Grants;
  log: Logger;
}

export function registerConnections(server: HttpServer, deps: ConnectionsDeps): void {
  const { store, grants, log } = deps;
  const chain = new GuardChain(deps.guards);
  const refused = (detail: string, status: number): HttpReply => renderOAuthPage({ title: 'This request cannot be answered', main: `<p>${escapeHtml(detail)}</p>`, status });

  chain.route(server, {
    method: 'GET',
    pattern: OAUTH_PATHS.connections,
    needs: PAGE_NEEDS,
    contentSecurityPolicy: OAUTH_PAGE_CSP,
    renderRefusal: pageRefusal,
    handle: (request, context) => {
      if (context.session === null) return renderOAuthPage({ title: 'Connected apps', main: signInBlock('Sign in to see the apps connected to your account.', OAUTH_PATHS.connections), signIn: true });
      const revoked = new URLSearchParams(request.query).get('revoked') === '1';
      return renderOAuthPage({ title: 'Connected apps', main: connectionsList(store.connections(context.session.account), revoked) });
    },
  });

  chain.route(server, {
    method: 'POST',
    pattern: OAUTH_PATHS.connections,
    needs: REVOKE_NEEDS,
    contentSecurityPolicy: OAUTH_PAGE_CSP,
    headers: ['content-type'],
    body: { maxBytes: 1024, tooLargeStatus: 400 },
    renderRefusal: pageRefusal,
    handle: (request, context) => {
      if (context.session === null) return refused('You are signed out: sign in on the connections page, then revoke again.', 401);
      const grantId = formFields(request.headers['content-type'], request.body)?.get('grant');
      if (grantId === undefined || !grants.revokeForAccount(grantId, context.session.account)) {
        return refused('Your account has no such connection (revoked already?). Go back to the connections page.', 404);
      }
      log.info('oauth grant revoked by the account', { account: context.session.account, grant: grantId });
      return { status: 303, headers: ['Location', `${OAUTH_PATHS.connections}?revoked=1`, ...NO_STORE] };
    },
  });
}

function connectionsList(connections: ConnectionRow[], revoked: boolean): string {
  const done = revoked ? '<p role="status">The connection is revoked: the app can no longer read your listings or receive your events.</p>' : '';
  if (connections.length === 0) return `${done}<p>No app is connected to your account.</p>`;
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const rows = connections
    .map(
      (c) => `<tr><td><strong>${escapeHtml(c.client_name)}</strong><br><span class="hint">not verified by us; ${documentHost(c.client_id)}returns to ${escapeHtml(redirectHosts(c.client_metadata))}</span></td><td>${date(c.created_at)}</td><td>${date(c.last_used_at)}</td>
<td><form method="post" action="${OAUTH_PATHS.connections}"><input type="hidden" name="grant" value="${escapeHtml(c.id)}"><button type="submit">Revoke</button></form></td></tr>`,
    )
    .join('\n');
  return `${done}<p>These apps can read your partner listings and receive your account events. Revoking one stops it at once.</p>
<table><thead><tr><th scope="col">App</th><th scope="col">Since</th><th scope="col">Last used</th><th scope="col"><span class="hint">Action</span></th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

/** Where a client ID metadata document's client describes itself ("described at host; "), else nothing. */
function documentHost(clientId: string): string {
  return isDocumentClientId(clientId) ? `described at ${escapeHtml(new URL(clientId).host)}; ` : '';
}

function redirectHosts(metadata: string): string {
  return [...new Set((JSON.parse(metadata) as { redirect_uris: string[] }).redirect_uris.map((uri) => new URL(uri).host))].join(', ');
}
