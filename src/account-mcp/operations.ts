// The registry entries of the protected MCP endpoint at /mcp/account (outside the OpenAPI document): the
// guards of /mcp (the per-IP budget, the Origin allowlist, the body limit); the Bearer token is checked
// behind them, on every request (endpoint.ts). slice.ts names them.
import { mcpEntries } from '../mcp/operations.js';
import { ACCOUNT_MCP_PATH } from '../oauth/operations.js';

export const ACCOUNT_MCP_ROUTES = mcpEntries(ACCOUNT_MCP_PATH, "Acts for one account with its OAuth access token: its partner listings, and its events by webhook.");
