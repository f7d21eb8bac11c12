// Bridge between our uWS requests and web-standard Request/Response, for handlers such as the MCP
// SDK's `handler.fetch(request) → Promise<Response>`. A route using it captures every header
// (`headers: 'all'`) and its body (`maxBodyBytes`), and returns the Response as its result.
import { endResponse, headerNames, isBodiless, statusLine, writeHeaders, type HeaderList } from './reply.js';
import { compressResponseBody } from './representation.js';
import type { HttpRequestInfo } from './request-info.js';
import type { TransportResponse as HttpResponse } from './transport.js';

/**
 * A web Request for `request`; `origin` (e.g. "https://toilets.example") makes the URL absolute.
 * Its signal aborts when the client goes away. `withBody: false` leaves the body out, for a handler
 * given the body already parsed: a Request with a body costs ~3x as much to make (its stream).
 */
export function toWebRequest(request: HttpRequestInfo, origin: string, withBody = true): Request {
  const url = request.query === '' ? origin + request.path : `${origin}${request.path}?${request.query}`;
  const mayHaveBody = withBody && request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: mayHaveBody ? request.body : null,
    signal: request.signal,
  });
}

/** Where and how to write a Response. */
export interface ResponseTarget {
  readonly res: HttpResponse;
  /** Aborted when uWS reports the client gone; after that `res` is never touched. */
  readonly signal: AbortSignal;
  /** Answer a HEAD request: headers only. */
  readonly head: boolean;
  /** The request's Accept-Encoding: a body read whole is compressed when it is worth it (representation.ts). */
  readonly acceptEncoding: string;
  /** Written after the Response's own headers, replacing any of the same name (e.g. CORS). */
  readonly extraHeaders: HeaderList | null;
  readonly closeConnection: boolean;
}

// Framing headers uWS writes itself (Date too); copying a Response's would duplicate or contradict them.
const MANAGED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * Writes `response` to the client. A text/event-stream body is streamed chunk by chunk as it is
 * produced, waiting for the socket to drain when uWS reports backpressure, and the stream is
 * cancelled when the client goes away. Any other body is read whole and written in one corked call.
 *
 * Resolves with the body bytes written when the answer is complete or the client has gone. Rejects only when nothing has been
 * written yet (the caller can still answer 500); a body that fails midway closes the connection (the
 * client sees a truncated answer) and is reported to `onLateError`.
 */
export async function sendResponse(target: ResponseTarget, response: Response, onLateError: (error: unknown) => void): Promise<number> {
  // HEAD and 204/304 send no body; a null body is an empty one (Content-Length: 0), e.g. MCP's 202.
  const withoutBody = target.head || isBodiless(response.status);
  if (withoutBody || response.body === null || !isEventStream(response)) return sendWhole(target, response, withoutBody);
  return streamBody(target, response, response.body, onLateError);
}

/** The body read whole (or dropped: `withoutBody`), compressed when it is worth it, written in one corked call. */
async function sendWhole(target: ResponseTarget, response: Response, withoutBody: boolean): Promise<number> {
  const { res, signal } = target;
  let bytes: Uint8Array | undefined;
  if (withoutBody) await response.body?.cancel();
  else if (response.body !== null) bytes = new Uint8Array(await response.arrayBuffer());
  if (signal.aborted) return 0;
  const coded = bytes === undefined ? null : compressResponseBody(bytes, response.headers.get('content-type'), response.headers.get('content-encoding'), target.acceptEncoding);
  res.cork(() => {
    writeHead(target, response);
    if (coded !== null) writeHeaders(res, coded.headers);
    endResponse(res, coded?.body ?? bytes, withoutBody, target.closeConnection);
  });
  return (coded?.body ?? bytes)?.byteLength ?? 0;
}

/** The body streamed chunk by chunk, pausing while the socket drains; the stream is cancelled when the client goes. */
async function streamBody(target: ResponseTarget, response: Response, body: ReadableStream<Uint8Array>, onLateError: (error: unknown) => void): Promise<number> {
  const { signal } = target;
  const reader = body.getReader();
  const drain = drainWaiter(target.res);
  const onAbort = (): void => {
    reader.cancel().catch(() => {}); // the stream's own error, if any, no longer matters to anyone
    drain.wake();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  let sent = 0;
  try {
    // status and headers go out with the first chunk (uWS sends them no sooner anyway)
    for (let first = true; ; first = false) {
      const chunk = await nextChunk(reader, first, target, onLateError);
      if (chunk === null || signal.aborted) return sent;
      if (chunk.done) {
        endStream(target, response, first);
        return sent;
      }
      sent += chunk.value.byteLength;
      if (!writeChunk(target, response, chunk.value, first)) {
        await drain.wait(); // uWS buffered the chunk: read no more until the socket drains (or the client leaves)
        if (signal.aborted) return sent;
      }
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

type Chunk = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/**
 * The stream's next chunk. A failure before anything was written throws (the caller can still answer 500);
 * after, it closes the connection (the client sees a truncated answer), goes to `onLateError` and gives null.
 */
async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>, first: boolean, target: ResponseTarget, onLateError: (error: unknown) => void): Promise<Chunk | null> {
  try {
    return await reader.read();
  } catch (error) {
    if (first) throw error;
    if (!target.signal.aborted) {
      onLateError(error); // first: the error hook may still read the request (e.g. its ip)
      target.res.close();
    }
    return null;
  }
}

/** Writes one chunk (after the head, for the first); false when uWS buffered it until the socket drains. */
function writeChunk(target: ResponseTarget, response: Response, data: Uint8Array, first: boolean): boolean {
  let drained = true;
  target.res.cork(() => {
    if (first) writeHead(target, response);
    drained = target.res.write(data);
  });
  return drained;
}

function endStream(target: ResponseTarget, response: Response, first: boolean): void {
  target.res.cork(() => {
    if (first) writeHead(target, response);
    target.res.end(undefined, target.closeConnection);
  });
}

/**
 * Waits for the socket to drain. uWS keeps the first onWritable handler of a response, so one handler,
 * set at the first wait, wakes whoever waits; `wake` also ends a wait when the client leaves.
 */
function drainWaiter(res: HttpResponse): { wait(): Promise<void>; wake(): void } {
  let waiting: (() => void) | null = null;
  let handlerSet = false;
  const wake = (): void => {
    const resume = waiting;
    waiting = null;
    resume?.();
  };
  const wait = (): Promise<void> => {
    if (!handlerSet) {
      handlerSet = true;
      res.onWritable(() => {
        wake();
        return true;
      });
    }
    return new Promise<void>((resolve) => (waiting = resolve));
  };
  return { wait, wake };
}

export function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream') ?? false;
}

function writeHead(target: ResponseTarget, response: Response): void {
  const { res, extraHeaders } = target;
  if (response.status !== 200) res.writeStatus(statusLine(response.status));
  const replaced = extraHeaders === null ? [] : headerNames(extraHeaders);
  for (const [name, value] of response.headers) {
    if (!MANAGED_HEADERS.has(name) && !replaced.includes(name)) res.writeHeader(name, value);
  }
  if (extraHeaders !== null) writeHeaders(res, extraHeaders);
}
