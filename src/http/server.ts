// The HTTP server every endpoint stands on: routing plus the few things each request needs (declared
// headers, params, client IP, an optional body), kept off the hot path unless asked for. It knows its
// transport only through transport.ts' request/response interface: the routes go into a route table
// (route-table.ts) that the listening transport (uWS, uws.ts, or node:http, node-transport.ts: chosen by
// transport-choice.ts) serves and inject() answers in process.
//
// A handler that answers synchronously has its answer written before its transport callback returns (uWS
// has corked the socket, so the answers to requests read together leave in one write). It must be: uWS
// closes a connection whose next pipelined request arrives while an answer is still pending. Async
// answers, bodies and web Responses go through an Exchange, which registers onAborted and writes inside
// res.cork() when the answer is ready.
import { formatIpBytes, forwardedClientIp } from './client-ip.js';
import type { CorsOptions, CorsPolicy } from './cors.js';
import { sendResponse } from './fetch-bridge.js';
import { framingFault, type FramingFault } from './framing.js';
import { compileHeaders, isBodiless, joinHeaders, writeReply, type HeaderList, type HttpReply } from './reply.js';
import { represent } from './representation.js';
import { securityHeaders, type SecurityOptions } from './security-headers.js';
import { chooseTransport, type TransportFactory } from './transport-choice.js';
import { Injector, type InjectOptions } from './inject.js';
import { matchesPattern, RouteTable } from './route-table.js';
import type { ListeningTransport, RequestFault, TransportHandler, TransportMethod, TransportRequest as HttpRequest, TransportResponse as HttpResponse } from './transport.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler gets: plain values read while the transport's request was still valid. */
import type { HttpRequestInfo } from './request-info.js';
export type { HttpRequestInfo };

/** A plain reply, or a web Response (streamed when it is text/event-stream, see fetch-bridge.ts). */
export type RouteResult = HttpReply | Response;
export type RouteHandler = (request: HttpRequestInfo) => RouteResult | Promise<RouteResult>;

export interface RouteDefinition {
  readonly method: HttpMethod;
  /** uWS pattern: static segments, `:name` parameters, or a final `*`. A GET route also answers HEAD. */
  readonly pattern: string;
  /** Request headers the handler reads (lower-case names), or 'all' (e.g. for the fetch bridge). */
  readonly headers?: readonly string[] | 'all';
  /** Set to take a request body of at most this many bytes; larger bodies get the payloadTooLarge hook's answer. */
  readonly maxBodyBytes?: number;
  /** Makes the route answer cross-origin requests (public reads only). */
  readonly cors?: CorsPolicy;
  readonly handler: RouteHandler;
  /** The Content-Security-Policy of a page route (security-headers.ts pageContentSecurityPolicy); default frame-ancestors 'none'. */
  readonly contentSecurityPolicy?: string;
  /** Answers a body over maxBodyBytes instead of the payloadTooLarge hook (another thread's answer, see forward.ts). */
  readonly tooLarge?: (request: HttpRequestInfo, maxBytes: number) => RouteResult | Promise<RouteResult>;
  /** What metrics and the access log call the route: the spec's operationId where it has one; default `METHOD pattern`. */
  readonly operation?: string;
}

/** What another server thread needs to register the same route (and pass its requests on, see forward.ts). */
export interface RouteSpec {
  readonly method: HttpMethod;
  readonly pattern: string;
  readonly headers: readonly string[] | 'all';
  /** -1: the route takes no body. */
  readonly maxBodyBytes: number;
  readonly cors: CorsOptions | null;
  readonly contentSecurityPolicy: string | null;
  readonly operation: string;
}

