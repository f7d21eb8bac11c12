// The MCP SDK, loaded on a thread at its first MCP request the SDK answers (the fast path needs none) or
// server-card fetch, not with the server: its modules (zod among them) cost about 0.12 s of CPU at every
// start and 7–15 MB on each thread, in every process that builds the app, while many servers see their
// first MCP client long after they start.
export type McpSdk = typeof import('@modelcontextprotocol/server');

let sdk: Promise<McpSdk> | undefined;

/** The SDK's module, imported once. */
export function mcpSdk(): Promise<McpSdk> {
  sdk ??= import('@modelcontextprotocol/server');
  return sdk;
}
