// The node:http transport (transport.ts): the route table (route-table.ts) served by Node's own HTTP
// server, for every Node and platform where no native uWS binary loads. node:http's request and
// response are adapted to the interface uWS's objects have, so server.ts, reply.ts and fetch-bridge.ts
// write to it unchanged; Node's server answers pipelined requests in order itself. What uWS leaves
// unanswered is answered here (RFC 9112): an unknown method 501, too many or too large header lines 431,
// any other malformed request 400, each closing the connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ListenOptions, Socket } from 'node:net';
import { ipBytes } from './client-ip.js';
import type { RouteTable } from './route-table.js';
import type { BodyBytes, ListeningTransport, TransportRequest, TransportResponse } from './transport.js';

/** Header lines a request may carry; more get 431 (node:http would drop the extra ones silently). */
export const MAX_HEADER_LINES = 100;

const NO_ADDRESS = new Uint8Array(4).buffer;

export interface NodeTransportOptions {
  /** Listen with SO_REUSEPORT, so that every server thread binds the same port (Node 22.12+, transport-choice.ts). */
  readonly reusePort?: boolean;
}

/** Node's HTTP server over `routes`. */
export function nodeTransport(routes: RouteTable, options: NodeTransportOptions = {}): ListeningTransport {
  const server: Server = createServer({ joinDuplicateHeaders: false, requireHostHeader: true }, (req, res) => serve(routes, req, res));
  // one more than allowed, so that a request over the bound is seen (and refused), not cut short
  server.maxHeadersCount = MAX_HEADER_LINES + 1;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => refuseMalformed(error, socket));
  return {
    name: 'node',
    // the server adds a late route to the table itself, which this transport matches on every request
    handle: () => {},
    listen: (host, port) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        // reusePort is not in Node 20's types (it ignores the option)
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

function serve(routes: RouteTable, req: IncomingMessage, res: ServerResponse): void {
  const raw = req.url ?? '/';
  const mark = raw.indexOf('?');
  const path = mark < 0 ? raw : raw.slice(0, mark);
  if (req.rawHeaders.length / 2 > MAX_HEADER_LINES) {
    refuse(res, 431, `the request has more than ${MAX_HEADER_LINES} header lines; send fewer`);
    return;
  }
  const match = routes.match(req.method ?? 'GET', path);
  if (match === null) {
    refuse(res, 501, `the method ${req.method} is not served here`);
    return;
  }
  match.handler(new NodeResponse(req, res), new NodeRequest(req, path, mark < 0 ? '' : raw.slice(mark + 1), match.params));
}

/** A plain-text refusal of a request no route may see; the connection closes after it. */
function refuse(res: ServerResponse, status: number, reason: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  res.end(`${reason}\n`);
}

function refuseMalformed(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason] =
    error.code === 'HPE_INVALID_METHOD' ? [501, 'Not Implemented']
    : error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large']
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout']
    : [400, 'Bad Request'];
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
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

class NodeResponse implements TransportResponse {
  private aborted: (() => void) | null = null;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    res.on('close', () => {
      if (!res.writableFinished) this.aborted?.();
    });
  }

  writeStatus(status: string): void {
    const space = status.indexOf(' ');
    this.res.statusCode = Number.parseInt(status, 10);
    if (space > 0) this.res.statusMessage = status.slice(space + 1);
  }

  writeHeader(name: string, value: string): void {
    const lines = value.split('\r\n');
    this.res.appendHeader(name, lines[0]);
    for (let i = 1; i < lines.length; i++) {
      const colon = lines[i].indexOf(':');
      this.res.appendHeader(lines[i].slice(0, colon), lines[i].slice(colon + 1).trim());
    }
  }

  write(chunk: BodyBytes): boolean {
    return this.res.write(bytesOf(chunk));
  }

  end(body?: BodyBytes, closeConnection = false): void {
    if (closeConnection) this.res.setHeader('Connection', 'close');
    const bytes = body === undefined ? undefined : bytesOf(body);
    if (!this.res.headersSent) this.res.setHeader('Content-Length', bytes === undefined ? 0 : typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength);
    this.res.end(bytes);
  }

  endWithoutBody(): void {
    this.res.end();
  }

  cork(writes: () => void): void {
    this.res.cork();
    try {
      writes();
    } finally {
      this.res.uncork();
    }
  }

  onAborted(handler: () => void): void {
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

/** The body in bytes of its own: node:http may hold it until earlier pipelined answers are out, and the reads reuse theirs. */
function bytesOf(body: BodyBytes): string | Uint8Array {
  return typeof body === 'string' ? body : body instanceof ArrayBuffer ? new Uint8Array(body.slice(0)) : Buffer.from(body);
}