/** Answers the server produces itself; the API turns them into problem+json. */
export interface ServerHooks {
  notFound(request: HttpRequestInfo): HttpReply;
  /** The server adds the Allow header. */
  methodNotAllowed(request: HttpRequestInfo, allow: readonly string[]): HttpReply;
  payloadTooLarge(request: HttpRequestInfo, maxBytes: number): HttpReply;
  /** A request whose body framing is ambiguous or unsupported (framing.ts); its connection is closed after. */
  badFraming(request: HttpRequestInfo, fault: FramingFault): HttpReply;
  /** A request the transport refused before routing (malformed, too many header lines, unknown method); the connection closes after. */
  refused(fault: RequestFault): HttpReply;
  /**
   * Called with every error a handler throws or rejects with (log it here) and answers it; must not
   * leak internals. When the error struck after the answer had started, its reply is dropped and the
   * connection closed. Not called for errors after the client went away.
   */
  serverError(error: unknown, request: HttpRequestInfo): HttpReply;
}

/**
 * Told once about every request the server answers (src/observe: metrics and the access log), after its
 * answer is written. Requests another thread passed on are told there, not here (dispatch).
 */
export interface RequestObserver {
  /** The observer's number for an operation, asked once when its route is registered. */
  operation(name: string, pattern: string): number;
  /** Whether `observed` wants the client address (then read before the answer is written). */
  readonly wantsClient: boolean;
  /**
   * `status` 499 when the client went away before its answer; `bytes` of the body sent; `startedMs` from
   * performance.now() when the request arrived; `client` null unless wanted (and still readable).
   */
  observed(operation: number, method: string, status: number, bytes: number, startedMs: number, client: string | null): void;
}

/** The status told for a request whose client went away before its answer (nginx's convention). */
export const CLIENT_GONE = 499;

export interface HttpServerOptions {
  readonly hooks: ServerHooks;
  readonly observer?: RequestObserver | null;
  /** Proxies in front of the server that append to X-Forwarded-For (TRUST_PROXY); 0 = use the socket's peer. */
  readonly trustedProxyHops?: number;
  /**
   * Told once, the first time a request behind trusted proxies lacks a readable address in the
   * X-Forwarded-For entry TRUST_PROXY names (it is then counted by the socket's peer): for the log.
   */
  readonly onUnreadableForwardedFor?: () => void;
  /** The security headers every answer carries (security-headers.ts); default: plain http, no HSTS. */
  readonly security?: SecurityOptions;
  /** Makes the transport that listen() starts, over the server's route table; default HTTP_TRANSPORT=auto's (transport-choice.ts). */
  readonly transport?: TransportFactory;
}

export type { TransportFactory };

export interface CloseOptions {
  /** Longest wait for in-flight requests before their connections are cut (default 10 000 ms). */
  readonly timeoutMs?: number;
}

interface CompiledRoute {
  readonly method: HttpMethod;
  readonly paramNames: readonly string[];
  /** null: capture every header. */
  readonly headerNames: readonly string[] | null;
  /** -1: the route takes no body. */
  readonly maxBodyBytes: number;
  readonly extraHeaders: HeaderList | null;
  readonly handler: RouteHandler;
  readonly tooLarge: NonNullable<RouteDefinition['tooLarge']> | null;
  /** The observer's number for the route's operation (-1: no observer). */
  readonly operation: number;
}

/** Every route registered on one pattern: for 405 answers and CORS preflights. */
interface PatternEntry {
  readonly segments: readonly string[];
  readonly methods: HttpMethod[];
  cors: CorsPolicy | null;
  corsMethods: string[];
  preflight: HttpReply | null;
}

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});
// Answer of last resort, when the serverError hook itself fails.
const FALLBACK_500: HttpReply = { status: 500, headers: ['Content-Type', 'text/plain; charset=utf-8'], body: 'Internal Server Error' };

/** What the server shares with its exchanges: the in-flight count and the error hook. */
class ServerState {
  inFlight = 0;
  /** While draining, answers ask clients to close their keep-alive connections. */
  closing = false;
  onIdle: (() => void) | null = null;

  constructor(
    private readonly hooks: ServerHooks,
    readonly observer: RequestObserver | null,
  ) {}

