// The protected MCP endpoint at {base_url}/mcp/account: the SDK's web-standard handler behind our uWS
// server, protocol 2026-07-28 only (the legacy era is refused with -32022 naming the supported version:
// account events need the modern era's per-request capabilities, and no 2025-era client of this endpoint
// exists to keep working). In front of the handler, the guard chain as on /mcp (the per-IP budget REST
// shares, the Origin allowlist, the body limit), then the Bearer token checked on every request against its
// grant (src/oauth), so a revoked grant or a deleted account stops the next request. Discovery and lists
// are private and never cached (ttlMs 0): what they hold depends on the caller and on the relay's state.
import type { AuthInfo, McpServer, OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { GuardChain, type Refusal } from '../api/guards.js';
import { STORAGE_RETRY_SECONDS } from '../api/server-hooks.js';
import { storageTrouble } from '../storage/errors.js';
import type { Limits } from '../api/limits.js';
import type { Config } from '../config.js';
import { CorsPolicy, PUBLIC_READ_EXPOSED_HEADERS } from '../http/cors.js';
import { toWebRequest } from '../http/fetch-bridge.js';
import type { Problems } from '../http/problem.js';
import type { HttpRequestInfo, HttpServer } from '../http/server.js';
import type { Logger } from '../log.js';
import { headerPairs, parseBody, refusalError, refusalResponse, withHeaders, type HeaderPair, type JsonRpcError } from '../mcp/json-rpc.js';
import { MAX_MCP_BODY_BYTES } from '../mcp/operations.js';
import { SERVER_INFO } from '../mcp/server-card.js';
import { mcpSdk, type McpSdk } from '../mcp/sdk.js';
import { accountResource, resourceMetadataUrl } from '../oauth/discovery.js';
import { ACCOUNT_MCP_ROUTES } from './operations.js';
import type { Grants } from '../oauth/grants.js';
import { SCOPE } from '../oauth/lifetimes.js';

/** Who the caller is, as the tools and event handlers read it from `authInfo.extra`. */
export interface Principal {
  account: string;
  grant: string;
}

/** What the endpoint adds to each per-request server instance: tools, event handlers, capabilities. */
export interface AccountFeature {
  /** Capabilities to advertise for this request (decided live: the events relay may be down). */
  capabilities?(era: 'modern' | 'legacy'): Record<string, unknown>;
  /** What the feature loads before its first request (the SDK itself is loaded then, see src/mcp/sdk.ts). */
  load?(): Promise<void>;
  register(server: McpServer, sdk: McpSdk): void;
}

export interface AccountMcpDeps {
  config: Config;
  limits: Limits;
  problems: Problems;
  grants: Grants;
  features: readonly AccountFeature[];
  log: Logger;
  now: () => number;
}

export interface AccountMcpEndpoint {
  close(): Promise<void>;
}

/** Nothing here may be kept past the request: it is one account's, and the relay's state changes. */
const PRIVATE_NOW = { ttlMs: 0, cacheScope: 'private' } as const;
const CORS = new CorsPolicy({
  allowHeaders: ['Content-Type', 'Accept', 'Authorization', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name'],
  exposeHeaders: [...PUBLIC_READ_EXPOSED_HEADERS, 'WWW-Authenticate'],
  maxAgeSeconds: 86400,
});

const INSTRUCTIONS =
  "Acts for one account of the Public Toilet Finder, with the account's OAuth access token: get_my_partner_listings reads its partner claims and listings " +
  '(claim status, plan, profile). Read-only: nothing here changes the account. Account events, when advertised, report claim status and profile changes by webhook.';

/** What a request answers while the store cannot be reached: what cannot be done now, why, and when to send again. */
function unavailable(what: string, trouble: string): Refusal {
  const detail = `${what}: the service cannot read or store anything (${trouble}). Send the request again in ${STORAGE_RETRY_SECONDS} seconds`;
  return { slug: 'unavailable', detail, retryAfterSeconds: STORAGE_RETRY_SECONDS };
}

/** The requests whose handler met storage trouble (storeUnavailable), answered 503 once the handler returned. */
const troubled = new WeakMap<AuthInfo, { trouble: string; refusal: Refusal; error: string }>();

/**
 * For a handler of this endpoint that met `error`: when it is storage trouble (src/storage/errors.ts), the
 * JSON-RPC error every /mcp/account request answers for it (-32000 saying `what` cannot be done now, why,
 * and `retry_after_seconds`), for the handler to throw; the endpoint then answers the request 503 with
 * Retry-After, as it answers a token it cannot look up. null for any other error: the handler's own.
 */
export function storeUnavailable(authInfo: AuthInfo | undefined, error: unknown, what: string): JsonRpcError | null {
  const trouble = storageTrouble(error);
  if (trouble === null) return null;
  const refusal = unavailable(what, trouble);
  if (authInfo !== undefined) troubled.set(authInfo, { trouble, refusal, error: String(error) });
  return refusalError(refusal);
}

/** The principal of a verified request (set by the verifier below). */
export function principalOf(authInfo: AuthInfo | undefined): Principal {
  const extra = authInfo?.extra as Partial<Principal> | undefined;
  if (typeof extra?.account !== 'string' || typeof extra.grant !== 'string') throw new Error('no verified principal: the bearer check did not run');
  return { account: extra.account, grant: extra.grant };
}

export function registerAccountMcp(server: HttpServer, deps: AccountMcpDeps): AccountMcpEndpoint {
  const { config, limits, problems, grants, features, log, now } = deps;
  const resource = new URL(accountResource(config.baseUrl));
  const metadataUrl = resourceMetadataUrl(config.baseUrl);
  const bearerCheck = ({ OAuthError, OAuthErrorCode }: McpSdk) => {
    const verifier: OAuthTokenVerifier = {
      verifyAccessToken: async (token) => {
        const grant = await grants.verifyAccess(token, now());
        if (grant === null) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token is unknown, expired or revoked; refresh it or authorize again.');
        const principal: Principal = { account: grant.account_id, grant: grant.id };
        // Expiry was decided above on the injected clock; the SDK compares expiresAt with the wall clock
        // again, so it gets the token's remaining lifetime on that clock.
        const expiresAt = Math.floor((Date.now() + grant.expires_at - now()) / 1000);
        return { token, clientId: grant.client_id, scopes: grant.scope.split(' '), expiresAt, resource: new URL(grant.resource), extra: { ...principal } };
      },
    };
    return { verifier, requiredScopes: [SCOPE], resourceMetadataUrl: metadataUrl, expectedResource: resource };
  };

  // The SDK and the features' own modules are loaded at the first request, as on /mcp (src/mcp/sdk.ts).
  const createHandler = (sdk: McpSdk) => {
    const handler = sdk.createMcpHandler(
      (ctx) => {
        const capabilities = Object.assign({ tools: { listChanged: false } }, ...features.map((f) => f.capabilities?.(ctx.era) ?? {})) as Record<string, unknown>;
        const instance = new sdk.McpServer({ ...SERVER_INFO, name: `${SERVER_INFO.name}-account` }, { capabilities, instructions: INSTRUCTIONS, cacheHints: { 'tools/list': PRIVATE_NOW, 'server/discover': PRIVATE_NOW } });
        for (const feature of features) feature.register(instance, sdk);
        return instance;
      },
      { legacy: 'reject', maxRequestBodySize: MAX_MCP_BODY_BYTES, onerror: (error) => log.info('mcp account request refused or failed', { error: error.message }) },
    );
    return { sdk, handler, bearer: bearerCheck(sdk) };
  };
  let loaded: Promise<ReturnType<typeof createHandler>> | undefined;
  const requestOrigin = new URL(config.baseUrl).origin;
  const chain = new GuardChain({ config, limits, problems, now });

  const serve = async (request: HttpRequestInfo, rateHeaders: HeaderPair[]): Promise<Response> => {
    loaded ??= Promise.all([mcpSdk(), ...features.map((f) => f.load?.())]).then(([sdk]) => createHandler(sdk));
    const { sdk, handler, bearer } = await loaded;
    const { verifyBearerToken, bearerAuthChallengeResponse } = sdk;
    let authInfo: AuthInfo;
    try {
      authInfo = await verifyBearerToken(request.headers.authorization || undefined, bearer);
    } catch (error) {
      const trouble = storageTrouble(error);
      if (trouble === null) return withHeaders(bearerAuthChallengeResponse(error, bearer), [...rateHeaders, ['Cache-Control', 'no-store']]);
      // the token could not be looked up: a JSON-RPC error with Retry-After, not a verdict on the token
      log.error(`storage unavailable: ${trouble}`, { path: request.path, error: String(error) });
      return refusalResponse(unavailable('The access token cannot be checked now', trouble), 503, [...rateHeaders, ['Cache-Control', 'no-store']], request.body);
    }
    const message = parseBody(request.body);
    const response = await handler.fetch(toWebRequest(request, requestOrigin, message === undefined), message === undefined ? { authInfo } : { authInfo, parsedBody: message });
    const failed = troubled.get(authInfo);
    if (failed === undefined) return withHeaders(response, [...rateHeaders, ['Cache-Control', 'no-store']]);
    // a store the handler needed cannot be reached: the same error, with the status and Retry-After the SDK cannot set
    await response.body?.cancel();
    log.error(`storage unavailable: ${failed.trouble}`, { path: request.path, error: failed.error });
    return refusalResponse(failed.refusal, 503, [...rateHeaders, ['Cache-Control', 'no-store']], request.body);
  };
  for (const entry of ACCOUNT_MCP_ROUTES) {
    chain.operation(server, entry, {
      headers: 'all',
      cors: CORS,
      handle: (request, context) => serve(request, headerPairs(context.headers)),
      renderRefusal: (refusal, context, request, status) => refusalResponse(refusal, status, headerPairs(context.headers), request.body),
    });
  }
  return { close: async () => (loaded === undefined ? undefined : (await loaded).handler.close()) };
}
