// The node:http transport (transport.ts): the route table (route-table.ts) served by Node's own HTTP
// server, for every Node and platform where no native uWS binary loads. node:http's request and
// response are adapted to the interface uWS's objects have, so server.ts, reply.ts and fetch-bridge.ts
// write to it unchanged; Node's server answers pipelined requests in order, and HTTP/1.0 (keep-alive when
// the request asks), itself. What uWS leaves unanswered is answered here, at once, as problem+json from
// the server's hooks (RFC 9112): an unknown method 501, too many header lines or too large a head 431,
// chunked not the final coding 400, any other malformed request 400, a request too slow to arrive 408;
// each closes the connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ListenOptions, Socket } from 'node:net';
import { ipBytes } from './client-ip.js';
import { statusLine, writeReply, type HttpReply, type Refusal } from './reply.js';
import type { RouteTable } from './route-table.js';
import type { BodyBytes, ListeningTransport, RequestFault, TransportRequest, TransportResponse } from './transport.js';

/** Header lines a request may carry; more get 431 (node:http would drop the extra ones silently). */
export const MAX_HEADER_LINES = 100;
/** The largest request head (request line and header lines) read; larger gets 431. Node's default. */
export const MAX_HEAD_BYTES = 16_384;
/** How long a client may take, in ms (docs/SECURITY.md, "slow clients"). */
export interface SlowClientBounds {
  /** The request head must arrive within this long of its first byte, */
  readonly headMs: number;
  /** and the whole request (its body too) within this long; slower gets 408. */
  readonly requestMs: number;
  /** An idle keep-alive connection is closed after this long, without an answer. */
  readonly keepAliveMs: number;
  /** How often node:http looks for requests over their bounds: a slow client is cut up to this late. */
  readonly checkEveryMs: number;
}

/** The promised bounds: the head within 10 s, the whole request within 60 s, idle connections closed after 10 s, as uWS closes them. */
export const SLOW_CLIENT_BOUNDS: SlowClientBounds = { headMs: 10_000, requestMs: 60_000, keepAliveMs: 10_000, checkEveryMs: 1000 };

const NO_ADDRESS = new Uint8Array(4).buffer;
/** A request line with a method token, as RFC 9112 §3 has it: llhttp calls its method invalid when it does not know it. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) \S+ HTTP\/\d\.\d\r?\n/;

export interface NodeTransportOptions {
  /** Listen with SO_REUSEPORT, so that every server thread binds the same port (Node 22.12+, transport-choice.ts). */
  readonly reusePort?: boolean;
  /** Default SLOW_CLIENT_BOUNDS (smaller ones let a test see a 408 without waiting 10 s). */
  readonly bounds?: SlowClientBounds;
}

/** Node's HTTP server over `routes`; `refuse` answers what it refuses before routing. */
export function nodeTransport(routes: RouteTable, refuse: Refusal, options: NodeTransportOptions = {}): ListeningTransport {
  const bounds = options.bounds ?? SLOW_CLIENT_BOUNDS;
  const server: Server = createServer(
    // checked every second (node:http's default is 30 s), so that a slow client is cut close to its bound
    { joinDuplicateHeaders: false, requireHostHeader: false, maxHeaderSize: MAX_HEAD_BYTES, connectionsCheckingInterval: bounds.checkEveryMs },
    (req, res) => serve(routes, refuse, req, res),
  );
  server.headersTimeout = bounds.headMs;
  server.requestTimeout = bounds.requestMs;
  server.keepAliveTimeout = bounds.keepAliveMs;
  // one more than allowed, so that a request over the bound is seen (and refused), not cut short
  server.maxHeadersCount = MAX_HEADER_LINES + 1;
  server.on('clientError', (error: ParserError, socket: Socket) => refuseUnparsed(refuse, error, socket, bounds));
  return {
    name: 'node',
    // the server adds a late route to the table itself, which this transport matches on every request
    handle: () => {},
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        // reusePort is not in Node 20's types (Node 20 would ignore it: transport-choice.ts serves one thread there)
        server.listen({ host, port, ...(options.reusePort === true ? { reusePort: true } : {}) } as ListenOptions, () => {
          server.off('error', reject);
          const address = server.address();
          resolve(typeof address === 'object' && address !== null ? address.port : port);
        });
      }),
    stopListening: () => void server.close(),
    close: () => server.closeAllConnections(),
  };
}