  /** The one observer call per request; `client` as observe() read it before the answer. */
  observe(request: ServerRequest, status: number, bytes: number, client: string | null): void {
    this.observer?.observed(request.operation, request.method, status, bytes, request.startedMs, client);
  }

  /** The client address for the observer, read now (before the answer is written), if it wants it. */
  client(request: ServerRequest): string | null {
    return this.observer?.wantsClient === true ? request.ip : null;
  }

  begin(): void {
    this.inFlight++;
  }

  end(): void {
    if (--this.inFlight === 0 && this.onIdle !== null) this.onIdle();
  }

  /** The serverError hook's answer, or a bare 500 if the hook fails too. */
  failure(error: unknown, request: HttpRequestInfo): HttpReply {
    try {
      return this.hooks.serverError(error, request);
    } catch {
      return FALLBACK_500;
    }
  }
}

export class HttpServer {
  /** Every handler by method and pattern: what the listening transport registers and inject() matches. */
  private readonly table = new RouteTable();
  private readonly injector = new Injector(this.table);
  private readonly makeTransport: TransportFactory;
  private transport: ListeningTransport | null = null;
  private readonly hooks: ServerHooks;
  private readonly state: ServerState;
  private readonly trustedProxyHops: number;
  private unreadableForwardedFor: (() => void) | null;
  private readonly security: SecurityOptions;
  /** The security headers of answers no route writes (404, 405, preflights, refused framing). */
  private readonly answerHeaders: HeaderList;
  private readonly patterns = new Map<string, PatternEntry>();
  /** In the order registered: a route's number is its position (routeSpecs, dispatch). */
  private readonly routes: { spec: RouteSpec; route: CompiledRoute }[] = [];
  private listening = false;
  private closed: Promise<void> | null = null;
  /** Requests this server has received (routed or not), for thread statistics. */
  requestsReceived = 0;
  private readonly unroutedOperation: number;
  private readonly preflightOperation: number;

  constructor(options: HttpServerOptions) {
    this.hooks = options.hooks;
    this.state = new ServerState(options.hooks, options.observer ?? null);
    this.trustedProxyHops = options.trustedProxyHops ?? 0;
    this.unreadableForwardedFor = options.onUnreadableForwardedFor ?? null;
    this.security = options.security ?? { https: false };
    this.answerHeaders = compileHeaders(securityHeaders(this.security));
    this.unroutedOperation = this.state.observer?.operation('unrouted', '/*') ?? -1;
    this.preflightOperation = this.state.observer?.operation('preflight', '/*') ?? -1;
    this.makeTransport = options.transport ?? ((routes, refuse) => chooseTransport('auto').factory(routes, refuse));
    this.register('*', '/*', (res, req) => this.unrouted(res, req));
  }

  /** The transport serving the socket ('uws', 'node'), or null before listen(). */
  get transportName(): string | null {
    return this.transport?.name ?? null;
  }

  /**
   * fetch(input, init) answered in this process by the same routes, guards and write path as a socket's
   * requests (inject.ts); a relative URL is taken against INJECT_ORIGIN. Needs no listen().
   */
  inject(input: string | URL | Request, init?: RequestInit, options?: InjectOptions): Promise<Response> {
    return this.injector.fetch(input, init, options);
  }

  private register(method: TransportMethod, pattern: string, handler: TransportHandler): void {
    this.table.add(method, pattern, handler);
    this.transport?.handle(method, pattern, handler);
  }

