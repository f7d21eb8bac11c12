// What a route handler reads of a request: copied out of the uWS request while it is valid (server.ts),
// or rebuilt from a forwarded one (forward.ts). Its own module so that the fetch bridge, which server.ts
// calls, needs nothing of server.ts.

export interface HttpRequestInfo {
  /** Upper-case; 'HEAD' when a GET route answers a HEAD request. */
  readonly method: string;
  /** The path as sent (still percent-encoded), without the query. */
  readonly path: string;
  /** The raw query string without '?'; '' when there is none. */
  readonly query: string;
  /** The route's :params by name, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The headers the route declared, by lower-case name ('' when absent); every header for 'all'. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Canonical client address (see client-ip.ts). Read on first use (asking uWS for the socket address
   * costs as much as the rest of a small request), so read it before the answer is written.
   */
  readonly ip: string;
  /** The request body for routes that take one (possibly empty); null otherwise. */
  readonly body: Buffer | null;
  /** Aborted when the client goes away before the answer is written. */
  readonly signal: AbortSignal;
  /**
   * The Accept-Encoding header ('' when absent), for a route that prepares its compressed answer itself
   * (HttpReply.encodings); absent on requests another thread passed on, which the write path codes itself.
   */
  readonly acceptEncoding?: string;
}
