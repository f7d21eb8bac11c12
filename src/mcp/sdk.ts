// The MCP SDK, loaded at the first MCP request or server-card fetch, not with the server: its modules (zod
// among them) cost about 0.12 s of CPU at every start, and in every process that builds the app, while
// many servers see their first MCP client long after they start.
export type McpSdk = typeof import('@modelcontextprotocol/server');

let sdk: Promise<McpSdk> | undefined;

/** The SDK's module, imported once. */
export function mcpSdk(): Promise<McpSdk> {
  sdk ??= import('@modelcontextprotocol/server');
  return sdk;
}
