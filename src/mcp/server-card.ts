// Who the public MCP server is: the serverInfo every answer names, and the server card (protocol-notes §4)
// that lets clients find the endpoint before connecting. The card has the current v1 shape; the spec's
// "authentication type none" has no standard field, so it is stated in an extra member the open schema allows.
import { API_VERSION } from '../schemas/openapi.js';
import { mcpSdk } from './sdk.js';
import { MCP_PATH } from './operations.js';

/** The 2026-07-28 revision, served statelessly beside the 2025-era ones the SDK lists. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The tools mirror the v1 read operations, so the server carries the API description's version. */
export const SERVER_INFO = { name: 'toilet-finder', title: 'Public Toilet Finder', version: API_VERSION };

const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

export async function serverCard(baseUrl: string): Promise<Record<string, unknown>> {
  const { SUPPORTED_PROTOCOL_VERSIONS } = await mcpSdk();
  return {
    $schema: CARD_SCHEMA,
    name: `${reverseDnsName(new URL(baseUrl).hostname)}/${SERVER_INFO.name}`,
    version: SERVER_INFO.version,
    title: SERVER_INFO.title,
    description: 'Finds public toilets near a place or coordinate, from OpenStreetMap data. Read-only.',
    websiteUrl: baseUrl,
    remotes: [{ type: 'streamable-http', url: `${baseUrl}${MCP_PATH}`, supportedProtocolVersions: [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS] }],
    authentication: { type: 'none', required: false },
  };
}

/** toilets.example.org → org.example.toilets; characters the card's name pattern lacks become '-'. */
function reverseDnsName(hostname: string): string {
  return hostname.replace(/[^a-zA-Z0-9.-]/g, '-').split('.').reverse().join('.');
}
