// Shared by the MCP tests: the real app, in process or on a loopback port (test/support/server.ts), over
// a copy of the cached import of a real extract (test/support/extracts.ts), the official client SDKs (v2
// in both protocol eras, v1 in the 2025 one), and raw 2026-07-28 requests for what the clients hide
// (headers, status codes, cache hints).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { App } from '../../src/app.js';
import { loadPlaceIndex } from '../support/place-index.js';
import type { PlaceLookup } from '../../src/places/lookup.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { serve as serveApp, type Reach } from '../support/server.js';
import { assertGzipAgrees } from '../support/gzip.js';

export { BASE_URL, SILENT } from '../support/server.js';
export const MODERN = '2026-07-28';
/** A Wednesday at 10:00 in Monaco; the tests advance it by hand (rate-limit windows). */
export const FIXED_NOW = Date.parse('2024-06-05T08:00:15Z');

/** Near the Monaco casino: several toilets within a few hundred metres. */
export const CASINO = { lat: 43.7394, lon: 7.4276 };

export interface Extract {
  db: string;
  /** The real place index of the imported extract (its places table; no world towns, to stay small). */
  places(): PlaceLookup;
  remove(): void;
}

/** A copy of the cached import of Monaco (test/support/extracts.ts) in a folder of its own. */
export async function importMonaco(): Promise<Extract> {
  const dir = tempDir('toilet-mcp-test');
  const db = join(dir.path, 'toilets.db');
  await importedCopy('monaco', db);
  return {
    db,
    places: () => {
      const database = new Database(db, { readonly: true });
      try {
        return loadPlaceIndex(database, { worldTowns: false });
      } finally {
        database.close();
      }
    },
    remove: dir.remove,
  };
}

export interface Served {
  app: App;
  /** The app's origin (an in-process one unless reach is 'socket'). */
  origin: string;
  /** The MCP endpoint. */
  url: URL;
  close(): Promise<void>;
}

export interface ServeOptions {
  db: string;
  env?: Record<string, string>;
  now?: () => number;
  places?: PlaceLookup | null;
  /** In process unless 'socket' (pipelining, the connection's close). */
  reach?: Reach;
}

/** The test server (test/support/server.ts) at FIXED_NOW unless told, with its MCP endpoint's URL. */
export async function serve(options: ServeOptions): Promise<Served> {
  const served = await serveApp({ ...options, now: options.now ?? (() => FIXED_NOW) });
  return { app: served.app, origin: served.origin, url: new URL(`${served.origin}/mcp`), close: served.close };
}

/** The calls a test makes, the same whichever SDK and era carries them. */
export interface McpSession {
  listTools(): Promise<{ tools: any[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<any>;
  close(): Promise<void>;
}

export interface ClientKind {
  label: string;
  era: 'modern' | 'legacy';
  connect(url: URL): Promise<McpSession>;
}

const CLIENT_INFO = { name: 'toilet-finder-tests', version: '1.0.0' };

export const CLIENT_KINDS: readonly ClientKind[] = [
  {
    label: 'v2 client pinned to 2026-07-28',
    era: 'modern',
    connect: async (url) => {
      const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
      await client.connect(new StreamableHTTPClientTransport(url));
      assert.equal(client.getProtocolEra(), 'modern');
      return client;
    },
  },
  {
    label: 'v2 client with the 2025-11-25 handshake',
    era: 'legacy',
    connect: async (url) => {
      const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: 'legacy' } });
      await client.connect(new StreamableHTTPClientTransport(url));
      assert.equal(client.getProtocolEra(), 'legacy');
      return client;
    },
  },
  {
    label: 'v1 client (2025-11-25)',
    era: 'legacy',
    connect: async (url) => {
      const client = new V1Client(CLIENT_INFO);
      await client.connect(new V1Transport(url));
      assert.equal(client.getServerVersion()?.name, 'toilet-finder');
      return client;
    },
  },
];

export interface RawAnswer {
  status: number;
  headers: Headers;
  /** The JSON-RPC message (SSE answers are unwrapped); undefined for an empty body. */
  body: any;
}

/** One 2026-07-28 request with the envelope and the headers a conforming client sends, plus `headers`. */
export async function modernRequest(url: URL, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}, id: number | string = 1): Promise<RawAnswer> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'Mcp-Name': params.name } : {};
  const message = {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      },
    },
  };
  return post(url, message, { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...name, ...headers });
}

export async function post(url: URL, message: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: parseBody(text, response.headers.get('content-type') ?? '') };
}

function parseBody(text: string, contentType: string): any {
  if (text === '') return undefined;
  if (!contentType.startsWith('text/event-stream')) return JSON.parse(text);
  const data = text.split('\n').filter((line) => line.startsWith('data:'));
  assert.equal(data.length, 1, `one message on the stream: ${text}`);
  return JSON.parse(data[0].slice('data:'.length));
}

/** The five RateLimit headers of an answer. */
export function rateHeaders(headers: Headers) {
  return {
    limit: headers.get('ratelimit-limit'),
    remaining: headers.get('ratelimit-remaining'),
    reset: headers.get('ratelimit-reset'),
    policy: headers.get('ratelimit-policy'),
    rateLimit: headers.get('ratelimit'),
  };
}

/** GET a REST path of the same app; the MCP tools must answer with the very same JSON. */
export async function rest(served: Served, path: string): Promise<any> {
  const response = await fetch(served.origin + path);
  assert.equal(response.status, 200, `${path} answered ${response.status}`);
  return response.json();
}

const LEGACY = '2025-11-25';

/** The body and headers of a plain tools/call of `era`, as a well-behaved client sends it. */
export function toolCallRequest(era: 'modern' | 'legacy', name: string, args: Record<string, unknown>, id: number): { headers: Record<string, string>; body: string } {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  return {
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': era === 'modern' ? MODERN : LEGACY,
      ...(era === 'modern' ? { 'Mcp-Method': 'tools/call', 'Mcp-Name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(era === 'modern' ? { _meta: envelope } : {}) } }),
  };
}

/**
 * Asserts that the gzip answer to a tool call decodes (node:zlib) to exactly the plain answer, in either
 * framing; returns both sizes and the tool's result, parsed from the plain answer.
 */
export async function assertToolGzipAgrees(port: number, era: 'modern' | 'legacy', name: string, args: Record<string, unknown>, id = 1): Promise<{ plain: number; gzip: number; result: any }> {
  const { plain, gzip, decoded } = await assertGzipAgrees(port, '/mcp', toolCallRequest(era, name, args, id));
  const text = decoded.toString();
  const message = JSON.parse(era === 'modern' ? text : text.replace(/^event: message\ndata: /, '').replace(/\n\n$/, ''));
  return { plain, gzip, result: message.result };
}
