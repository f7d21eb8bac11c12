// The in-process transport: a request handed straight to the server's route table (no socket, no
// parser), answered as a web Response. It is fetch() without the network: the same request headers
// Node's fetch adds (so compression, CORS and guards see what they would over a socket), a decoded body
// with its Content-Encoding kept, redirects followed unless `redirect: 'manual'`, a streamed body for
// answers written in chunks (SSE), and the client's going away (its signal, or cancelling the body)
// reported to the handler as an abort; each request arrives on a later turn of the event loop. For tests whose subject is not the socket: framing, pipelining,
// threads and graceful close need a real connection (loopback).
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { ipBytes } from './client-ip.js';
import type { RouteTable } from './route-table.js';
import type { BodyBytes, TransportRequest, TransportResponse } from './transport.js';

/** The origin relative URLs are taken against (no such host exists: nothing here reaches a network). */
export const INJECT_ORIGIN = 'http://inject.invalid';

export interface InjectOptions {
  /** The peer address the server sees (default 127.0.0.1), as text (IPv4 or IPv6). */
  readonly remoteAddress?: string;
}

// What Node's fetch sends unless told otherwise (read off a socket, Node 20).
const FETCH_DEFAULTS: readonly [string, string][] = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate'],
];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Requests answered by a route table in this process; close() cuts the answers still open, as closing connections would. */
export class Injector {
  /** Answers not yet ended (streams included). */
  private readonly open = new Set<InjectedResponse>();

  constructor(private readonly table: RouteTable) {}

  /** fetch(input, init) answered by the table. */
  fetch(input: string | URL | Request, init: RequestInit = {}, options: InjectOptions = {}): Promise<Response> {
    return inject(this.table, this.open, input, init, options);
  }

  /** Cuts every answer still open: their handlers hear an abort, their clients an error. */
  close(): void {
    for (const res of [...this.open]) res.close();
  }
}

async function inject(table: RouteTable, open: Set<InjectedResponse>, input: string | URL | Request, init: RequestInit, options: InjectOptions): Promise<Response> {
  let request = new Request(typeof input === 'string' && input.startsWith('/') ? INJECT_ORIGIN + input : input, init);
  for (let hops = 0; ; hops++) {
    const response = await injectOnce(table, open, request, options.remoteAddress ?? '127.0.0.1');
    const location = response.headers.get('location');
    if (request.redirect === 'manual' || !REDIRECTS.has(response.status) || location === null || hops === 20) return response;
    await response.body?.cancel();
    const target = new URL(location, request.url);
    const asGet = response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST');
    request = new Request(target, asGet ? { method: 'GET', headers: request.headers, signal: request.signal } : request);
  }
}

async function injectOnce(table: RouteTable, open: Set<InjectedResponse>, request: Request, remoteAddress: string): Promise<Response> {
  // A request arrives on a later turn of the event loop, as from a socket: a client that loops on
  // injected answers must not starve timers and I/O (file watchers, the clock of a test's wait).
  await new Promise((resolve) => setImmediate(resolve));
  const url = new URL(request.url);
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : new Uint8Array(await request.arrayBuffer());
  const headers: [string, string][] = [['host', url.host]];
  for (const [name, value] of request.headers) headers.push([name, value]);
  for (const [name, value] of FETCH_DEFAULTS) if (!request.headers.has(name)) headers.push([name, value]);
  if (body !== null && !request.headers.has('content-length')) headers.push(['content-length', String(body.byteLength)]);
  const match = table.match(request.method, url.pathname);
  if (match === null) throw new TypeError(`fetch failed: no route answers ${request.method} ${url.pathname}`);
  const res = new InjectedResponse(request.method === 'HEAD', addressBytes(remoteAddress), request.signal, open);
  const req = new InjectedRequest(request.method, url.pathname, url.search.slice(1), headers, match.params);
  match.handler(res, req);
  res.deliver(body ?? new Uint8Array(0));
  return res.answer;
}

class InjectedRequest implements TransportRequest {
  constructor(
    private readonly method: string,
    private readonly path: string,
    private readonly query: string,
    private readonly headers: readonly [string, string][],
    private readonly params: readonly string[],
  ) {}

  getCaseSensitiveMethod(): string {
    return this.method;
  }

  getUrl(): string {
    return this.path;
  }

  getQuery(): string {
    return this.query;
  }

  getHeader(lowerCaseName: string): string {
    for (const [name, value] of this.headers) if (name === lowerCaseName) return value;
    return '';
  }

  getParameter(index: number): string | undefined {
    return this.params[index];
  }