function serve(routes: RouteTable, refuse: Refusal, req: IncomingMessage, res: ServerResponse): void {
  const target = originForm(req.url ?? '');
  const fault = requestFault(req, target);
  if (fault !== null) {
    writeReply(new NodeResponse(req, res), refuse(fault), req.method === 'HEAD', null, true);
    return;
  }
  const mark = target!.indexOf('?');
  const path = mark < 0 ? target! : target!.slice(0, mark);
  // '/*' (the server's catch-all) matches every path
  const match = routes.match(req.method ?? 'GET', path)!;
  match.handler(new NodeResponse(req, res), new NodeRequest(req, path, mark < 0 ? '' : target!.slice(mark + 1), match.params));
}

/** The request target as a path and query (absolute-form taken to its path, RFC 9112 §3.2.2); null when it is neither. */
function originForm(url: string): string | null {
  if (url.startsWith('/')) return url;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(url);
  if (absolute === null) return null;
  const rest = url.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** What node:http's parser lets through but RFC 9112 refuses, or bounds it does not keep itself. */
function requestFault(req: IncomingMessage, target: string | null): RequestFault | null {
  if (req.rawHeaders.length / 2 > MAX_HEADER_LINES) return { status: 431, reason: `the request has more than ${MAX_HEADER_LINES} header lines; send fewer` };
  if (req.httpVersion === '1.1' && req.headers.host === undefined) return { status: 400, reason: 'an HTTP/1.1 request needs a Host header (RFC 9112 §3.2); send one' };
  if (target === null) return { status: 400, reason: `the request target ${JSON.stringify((req.url ?? '').slice(0, 100))} is not a path; send one starting with /` };
  return null;
}

/** node:http's parse errors carry llhttp's code, its reason and the bytes it read. */
interface ParserError extends NodeJS.ErrnoException {
  reason?: string;
  rawPacket?: Buffer;
}

/** A request node:http's parser refused (no request exists): the problem written on the socket, which then closes. */
function refuseUnparsed(refuse: Refusal, error: ParserError, socket: Socket, bounds: SlowClientBounds): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  socket.end(rawAnswer(refuse(parserFault(error, bounds))));
}

