// The discovery documents of account access (protocol-notes section 3): the protected resource
// /mcp/account (RFC 9728) and this server as its authorization server (RFC 8414). The root
// /.well-known/oauth-protected-resource stays the public search's open-resource document (src/api/rest.ts).
// Both are the same until a restart: built once, public, cacheable for an hour.
import { PUBLIC_READ_EXPOSED_HEADERS, CorsPolicy } from '../http/cors.js';
import type { HttpServer } from '../http/server.js';
import { SCOPE } from './lifetimes.js';
import { ACCOUNT_MCP_PATH, OAUTH_PATHS } from './operations.js';

export const DISCOVERY_CORS = new CorsPolicy({ allowHeaders: [], exposeHeaders: PUBLIC_READ_EXPOSED_HEADERS, maxAgeSeconds: 86400 });

/** The resource every access token is issued for: {base_url}/mcp/account. */
export function accountResource(baseUrl: string): string {
  return `${baseUrl}${ACCOUNT_MCP_PATH}`;
}

/** RFC 9728 section 3.1: the well-known segment goes between host and path. */
export function resourceMetadataUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname.replace(/\/$/, '')}${ACCOUNT_MCP_PATH}`;
}

export function protectedResourceMetadata(baseUrl: string) {
  return {
    resource: accountResource(baseUrl),
    authorization_servers: [baseUrl],
    scopes_supported: [SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'Public Toilet Finder: your partner listings',
    resource_documentation: `${baseUrl}/api/v1/openapi.json`,
  };
}

export function authorizationServerMetadata(baseUrl: string) {
  return {
    issuer: baseUrl,
    authorization_endpoint: `${baseUrl}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${baseUrl}${OAUTH_PATHS.token}`,
    registration_endpoint: `${baseUrl}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${baseUrl}${OAUTH_PATHS.revoke}`,
    scopes_supported: [SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${baseUrl}/oauth/connections`,
  };
}

/**
 * Served at the paths a client derives from a BASE_URL without a path. Like every route, they are
 * registered without BASE_URL's path: a proxy serving the service under a path maps them (RFC 8414 and
 * 9728 put that path after the well-known segment).
 */
export function registerDiscovery(server: HttpServer, baseUrl: string): void {
  const documents: [string, unknown][] = [
    [`/.well-known/oauth-protected-resource${ACCOUNT_MCP_PATH}`, protectedResourceMetadata(baseUrl)],
    ['/.well-known/oauth-authorization-server', authorizationServerMetadata(baseUrl)],
  ];
  for (const [pattern, document] of documents) {
    const body = JSON.stringify(document);
    server.route({
      method: 'GET',
      pattern,
      cors: DISCOVERY_CORS,
      handler: () => ({ status: 200, headers: ['Content-Type', 'application/json', 'Cache-Control', 'public, max-age=3600'], body }),
    });
  }
}
