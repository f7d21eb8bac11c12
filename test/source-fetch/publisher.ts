// The import job's side of the tests: a static web server on loopback (real HTTP, node:http) serving
// published files and their `.sha256` checksum files as nginx would (ETag, If-None-Match → 304), with the
// faults a replica must survive put on a path: a 500, a body cut short, a body that stops arriving, a body
// of no stated length. It keeps
// every request it answered, so a test can tell a 304 from a download.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checksumLine } from '../../src/source-fetch/checksum.js';

/** chunked: no Content-Length (the size is known only at the end). */
export type Fault = 'error500' | 'truncate' | 'hang' | 'chunked';

export interface Seen {
  path: string;
  /** The query, with its `?` ('' for none). */
  query: string;
  status: number;
  ifNoneMatch: string | null;
  authorization: string | null;
}

export class Publisher {
  private readonly files = new Map<string, Buffer>();
  private readonly faults = new Map<string, Fault>();
  readonly seen: Seen[] = [];
  /** When set, requests without this Authorization header get 401. */
  requireAuthorization: string | null = null;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<Publisher> {
    let publisher: Publisher | null = null;
    const server = createServer((request, response) => publisher!.answer(request, response));
    publisher = new Publisher(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return publisher;
  }

  /** http://127.0.0.1:port/<path> */
  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/${path}`;
  }

  /** Publishes `body` as `name`, then its checksum file (as the job does: the file first), stating `sha256` if given. */
  publish(name: string, body: Buffer, sha256 = sha256Of(body)): void {
    this.files.set(`/${name}`, body);
    this.files.set(`/${name}.sha256`, Buffer.from(checksumLine(sha256, name)));
  }

  /** Answers requests of `/<path>` with the fault; null: normally again. */
  fault(path: string, fault: Fault | null): void {
    if (fault === null) this.faults.delete(`/${path}`);
    else this.faults.set(`/${path}`, fault);
  }

  /** How many requests of `/<path>` got its body (200). */
  downloads(path: string): number {
    return this.seen.filter((s) => s.path === `/${path}` && s.status === 200).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const { pathname: path, search: query } = new URL(request.url!, 'http://x');
    const body = this.files.get(path);
    const fault = this.faults.get(path);
    const status = this.requireAuthorization !== null && request.headers.authorization !== this.requireAuthorization ? 401 : body === undefined ? 404 : fault === 'error500' ? 500 : request.headers['if-none-match'] === etagOf(body) ? 304 : 200;
    this.seen.push({ path, query, status, ifNoneMatch: request.headers['if-none-match'] ?? null, authorization: request.headers.authorization ?? null });
    if (status !== 200) {
      response.writeHead(status, body === undefined || status !== 304 ? {} : { ETag: etagOf(body) }).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', ...(fault === 'chunked' ? {} : { 'Content-Length': body!.length }), ETag: etagOf(body!) });
    if (fault === 'truncate') {
      response.write(body!.subarray(0, body!.length >> 1), () => response.destroy());
    } else if (fault === 'hang') {
      response.write(body!.subarray(0, 1024)); // then nothing, the connection open
    } else {
      response.end(body);
    }
  }
}

export function sha256Of(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

function etagOf(body: Buffer): string {
  return `"${sha256Of(body).slice(0, 16)}"`;
}