function parserFault(error: ParserError, bounds: SlowClientBounds): RequestFault {
  switch (error.code) {
    case 'HPE_INVALID_METHOD': {
      const line = REQUEST_LINE.exec(error.rawPacket?.toString('latin1') ?? '');
      if (line !== null) return { status: 501, reason: `the method ${line[1].slice(0, 40)} is not one this server knows; use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS` };
      break;
    }
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: `the request head is larger than ${MAX_HEAD_BYTES} bytes; send fewer or shorter header lines` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: `the request did not arrive in time (its head within ${seconds(bounds.headMs)}, all of it within ${seconds(bounds.requestMs)}); send it again without pauses` };
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { status: 400, framing: true, reason: 'the Transfer-Encoding does not end with chunked (RFC 9112 §6.3), so where the body ends cannot be known; send the body chunked (chunked last), or with a Content-Length' };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, framing: true, reason: 'the request has Content-Length twice, or together with Transfer-Encoding (RFC 9112 §6.3); send one Content-Length, or Transfer-Encoding: chunked alone' };
    default:
      break;
  }
  return { status: 400, reason: `the request is not valid HTTP/1.1 (${(error.reason ?? error.code ?? 'unreadable').replace(/\.$/, '')}); send a well-formed request` };
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** An answer as bytes for a socket no response object stands for; it says the connection closes. */
function rawAnswer(reply: HttpReply): string {
  const body = typeof reply.body === 'string' ? reply.body : (reply.body?.toString('utf8') ?? '');
  let head = `HTTP/1.1 ${statusLine(reply.status)}\r\n`;
  const headers = reply.headers ?? [];
  // a value may carry further header lines (reply.ts compileHeaders): written as they are
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  return `${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

class NodeRequest implements TransportRequest {
  constructor(
    private readonly req: IncomingMessage,
    private readonly path: string,
    private readonly query: string,
    private readonly params: readonly string[],
  ) {}

  getCaseSensitiveMethod(): string {
    return this.req.method ?? 'GET';
  }

  getUrl(): string {
    return this.path;
  }

  getQuery(): string {
    return this.query;
  }

  getHeader(lowerCaseName: string): string {
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (raw[i].length === lowerCaseName.length && raw[i].toLowerCase() === lowerCaseName) return raw[i + 1];
    return '';
  }

  getParameter(index: number): string | undefined {
    return this.params[index];
  }

  forEach(visit: (name: string, value: string) => void): void {
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) visit(raw[i].toLowerCase(), raw[i + 1]);
  }
}

/**
 * The answer's status and header lines are kept until its first body write and then sent with one
 * writeHead of a flat list: cheaper than node:http's per-header setHeader bookkeeping.
 */
class NodeResponse implements TransportResponse {
  private aborted: (() => void) | null = null;
  private status = 200;
  private message: string | undefined;
  private readonly head: string[] = [];

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {}

  writeStatus(status: string): void {
    const space = status.indexOf(' ');
    this.status = Number.parseInt(status, 10);
    if (space > 0) this.message = status.slice(space + 1);
  }

  writeHeader(name: string, value: string): void {
    if (!value.includes('\r\n')) {
      this.head.push(name, value);
      return;
    }
    const lines = headerLines(name, value);
    for (let i = 0; i < lines.length; i++) this.head.push(lines[i]);
  }

  write(chunk: BodyBytes): boolean {
    this.sendHead();
    return this.res.write(bytesOf(chunk));
  }

  end(body?: BodyBytes, closeConnection = false): void {
    const bytes = body === undefined ? undefined : bytesOf(body);
    if (!this.res.headersSent) {
      if (closeConnection) this.head.push('Connection', 'close');
      this.head.push('Content-Length', String(bytes === undefined ? 0 : typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength));
      this.sendHead();
    }
    this.res.end(bytes);
  }

  endWithoutBody(): void {
    this.sendHead();
    this.res.end();
  }

  private sendHead(): void {
    if (!this.res.headersSent) this.res.writeHead(this.status, this.message, this.head);
  }

  /**
   * node:http joins the head with the first body write itself. Not res.cork(): on Node 24 a write that
   * returns false between res.cork() and res.uncork() never gets its 'drain', and the stream stalls.
   */
  cork(writes: () => void): void {
    writes();
  }

  onAborted(handler: () => void): void {
    // listened for only when asked (the server asks for answers that wait): most answers are written at once
    if (this.aborted === null) {
      this.res.on('close', () => {
        if (!this.res.writableFinished) this.aborted?.();
      });
    }
    this.aborted = handler;
  }

  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): void {
    this.req.on('data', (chunk: Buffer) => handler(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength) as ArrayBuffer, false));
    this.req.on('end', () => handler(new ArrayBuffer(0), true));
  }

  onWritable(handler: (offset: number) => boolean): void {
    this.res.on('drain', () => handler(0));
  }

  getRemoteAddress(): ArrayBuffer {
    const bytes = ipBytes(this.req.socket.remoteAddress ?? '');
    return bytes === null ? NO_ADDRESS : (bytes.buffer as ArrayBuffer);
  }

  close(): void {
    this.req.socket.destroy();
  }
}

/**
 * A header line whose value carries further lines (reply.ts compileHeaders) as name/value pairs. Those
 * values are the routes' constant lists, so the split is kept (up to a bound, should one ever vary).
 */
const SPLIT_LINES = new Map<string, readonly string[]>();
const SPLIT_LINES_KEPT = 256;

function headerLines(name: string, value: string): readonly string[] {
  // by value alone (its hash is kept in the string): the first name is checked instead of joined into a key
  const kept = SPLIT_LINES.get(value);
  if (kept !== undefined && kept[0] === name) return kept;
  const lines = value.split('\r\n');
  const pairs = [name, lines[0]];
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    pairs.push(lines[i].slice(0, colon), lines[i].slice(colon + 1).trim());
  }
  if (kept === undefined && SPLIT_LINES.size < SPLIT_LINES_KEPT) SPLIT_LINES.set(value, pairs);
  return pairs;
}

/** The body in bytes of its own: node:http may hold it until earlier pipelined answers are out, and the reads reuse theirs. */
function bytesOf(body: BodyBytes): string | Uint8Array {
  return typeof body === 'string' ? body : body instanceof ArrayBuffer ? new Uint8Array(body.slice(0)) : Buffer.from(body);
}