  route(definition: RouteDefinition): this {
    const { method, pattern } = definition;
    const segments = pattern.split('/');
    if (segments[0] !== '' || segments.slice(0, -1).includes('*')) throw new RangeError(`invalid route pattern ${pattern}`);
    let entry = this.patterns.get(pattern);
    if (entry === undefined) {
      entry = { segments, methods: [], cors: null, corsMethods: [], preflight: null };
      this.patterns.set(pattern, entry);
    }
    if (entry.methods.includes(method)) throw new RangeError(`route ${method} ${pattern} is already registered`);
    entry.methods.push(method);

    const headers = definition.headers ?? [];
    const operation = definition.operation ?? `${method} ${pattern}`;
    const route: CompiledRoute = {
      method,
      paramNames: segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1)),
      headerNames: headers === 'all' ? null : headers.map((h) => h.toLowerCase()),
      maxBodyBytes: definition.maxBodyBytes ?? -1,
      // CORS and the security headers, in one header line
      extraHeaders: joinHeaders(definition.cors?.responseHeaders ?? [], compileHeaders(securityHeaders(this.security, definition.contentSecurityPolicy))),
      handler: definition.handler,
      tooLarge: definition.tooLarge ?? null,
      operation: this.state.observer?.operation(operation, pattern) ?? -1,
    };
    const contentSecurityPolicy = definition.contentSecurityPolicy ?? null;
    this.routes.push({ spec: { method, pattern, headers, maxBodyBytes: route.maxBodyBytes, cors: definition.cors?.options ?? null, contentSecurityPolicy, operation }, route });
    this.register(method, pattern, (res, req) => this.serve(route, res, req, method));
    if (method === 'GET') this.register('HEAD', pattern, (res, req) => this.serve(route, res, req, 'HEAD'));
    if (definition.cors !== undefined) this.enableCors(entry, pattern, definition.cors, method);
    return this;
  }

  /** Every route, numbered by position (see dispatch). */
  routeSpecs(): RouteSpec[] {
    return this.routes.map((r) => r.spec);
  }

  /** Whether a route with this method and pattern is registered. */
  hasRoute(method: HttpMethod, pattern: string): boolean {
    return this.patterns.get(pattern)?.methods.includes(method) ?? false;
  }

  /**
   * Answers a request another thread received for route number `route` (see routeSpecs), as if it had
   * come here: the handler's answer, or with `tooLargeBytes` ≥ 0 the answer to a body over that many
   * bytes. Errors become the serverError hook's answer; counts as in flight until settled.
   */
  async dispatch(route: number, request: HttpRequestInfo, tooLargeBytes = -1): Promise<RouteResult> {
    const { route: compiled } = this.routes[route];
    this.state.begin();
    try {
      return await (tooLargeBytes >= 0 ? this.tooLarge(compiled, request, tooLargeBytes) : compiled.handler(request));
    } catch (error) {
      return this.state.failure(error, request);
    } finally {
      this.state.end();
    }
  }

  /** Requests whose answer is still being produced or written (async handlers, bodies, streams). */
  get inFlightRequests(): number {
    return this.state.inFlight;
  }

  /** Starts listening; resolves with the bound port (port 0 picks a free one). */
  listen(host: string, port: number): Promise<number> {
    if (this.listening || this.state.closing) return Promise.reject(new Error('server is already listening or closed'));
    this.listening = true;
    // made synchronously: a thread asked to listen and then to count has bound before it counts
    this.transport ??= this.makeTransport(this.table, (fault) => this.refusal(fault));
    return this.transport.listen(host, port);
  }

  /**
   * Stops accepting connections, lets in-flight requests finish (answers written meanwhile close their
   * connections), then closes every remaining connection. After `timeoutMs` the stragglers are cut:
   * their clients see a reset and their handlers' signals abort.
   */
  close(options: CloseOptions = {}): Promise<void> {
    this.closed ??= this.drain(options.timeoutMs ?? 10_000);
    return this.closed;
  }

  private async drain(timeoutMs: number): Promise<void> {
    const state = this.state;
    state.closing = true;
    this.transport?.stopListening();
    if (state.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        state.onIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.transport?.close();
    this.injector.close();
  }

  private serve(route: CompiledRoute, res: HttpResponse, req: HttpRequest, method: string): void {
    this.requestsReceived++;
    const request = new ServerRequest(
      res,
      method,
      req.getUrl(),
      req.getQuery() ?? '',
      route.paramNames.length === 0 ? EMPTY : readParams(req, route.paramNames),
      route.headerNames === null ? readAllHeaders(req) : route.headerNames.length === 0 ? EMPTY : readHeaders(req, route.headerNames),
      this.forwardedIp(req),
      req.getHeader('accept-encoding'),
      req.getHeader('if-none-match'),
    );
    this.observing(request, route.operation);
    const fault = framingFault(req);
    if (fault !== null) this.refuseFraming(res, request, fault);
    else if (route.maxBodyBytes >= 0) this.receiveBody(route, res, req, request);
    else this.answer(route, res, request, null);
  }

  /** The answer to a request the transport refused before routing (transport.ts RequestFault). */
  private refusal(fault: RequestFault): HttpReply {
    let reply: HttpReply;
    try {
      reply = this.hooks.refused(fault);
    } catch {
      reply = FALLBACK_500;
    }
    return { ...reply, headers: [...(reply.headers ?? []), ...this.answerHeaders] };
  }

  /** Answers a request whose framing the parser may have read otherwise than a proxy did, and closes. */
  private refuseFraming(res: HttpResponse, request: ServerRequest, fault: FramingFault): void {
    let reply: HttpReply;
    try {
      reply = this.hooks.badFraming(request, fault);
    } catch (error) {
      reply = this.state.failure(error, request);
    }
    this.writeNow(res, reply, request, this.answerHeaders, true);
  }

  private answer(route: CompiledRoute, res: HttpResponse, request: ServerRequest, exchange: Exchange | null): void {
    let result: RouteResult | Promise<RouteResult>;
    try {
      result = route.handler(request);
    } catch (error) {
      result = this.state.failure(error, request);
    }
    if (exchange === null && !(result instanceof Response) && typeof (result as Partial<Promise<unknown>>).then !== 'function') {
      this.writeNow(res, result as HttpReply, request, route.extraHeaders, false);
    } else {
      (exchange ?? new Exchange(this.state, res, request, route.extraHeaders)).settle(result);
    }
  }

  /** Marks the request for the observer: its operation, and when it arrived. */
  private observing(request: ServerRequest, operation: number): void {
    if (this.state.observer === null) return;
    request.operation = operation;
    request.startedMs = performance.now();
  }

  /** Writes inside the uWS callback (already corked). */
  private writeNow(res: HttpResponse, reply: HttpReply, request: ServerRequest, extraHeaders: HeaderList | null, closeConnection: boolean): void {
    const client = this.state.client(request);
    let sent = reply;
    try {
      sent = represent(reply, request);
      writeReply(res, sent, request.method === 'HEAD', extraHeaders, closeConnection || this.state.closing);
    } catch (error) {
      this.state.failure(error, request);
      res.close();
    }
    this.state.observe(request, sent.status, replyBytes(sent, request.method === 'HEAD'), client);
  }

  private receiveBody(route: CompiledRoute, res: HttpResponse, req: HttpRequest, request: ServerRequest): void {
    const maxBytes = route.maxBodyBytes;
    const declared = req.getHeader('content-length');
    const exchange = new Exchange(this.state, res, request, route.extraHeaders);
    if (declared !== '' && Number(declared) > maxBytes) {
      // Answer before the body arrives and close, so the client need not send it all.
      exchange.closeConnection = true;
      exchange.settle(this.tooLarge(route, request, maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.onData((chunk, isLast) => {
      if (exchange.settled) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        exchange.closeConnection = true;
        exchange.settle(this.tooLarge(route, request, maxBytes));
        return;
      }
      // uWS neuters the chunk when this callback returns: copy it.
      if (chunk.byteLength > 0) chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (!isLast) return;
      request.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      this.answer(route, res, request, exchange);
    });
  }

  private tooLarge(route: CompiledRoute, request: HttpRequestInfo, maxBytes: number): RouteResult | Promise<RouteResult> {
    try {
      return route.tooLarge !== null ? route.tooLarge(request, maxBytes) : this.hooks.payloadTooLarge(request, maxBytes);
    } catch (error) {
      return this.state.failure(error, request);
    }
  }

  /** No route for this method and path: 405 if another method has one, else 404. */
  private unrouted(res: HttpResponse, req: HttpRequest): void {
    this.requestsReceived++;
    const request = new ServerRequest(res, req.getCaseSensitiveMethod(), req.getUrl(), req.getQuery() ?? '', EMPTY, EMPTY, this.forwardedIp(req), req.getHeader('accept-encoding'));
    this.observing(request, this.unroutedOperation);
    const fault = framingFault(req);
    if (fault !== null) {
      this.refuseFraming(res, request, fault);
      return;
    }
    const allow = this.allowedMethods(request.path);
    let reply: HttpReply;
    try {
      reply = allow.length === 0 ? this.hooks.notFound(request) : this.hooks.methodNotAllowed(request, allow);
    } catch (error) {
      reply = this.state.failure(error, request);
    }
    this.writeNow(res, reply, request, allow.length === 0 ? this.answerHeaders : [...this.answerHeaders, 'Allow', allow.join(', ')], false);
  }

  private allowedMethods(path: string): string[] {
    const parts = path.split('/');
    const allow = new Set<string>();
    for (const entry of this.patterns.values()) {
      if (!matchesPattern(entry.segments, parts)) continue;
      for (const method of entry.methods) {
        allow.add(method);
        if (method === 'GET') allow.add('HEAD');
      }
      if (entry.cors !== null) allow.add('OPTIONS');
    }
    return [...allow];
  }

  private enableCors(entry: PatternEntry, pattern: string, cors: CorsPolicy, method: HttpMethod): void {
    if (entry.cors === null) {
      entry.cors = cors;
      this.register('OPTIONS', pattern, (res, req) => {
        const request = new ServerRequest(res, 'OPTIONS', req.getUrl(), req.getQuery() ?? '', EMPTY, EMPTY, null);
        this.observing(request, this.preflightOperation);
        this.writeNow(res, entry.preflight!, request, this.answerHeaders, false);
      });
    } else if (entry.cors !== cors) {
      throw new RangeError(`routes on ${pattern} must share one CORS policy`);
    }
    entry.corsMethods.push(...(method === 'GET' ? ['GET', 'HEAD'] : [method]));
    entry.preflight = cors.preflight(entry.corsMethods);
  }

  /** The header must be read now, while the transport's request is valid; the socket address can wait. */
  private forwardedIp(req: HttpRequest): string | null {
    if (this.trustedProxyHops === 0) return null;
    const ip = forwardedClientIp(req.getHeader('x-forwarded-for'), this.trustedProxyHops);
    if (ip === null && this.unreadableForwardedFor !== null) {
      const tell = this.unreadableForwardedFor;
      this.unreadableForwardedFor = null;
      tell();
    }
    return ip;
  }
}

class ServerRequest implements HttpRequestInfo {
  body: Buffer | null = null;
  /** For the observer (see observing): the route's operation and performance.now() at arrival. */
  operation = -1;
  startedMs = 0;
  private controller: AbortController | null = null;
  private aborted = false;

  constructor(
    private readonly res: HttpResponse,
    readonly method: string,
    readonly path: string,
    readonly query: string,
    readonly params: Readonly<Record<string, string>>,
    readonly headers: Readonly<Record<string, string>>,
    /** The address from trusted X-Forwarded-For entries; null: the socket's peer. */
    private clientIp: string | null,
    /** Read for every request: the write path negotiates the coding and answers 304 (representation.ts). */
    readonly acceptEncoding = '',
    readonly ifNoneMatch = '',
  ) {}

  get ip(): string {
    return (this.clientIp ??= formatIpBytes(new Uint8Array(this.res.getRemoteAddress())));
  }

  /** The address if already read (or forwarded): after an abort the socket may no longer be asked. */
  get knownIp(): string | null {
    return this.clientIp;
  }

  // Created on first use: synchronous handlers never pay for an AbortController.
  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  abort(): void {
    this.aborted = true;
    this.controller?.abort();
  }
}

/** One request that outlives its uWS callback: guards every write against the client having gone away. */
class Exchange {
  /** The answer is decided (or the client is gone): ignore further body data. */
  settled = false;
  aborted = false;
  closeConnection = false;
  private finished = false;
  /** What the observer is told at finish: the status and body bytes written (none: the client went away). */
  private status = CLIENT_GONE;
  private bytes = 0;
  private client: string | null = null;

  constructor(
    private readonly server: ServerState,
    private readonly res: HttpResponse,
    private readonly request: ServerRequest,
    private readonly extraHeaders: HeaderList | null,
  ) {
    server.begin();
    res.onAborted(() => {
      this.aborted = true;
      this.settled = true;
      request.abort();
      this.finish();
    });
  }

  settle(result: RouteResult | Promise<RouteResult>): void {
    this.settled = true;
    if (result instanceof Response) {
      void this.respond(result);
      return;
    }
    if (typeof (result as Partial<Promise<RouteResult>>).then !== 'function') {
      this.write(result as HttpReply);
      return;
    }
    (result as Promise<RouteResult>).then(
      (value) => (value instanceof Response ? this.respond(value) : this.write(value)),
      (error) => {
        if (!this.aborted) this.write(this.server.failure(error, this.request));
      },
    );
  }

  private write(reply: HttpReply): void {
    if (this.aborted) return;
    this.client = this.server.client(this.request);
    let sent = reply;
    try {
      sent = represent(reply, this.request);
      this.res.cork(() => writeReply(this.res, sent, this.request.method === 'HEAD', this.extraHeaders, this.closeConnection || this.server.closing));
    } catch (error) {
      this.server.failure(error, this.request);
      this.res.close();
    }
    this.status = sent.status;
    this.bytes = replyBytes(sent, this.request.method === 'HEAD');
    this.finish();
  }

  private async respond(response: Response): Promise<void> {
    if (this.aborted) return;
    this.client = this.server.client(this.request);
    try {
      this.bytes = await sendResponse(
        {
          res: this.res,
          signal: this.request.signal,
          head: this.request.method === 'HEAD',
          acceptEncoding: this.request.acceptEncoding,
          extraHeaders: this.extraHeaders,
          closeConnection: this.closeConnection || this.server.closing,
        },
        response,
        (error) => this.server.failure(error, this.request),
      );
      if (!this.aborted) this.status = response.status;
    } catch (error) {
      if (!this.aborted) this.write(this.server.failure(error, this.request));
    }
    this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.server.observe(this.request, this.status, this.bytes, this.client ?? (this.server.observer?.wantsClient === true ? this.request.knownIp : null));
    this.server.end();
  }
}

/** Body bytes an answer carries as sent (compressed, if it was; HEAD and 204/304 none). */
function replyBytes(reply: HttpReply, head: boolean): number {
  const body = reply.body;
  if (body === undefined || head || isBodiless(reply.status)) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

function readParams(req: HttpRequest, names: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) params[names[i]] = decodeParam(req.getParameter(i) ?? '');
  return params;
}

function decodeParam(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // malformed escapes stay as sent; the route's validation rejects them
  }
}

function readHeaders(req: HttpRequest, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) headers[names[i]] = req.getHeader(names[i]);
  return headers;
}

function readAllHeaders(req: HttpRequest): Record<string, string> {
  // No prototype: a header named __proto__ must stay a header.
  const headers: Record<string, string> = Object.create(null);
  req.forEach((name, value) => {
    const previous = headers[name];
    headers[name] = previous === undefined ? value : `${previous}${name === 'cookie' ? '; ' : ', '}${value}`;
  });
  return headers;
}
