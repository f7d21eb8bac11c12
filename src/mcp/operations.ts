// The registry entries of the public MCP endpoint (outside the spec's REST operations, so the OpenAPI
// document lists none): POST, GET and DELETE on /mcp, behind the per-IP budget REST shares and the Origin
// allowlist (MCP_ALLOWED_ORIGINS), refusals as JSON-RPC errors. endpoint.ts serves them; slice.ts names them.
import { RATE_LIMIT_POLICIES, type HttpMethod, type RouteSpec } from '../schemas/operations.js';

export const MCP_PATH = '/mcp';

/** Tool arguments are a few hundred bytes; the SDK would take 4 MiB. */
export const MAX_MCP_BODY_BYTES = 64 * 1024;

/** An MCP endpoint's three entries: POST takes the message; GET and DELETE reach the SDK, which answers them itself. */
export function mcpEntries<const P extends string>(path: P, summary: string) {
  const entry = <const M extends HttpMethod>(method: M) =>
    ({
      openApi: false,
      method,
      path,
      summary,
      rateLimit: RATE_LIMIT_POLICIES.perIp,
      guards: { origin: 'listed' },
      ...(method === 'post' ? { requestBody: { maxBytes: MAX_MCP_BODY_BYTES, tooLargeStatus: 413 } } : {}),
      refusals: 'json-rpc',
    }) as const satisfies RouteSpec;
  return [entry('post'), entry('get'), entry('delete')] as const;
}

export const MCP_ROUTES = mcpEntries(MCP_PATH, 'The public MCP server: find_toilets_near and get_toilet, no account needed.');
