// The public MCP endpoint at {base_url}/mcp: the SDK's web-standard handler behind our uWS server, serving
// 2026-07-28 requests statelessly and 2025-era clients through the SDK's stateless fallback, from one
// factory. In front of the handler, the guard chain as on every route: the per-IP budget REST shares, the
// Origin allowlist, the body limit; its refusals are JSON-RPC errors. Every answer carries the rate-limit
// headers. No Authorization is read; no events are advertised. Every server thread registers it. The
// hot requests (plain valid tool calls and pings) are answered by the fast path (fast-path.ts), the rest
// by the SDK; the SDK's handler and the server card are made at their first request (sdk.ts).
import type { Reads } from '../api/reads.js';
import type { Limits } from '../api/limits.js';
import { GuardChain } from '../api/guards.js';
import type { Problems } from '../http/problem.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { PlaceLookup } from '../places/lookup.js';
import { CorsPolicy, PUBLIC_READ_EXPOSED_HEADERS } from '../http/cors.js';
import { toWebRequest } from '../http/fetch-bridge.js';
import { compileHeaders, type HeaderList, type HttpReply } from '../http/reply.js';
import { prepareStatic } from '../http/representation.js';
import type { HttpRequestInfo, HttpServer, RouteResult } from '../http/server.js';
import { headerPairs, parseBody, refusalResponse, withHeaders, type HeaderPair } from './json-rpc.js';
import { SERVER_INFO, serverCard } from './server-card.js';
import { MAX_MCP_BODY_BYTES, MCP_PATH, MCP_ROUTES } from './operations.js';
import { mcpSdk, type McpSdk } from './sdk.js';
import { ToolSet } from './tools.js';
import { FastPath } from './fast-path.js';
import { InstancePool } from './instance-pool.js';

export interface McpDeps {
  config: Config;
  reads: Reads;
  limits: Limits;
  problems: Problems;
  places: PlaceLookup | null;
  log: Logger;
  now: () => number;
  /** Told about every tool call and whether it answered or failed (metrics). */
  onToolCall?(tool: string, outcome: 'ok' | 'error'): void;
}

export interface McpEndpoint {
  /** Ends open MCP streams so the HTTP server can drain; call before closing it. */
  close(): Promise<void>;
  /** Requests the fast path has answered on this thread so far (the rest went to the SDK). */
  readonly fastAnswers: number;
}

/** Idle 2026-07-28 server instances a thread keeps (instance-pool.ts). */
const POOLED_INSTANCES = 64;

/** The tool list and discovery change only with a deployment: any cache may keep them for an hour. */
const PUBLIC_HOUR = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

const INSTRUCTIONS =
  'Public toilet finder over OpenStreetMap data; read-only, no account needed. Call find_toilets_near with the place the user named or with coordinates; ' +
  'if you do not know where the user is, call it without a location and ask the user the question it returns in ask_user. ' +
  'Use get_toilet to detail a toilet by its id. Always show attribution.text with results.';

