// The endpoints clients call: /oauth/register (RFC 7591), /oauth/token (authorization_code with PKCE S256,
// refresh_token) and /oauth/revoke (RFC 7009), registry entries (operations.ts) behind the guard chain for
// the per-IP budgets (registration its own, OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE, never the sign-in
// attempts'; the others the API's) and the body limit; the chain reads the token and revocation forms into
// the handlers' input. Answers and errors in the RFCs' JSON, no-store.
// Public clients only: a client proves itself with PKCE and its exact redirect URI, never a secret. CORS
// is open: nothing here reads a cookie, and browser-based agents call these endpoints too.
import { GuardChain, NOT_JSON, parseJson, type GuardDeps } from '../api/guards.js';
import { CorsPolicy } from '../http/cors.js';
import type { HttpRequestInfo, HttpServer, RouteResult } from '../http/server.js';
import { routeIn } from '../schemas/operations.js';
import type { InputOf } from '../schemas/answer-types.js';
import type { Logger } from '../log.js';
import { jsonAnswer, oauthError, refusalAsOAuthError, temporarilyUnavailable, unavailableStorage } from './answers.js';
import { checkRegistration, clientRow } from './clients.js';
import { OAUTH_PATHS, OAUTH_ROUTES } from './operations.js';
import type { Grants } from './grants.js';
import { UNAUTHORIZED_CLIENT_MS } from './lifetimes.js';
import type { OAuthStore } from './store.js';

const CLIENT_CORS = new CorsPolicy({ allowHeaders: ['Content-Type'], exposeHeaders: ['Retry-After'], maxAgeSeconds: 86400 });

export interface EndpointDeps {
  guards: GuardDeps;
  store: OAuthStore;
  grants: Grants;
  log: Logger;
  /** OAUTH_PENDING_CLIENTS_MAX: most stored clients nobody authorized yet (the oldest is evicted). */
  pendingClientsMax: number;
}

export function registerClientEndpoints(server: HttpServer, deps: EndpointDeps): void {
  const { store, grants, log, pendingClientsMax } = deps;
  const chain = new GuardChain(deps.guards);
  const known = async (clientId: string) => (await store.read((tables) => tables.client(clientId))) !== null;
  /** An endpoint's entry behind the chain; its handler gets the form's fields the entry declares. */
  const post = <P extends OAuthClientPath>(path: P, handle: (input: InputOf<OAuthEntry<P>>, request: HttpRequestInfo, nowMs: number) => Promise<RouteResult>) =>
    chain.operation(server, routeIn(OAUTH_ROUTES, 'post', path), {
      headers: ['content-type'],
      cors: CLIENT_CORS,
      handle: async (request, context) => {
        try {
          return withHeaders(await handle(context.input as InputOf<OAuthEntry<P>>, request, context.nowMs), context.headers);
        } catch (error) {
          const trouble = unavailableStorage(error, log, request.path);
          if (trouble === null) throw error;
          return temporarilyUnavailable(trouble, context.headers);
        }
      },
      renderRefusal: (refusal, context, _request, status) => refusalAsOAuthError(refusal, status, context.headers),
    });

  post<typeof OAUTH_PATHS.register>(OAUTH_PATHS.register, async (_input, request, nowMs) => {
    if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'])) return oauthError(400, 'invalid_client_metadata', 'Send the client metadata as application/json (RFC 7591).');
    const body: unknown = parseJson(request.body ?? Buffer.alloc(0));
    if (body === NOT_JSON) return oauthError(400, 'invalid_client_metadata', 'The body is not valid JSON; send the client metadata as a JSON object.');
    const checked = checkRegistration(body, nowMs);
    if ('error' in checked) return oauthError(400, checked.error, checked.error_description);
    // bounded, not refused: a cap on registrations would lock out every new agent
    await store.transaction(function* (tables) {
      yield* tables.insertClient(clientRow(checked, nowMs));
      yield* tables.boundUnauthorized(nowMs - UNAUTHORIZED_CLIENT_MS, pendingClientsMax);
    });
    log.info('oauth client registered', { client: checked.client_id });
    return jsonAnswer(201, checked);
  });

  post<typeof OAUTH_PATHS.token>(OAUTH_PATHS.token, async (form, _request, nowMs) => {
    const clientId = form.client_id;
    if (clientId === undefined || !(await known(clientId))) {
      return oauthError(401, 'invalid_client', 'client_id is missing or unknown: register the client at /oauth/register first, or use a client ID metadata document URL that has been through /oauth/authorize, and send that client_id.');
    }
    const resource = form.resource ?? null;
    const grantType = form.grant_type;
    let outcome;
    if (grantType === 'authorization_code') {
      const code = form.code;
      const redirectUri = form.redirect_uri;
      if (code === undefined || redirectUri === undefined) return oauthError(400, 'invalid_request', 'Send code and redirect_uri (the one of the authorization request) with code_verifier.');
      outcome = await grants.redeemCode({ code, clientId, redirectUri, verifier: form.code_verifier ?? '', resource }, nowMs);
    } else if (grantType === 'refresh_token') {
      const refreshToken = form.refresh_token;
      if (refreshToken === undefined) return oauthError(400, 'invalid_request', 'Send refresh_token.');
      outcome = await grants.refresh({ refreshToken, clientId, resource }, nowMs);
    } else {
      return oauthError(400, grantType === undefined ? 'invalid_request' : 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }
    if ('error' in outcome) {
      if (outcome.error === 'invalid_grant' && /revoked/.test(outcome.error_description)) log.info('oauth grant ended by a reused credential', { client: clientId });
      return oauthError(400, outcome.error, outcome.error_description);
    }
    return jsonAnswer(200, outcome);
  });

  post<typeof OAUTH_PATHS.revoke>(OAUTH_PATHS.revoke, async (form) => {
    const token = form.token;
    if (token === undefined) return oauthError(400, 'invalid_request', 'Send token, the access or refresh token to revoke.');
    const clientId = form.client_id;
    if (clientId === undefined || !(await known(clientId))) return oauthError(401, 'invalid_client', 'client_id is missing or unknown: send the client_id the token was issued to.');
    // RFC 7009 section 2.2: unknown, ended and other clients' tokens are answered 200 as well
    await grants.revoke(token, clientId);
    return jsonAnswer(200, {});
  });
}

/** The endpoints clients call, by path, and their entries. */
type OAuthClientPath = (typeof OAUTH_PATHS)['register' | 'token' | 'revoke'];
type OAuthEntry<P extends OAuthClientPath> = Extract<(typeof OAUTH_ROUTES)[number], { readonly method: 'post'; readonly path: P }>;

function withHeaders(result: RouteResult, headers: readonly string[]): RouteResult {
  if (result instanceof Response || headers.length === 0) return result;
  return { ...result, headers: [...(result.headers ?? []), ...headers] };
}
