// The request/response interface routing stands on, so that no route, guard or handler knows which
// transport carries its requests. It is the part of uWebSockets.js' API that server.ts, reply.ts,
// fetch-bridge.ts and framing.ts use: uWS's own request and response objects are its first
// implementation (passed through untouched, so the hot path pays nothing for the interface), inject.ts's
// in-memory exchange the second (tests whose subject is not the socket). A transport takes the server's
// route table (route-table.ts) and carries requests to its handlers.

/** The request as a handler sees it during its callback: valid only until the callback returns (as in uWS). */
export interface TransportRequest {
  /** The method as sent (upper-case for every method the routes know). */
  getCaseSensitiveMethod(): string;
  /** The path as sent, still percent-encoded, without the query. */
  getUrl(): string;
  /** The raw query without '?'; undefined or '' when there is none. */
  getQuery(): string | undefined;
  /** The header's value ('' when absent); the first of several lines of one name. */
  getHeader(lowerCaseName: string): string;
  /** The route pattern's parameter number `index`, raw (still percent-encoded). */
  getParameter(index: number): string | undefined;
  /** Every header line, in order, by lower-case name. */
  forEach(visit: (name: string, value: string) => void): void;
}

/** Body bytes as a transport writes them. */
export type BodyBytes = string | ArrayBuffer | Uint8Array;

/**
 * The answer being written. Writes happen corked (inside the route callback, or inside cork()); after
 * onAborted's handler ran the response must not be touched again.
 */
export interface TransportResponse {
  /** The whole status line text after the version, e.g. "404 Not Found"; none written means 200. */
  writeStatus(status: string): unknown;
  /** One header line; `value` may carry further lines ("v\r\nName: v", see reply.ts compileHeaders). */
  writeHeader(name: string, value: string): unknown;
  /** A chunk of a streamed body (sent chunked); false when it was buffered: wait for onWritable. */
  write(chunk: BodyBytes): boolean;
  /** Ends the answer with this body and its Content-Length; `closeConnection` closes the connection after. */
  end(body?: BodyBytes, closeConnection?: boolean): unknown;
  /** Ends an answer that has no body (HEAD, 204, 304) without a Content-Length. */
  endWithoutBody(): unknown;
  /** Runs `writes` so that what they write leaves in one go. */
  cork(writes: () => void): unknown;
  /** Called once if the client goes away before the answer ends. */
  onAborted(handler: () => void): unknown;
  /** Takes the request body as it arrives; the chunk is valid only during the call (copy it). */
  onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): unknown;
  /** Called when a buffered write has drained; return true. Only the first handler of a response counts. */
  onWritable(handler: (offset: number) => boolean): unknown;
  /** The peer's address: 4 bytes (IPv4) or 16 (IPv6). */
  getRemoteAddress(): ArrayBuffer;
  /** Cuts the connection at once (the client sees a reset or a truncated answer). */
  close(): unknown;
}

export type TransportHandler = (res: TransportResponse, req: TransportRequest) => void;

/** A request the transport refuses before any route sees it (its parser's finding, or a bound it keeps). */
export interface RequestFault {
  readonly status: 400 | 408 | 431 | 501;
  /** Where the body ends cannot be read one way (RFC 9112 §6): the same problem type as framing.ts's. */
  readonly framing?: boolean;
  /** What is wrong and what to send instead, without a final full stop. */
  readonly reason: string;
}

/** The methods a route can be registered for; '*' is any method (the server's 404/405 catch-all). */
export type TransportMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | '*';

/** A transport that listens on a socket and carries its requests to a route table's handlers. */
export interface ListeningTransport {
  /** 'uws' or 'node': what /status and the start log name. */
  readonly name: string;
  /** A route registered after the transport was made (the route table holds those made before). */
  handle(method: TransportMethod, pattern: string, handler: TransportHandler): void;
  /** Binds; resolves with the bound port (0 picks a free one). */
  listen(host: string, port: number): Promise<number>;
  /** Stops accepting connections; open ones stay. */
  stopListening(): void;
  /** Closes every open connection. */
  close(): void;
}