/** Browser-based clients send the MCP headers, so a preflight must allow them. */
const MCP_CORS = new CorsPolicy({
  allowHeaders: ['Content-Type', 'Accept', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Last-Event-ID'],
  exposeHeaders: PUBLIC_READ_EXPOSED_HEADERS,
  maxAgeSeconds: 86400,
});
const CARD_CORS = new CorsPolicy({ allowHeaders: ['Content-Type', 'If-None-Match'], exposeHeaders: ['ETag'], maxAgeSeconds: 86400 });

export function registerMcpRoutes(server: HttpServer, deps: McpDeps): McpEndpoint {
  const { config, limits, problems, now } = deps;
  const tools = new ToolSet(deps);
  const sdkPath = new SdkPath(deps, tools, new URL(config.baseUrl).origin);
  const fastPath = config.mcpFastPath ? new FastPath(tools) : null;
  let fastAnswers = 0;
  const serve = (request: HttpRequestInfo, headers: HeaderList): RouteResult | Promise<RouteResult> => {
    // Parsed once here; the SDK then neither clones the request nor reads it again.
    const message = parseBody(request.body);
    const fast = message === undefined ? null : fastPath?.answer(request, message, headers);
    if (fast === null || fast === undefined) return sdkPath.answer(request, message, headerPairs(headers));
    if (!(fast instanceof Promise)) {
      fastAnswers++;
      return fast;
    }
    // the message is as sent: the fast path checked (and completed) a copy of the arguments
    return fast.then((late): RouteResult | Promise<RouteResult> => {
      if (late === null) return sdkPath.answer(request, message, headerPairs(headers));
      fastAnswers++;
      return late;
    });
  };
  // The chain checks what the registry declares (the budget REST shares, MCP_ALLOWED_ORIGINS, the body
  // limit); GET and DELETE reach the SDK too, which answers them 405 as both revisions expect of a stateless server.
  const chain = new GuardChain({ config, limits, problems, now });
  for (const entry of MCP_ROUTES) {
    chain.operation(server, entry, {
      headers: 'all',
      cors: MCP_CORS,
      handle: (request, context) => serve(request, context.headers),
      renderRefusal: (refusal, context, request, status) => refusalResponse(refusal, status, headerPairs(context.headers), request.body),
    });
  }
  registerServerCards(server, config.baseUrl);
  return {
    close: () => sdkPath.close(),
    get fastAnswers() {
      return fastAnswers;
    },
  };
}

/** The requests the fast path does not answer: the SDK's handler, made (with the SDK loaded) at the first one. */
class SdkPath {
  private handler: Promise<McpHandler> | undefined;

  constructor(
    private readonly deps: McpDeps,
    private readonly tools: ToolSet,
    /** Makes the web Request's URL absolute. */
    private readonly requestOrigin: string,
  ) {}

  async answer(request: HttpRequestInfo, message: unknown, rateHeaders: HeaderPair[]): Promise<Response> {
    this.handler ??= mcpSdk().then((sdk) => this.createHandler(sdk));
    const response = await (await this.handler).fetch(toWebRequest(request, this.requestOrigin, message === undefined), message === undefined ? {} : { parsedBody: message });
    return withHeaders(response, rateHeaders);
  }

  async close(): Promise<void> {
    if (this.handler !== undefined) await (await this.handler).close();
  }

  private createHandler({ createMcpHandler, McpServer }: McpSdk): McpHandler {
    const build = () => {
      const instance = new McpServer(SERVER_INFO, {
        capabilities: { tools: { listChanged: false } },
        instructions: INSTRUCTIONS,
        cacheHints: { 'tools/list': PUBLIC_HOUR, 'server/discover': PUBLIC_HOUR },
      });
      this.tools.register(instance);
      return instance;
    };
    const pool = new InstancePool(build, POOLED_INSTANCES);
    return createMcpHandler(({ era }) => (era === 'modern' ? pool.take() : build()), {
      maxRequestBodySize: MAX_MCP_BODY_BYTES,
      onerror: (error) => this.deps.log.info('mcp request refused or failed', { error: error.message }),
    });
  }
}

type McpHandler = ReturnType<McpSdk['createMcpHandler']>;

/** The server card at both its addresses: tagged and compressed once; the server answers If-None-Match with 304 (representation.ts). */
function registerServerCards(server: HttpServer, baseUrl: string): void {
  let card: Promise<ReturnType<typeof prepareStatic>> | undefined;
  for (const [pattern, contentType] of [
    ['/.well-known/mcp/server-card.json', 'application/json'],
    [`${MCP_PATH}/server-card`, 'application/mcp-server-card+json'],
  ]) {
    const headers = compileHeaders(['Content-Type', contentType, 'Cache-Control', 'public, max-age=3600']);
    let reply: Promise<HttpReply> | undefined;
    const handle = () => {
      card ??= serverCard(baseUrl).then((body) => prepareStatic(JSON.stringify(body)));
      reply ??= card.then((prepared) => ({ status: 200, headers, ...prepared }));
      return reply;
    };
    server.route({ method: 'GET', pattern, cors: CARD_CORS, handler: handle });
  }
}
