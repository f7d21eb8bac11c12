// MCP tool-call latency and throughput against a started app, over loopback HTTP like a real client:
// uWS, the fast path or the fetch bridge and the SDK, argument and output validation, the read itself.
// Requests are raw JSON-RPC with pre-built bodies so the figures are the server's, not a client SDK's.
// Start the app with RATE_LIMIT_PER_MINUTE=0, or the shared per-IP budget answers 429 after 60 calls.

export type McpEra = 'modern' | 'legacy';

export interface McpBenchOptions {
  /** The app's MCP endpoint, e.g. new URL('http://127.0.0.1:8080/mcp'). */
  url: URL;
  /** Tool calls to make. */
  calls: number;
  /** Calls in flight at once (default 1: pure latency). */
  concurrency?: number;
  /** 2026-07-28 requests (default), or 2025-11-25 ones through the stateless fallback. */
  era?: McpEra;
  tool?: string;
  /** Arguments of call i, e.g. rotating through points of the imported extract. */
  argumentsFor(i: number): Record<string, unknown>;
}

export interface McpBenchResult {
  era: McpEra;
  tool: string;
  calls: number;
  /** Calls answered other than 200 with a result that is not a tool error. */
  errors: number;
  elapsedMs: number;
  callsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

export async function benchToolCalls(options: McpBenchOptions): Promise<McpBenchResult> {
  const { url, calls } = options;
  const era = options.era ?? 'modern';
  const tool = options.tool ?? 'find_toilets_near';
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, calls));
  const { headers, bodies } = toolCalls(options);
  const latencies = new Float64Array(calls);
  let errors = 0;
  let next = 0;

  const worker = async (): Promise<void> => {
    for (let i = next++; i < calls; i = next++) {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers, body: bodies[i] });
      const text = await response.text();
      latencies[i] = performance.now() - started;
      if (response.status !== 200 || !isToolSuccess(text)) errors++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - started;

  latencies.sort();
  return {
    era,
    tool,
    calls,
    errors,
    elapsedMs,
    callsPerSecond: (calls * 1000) / elapsedMs,
    latencyMs: { p50: percentile(latencies, 0.5), p90: percentile(latencies, 0.9), p99: percentile(latencies, 0.99), max: latencies[calls - 1] },
  };
}

/**
 * The same calls as request lines for wrk (bench/http.ts runWrk: "POST /mcp <body>") and the headers
 * they need, so MCP throughput is measured with the load generator the REST figures use.
 */
export function toolCallRequestLines(options: Omit<McpBenchOptions, 'url' | 'concurrency'>, path = '/mcp'): { requests: string[]; headers: Record<string, string> } {
  const { headers, bodies } = toolCalls(options);
  return { requests: bodies.map((body) => `POST ${path} ${body}`), headers };
}

function toolCalls(options: Omit<McpBenchOptions, 'url' | 'concurrency'>): { headers: Record<string, string>; bodies: string[] } {
  const era = options.era ?? 'modern';
  const tool = options.tool ?? 'find_toilets_near';
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': era === 'modern' ? MODERN : LEGACY,
    ...(era === 'modern' ? { 'Mcp-Method': 'tools/call', 'Mcp-Name': tool } : {}),
  };
  const bodies = Array.from({ length: options.calls }, (_, i) => JSON.stringify(toolCall(i, tool, options.argumentsFor(i), era)));
  return { headers, bodies };
}

function toolCall(id: number, name: string, args: Record<string, unknown>, era: McpEra) {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(era === 'modern' ? { _meta: envelope } : {}) } };
}

/** A JSON answer, or the one message of an SSE answer (2025-era responses stream), that is a result and not a tool error. */
function isToolSuccess(text: string): boolean {
  const json = text.startsWith('{') ? text : text.slice(text.indexOf('data:') + 5);
  const message = JSON.parse(json) as { result?: { isError?: boolean } };
  return message.result !== undefined && message.result.isError !== true;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}
