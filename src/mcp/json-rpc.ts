// The answers the endpoint gives before the SDK sees a request (the guard chain's refusals), as JSON-RPC
// error bodies, and the header plumbing between our flat header lists and web Responses.
import type { Refusal } from '../api/guards.js';
import type { HeaderList } from '../http/reply.js';

/** Implementation-defined JSON-RPC server error (-32000..-32019; -32020..-32099 are the MCP spec's). */
const SERVER_ERROR = -32000;

export type HeaderPair = readonly [name: string, value: string];

export interface JsonRpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

/** The body parsed as JSON; undefined when it is empty or not JSON (the SDK then answers the parse error). */
export function parseBody(body: Buffer | null): unknown {
  if (body === null || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The id of a parsed JSON-RPC request, so a refusal answers it; null when there is none to name. */
export function requestIdOf(message: unknown): string | number | null {
  const id = message !== null && typeof message === 'object' ? (message as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export function jsonRpcErrorResponse(status: number, id: string | number | null, error: JsonRpcError, headers: readonly HeaderPair[]): Response {
  return withHeaders(Response.json({ jsonrpc: '2.0', id, error }, { status }), headers);
}

/** `response` with `headers` set on it (replacing any of the same name); the body streams through untouched. */
export function withHeaders(response: Response, headers: readonly HeaderPair[]): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of headers) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

/**
 * A header list as separate pairs. Lists built for uWS may join several headers into one value with
 * CRLF (compileHeaders, the rate limiter); web Headers refuse line breaks, so each line becomes a pair.
 */
export function headerPairs(list: HeaderList): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  for (let i = 0; i < list.length; i += 2) {
    const [first, ...lines] = list[i + 1].split('\r\n');
    pairs.push([list[i], first]);
    for (const line of lines) {
      const colon = line.indexOf(':');
      pairs.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
    }
  }
  return pairs;
}

/** A refusal as a JSON-RPC error: the server error saying why, and when to send again if it says so. */
export function refusalError(refusal: Refusal): JsonRpcError {
  const seconds = refusal.retryAfterSeconds;
  return { code: SERVER_ERROR, message: `${refusal.detail.replace(/\.$/, '')}.`, ...(seconds === undefined ? {} : { data: { retry_after_seconds: seconds } }) };
}

/** A refusal of the guard chain as a JSON-RPC error answering the request it refuses (its id, when it has one). */
export function refusalResponse(refusal: Refusal, status: number, headers: readonly HeaderPair[], body: Buffer | null): Response {
  const seconds = refusal.retryAfterSeconds;
  return jsonRpcErrorResponse(status, requestIdOf(parseBody(body)), refusalError(refusal), seconds === undefined ? headers : [...headers, ['Retry-After', String(seconds)]]);
}