  forEach(visit: (name: string, value: string) => void): void {
    for (const [name, value] of this.headers) visit(name, value);
  }
}

class InjectedResponse implements TransportResponse {
  readonly answer: Promise<Response>;
  private resolve!: (response: Response) => void;
  private reject!: (error: Error) => void;
  private status = 200;
  private readonly headers = new Headers();
  private stream: ReadableStreamDefaultController<Uint8Array> | null = null;
  private ended = false;
  private aborted: (() => void) | null = null;
  private data: ((chunk: ArrayBuffer, isLast: boolean) => void) | null = null;

  constructor(
    private readonly head: boolean,
    private readonly remote: ArrayBuffer,
    signal: AbortSignal,
    private readonly open: Set<InjectedResponse>,
  ) {
    open.add(this);
    this.answer = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    signal.addEventListener('abort', () => this.abort(signal.reason), { once: true });
  }

  /** The request body, to the handler's onData if it took one (uWS too hands it over after the route callback). */
  deliver(body: Uint8Array): void {
    if (this.data === null) return;
    const chunk = body.slice().buffer;
    this.data(chunk, true);
  }

  writeStatus(status: string): void {
    this.status = Number.parseInt(status, 10);
  }

  writeHeader(name: string, value: string): void {
    const lines = value.split('\r\n');
    this.headers.append(name, lines[0]);
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      this.headers.append(line.slice(0, colon), line.slice(colon + 1).trim());
    }
  }

  write(chunk: BodyBytes): boolean {
    if (this.stream === null) {
      this.resolve(
        new Response(new ReadableStream<Uint8Array>({ start: (controller) => void (this.stream = controller), cancel: () => this.abort(undefined) }), {
          status: this.status,
          headers: this.headers,
        }),
      );
    }
    this.stream!.enqueue(bytesOf(chunk));
    return true;
  }

  end(body?: BodyBytes, closeConnection = false): void {
    if (this.ended) return;
    if (this.stream !== null) {
      if (body !== undefined && bytesOf(body).byteLength > 0) this.stream.enqueue(bytesOf(body));
      this.finish();
      this.stream.close();
      return;
    }
    const bytes = body === undefined ? new Uint8Array(0) : bytesOf(body);
    this.headers.set('content-length', String(bytes.byteLength));
    if (closeConnection) this.headers.set('connection', 'close');
    this.finish();
    this.resolve(new Response(this.head || this.status === 204 || this.status === 304 ? null : decoded(bytes, this.headers.get('content-encoding')), { status: this.status, headers: this.headers }));
  }

  endWithoutBody(): void {
    if (this.ended) return;
    this.finish();
    this.resolve(new Response(null, { status: this.status, headers: this.headers }));
  }

  cork(writes: () => void): void {
    writes();
  }

  onAborted(handler: () => void): void {
    this.aborted = handler;
  }

  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): void {
    this.data = handler;
  }

  onWritable(): void {
    // write() never buffers: the Response's stream queues every chunk
  }

  getRemoteAddress(): ArrayBuffer {
    return this.remote;
  }

  close(): void {
    const error = new TypeError('terminated: the server closed the connection');
    if (this.stream !== null) this.stream.error(error);
    else this.reject(error);
    this.abort(error);
  }

  private finish(): void {
    this.ended = true;
    this.aborted = null;
    this.open.delete(this);
  }

  /** The client went away (or the connection was cut): the handler hears of it once, unless the answer ended. */
  private abort(reason: unknown): void {
    if (this.ended) return;
    const aborted = this.aborted;
    this.finish();
    if (this.stream === null) this.reject(reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError'));
    aborted?.();
  }
}

function bytesOf(body: BodyBytes): Uint8Array {
  if (typeof body === 'string') return Buffer.from(body);
  return body instanceof ArrayBuffer ? new Uint8Array(body.slice(0)) : new Uint8Array(body);
}

/** The body as fetch hands it over: decoded from its Content-Encoding (which stays in the headers). */
function decoded(bytes: Uint8Array, coding: string | null): Uint8Array {
  if (coding === 'gzip') return gunzipSync(bytes);
  if (coding === 'deflate') return inflateSync(bytes);
  if (coding === 'br') return brotliDecompressSync(bytes);
  return bytes;
}

function addressBytes(text: string): ArrayBuffer {
  const bytes = ipBytes(text);
  if (bytes === null) throw new RangeError(`inject: remoteAddress ${text} is not an IP address`);
  return bytes.buffer as ArrayBuffer;
}
