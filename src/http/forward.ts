// Requests one server thread passes to another. Every thread listens on the port and answers the public
// reads itself; every other route (writes, MCP sessions, pages) is registered on the read threads with
// the same pattern, headers and body limit, but its handler sends the request to the main thread, which
// owns that route's state, and writes the answer it gets back. A streamed answer (text/event-stream)
// comes back chunk by chunk; a client that goes away aborts the request on the main thread too.
import { CorsPolicy } from './cors.js';
import type { HeaderList, HttpReply } from './reply.js';
import { isEventStream } from './fetch-bridge.js';
import type { HttpRequestInfo, HttpServer, RouteResult, RouteSpec } from './server.js';

/** A request for route number `route` of the main thread's server (see HttpServer.routeSpecs). */
interface ForwardedRequest {
  kind: 'request';
  id: number;
  route: number;
  /** ≥ 0: the body was over this many bytes; answer that instead. */
  tooLarge: number;
  method: string;
  path: string;
  query: string;
  params: Record<string, string>;
  headers: [string, string][];
  ip: string;
  body: Uint8Array | null;
}

/** Read thread → main thread. */
export type ForwardMessage = ForwardedRequest | { kind: 'abort'; id: number };

/** Main thread → read thread: a plain reply, or a web Response's head then (streamed) its body. */
export type AnswerMessage =
  | { kind: 'reply'; id: number; status: number; headers: HeaderList; body: string | Uint8Array | null; etag: true | string | null; encodings: NonNullable<HttpReply['encodings']> | null }
  | { kind: 'response'; id: number; status: number; statusText: string; headers: [string, string][]; body: Uint8Array | null; streamed: boolean }
  | { kind: 'chunk'; id: number; bytes: Uint8Array }
  | { kind: 'end'; id: number; error: string | null };

/** One end of the channel between two threads (a Worker or a MessagePort). */
export interface Channel {
  postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void;
}

interface Pending {
  resolve(result: RouteResult): void;
  stream: ReadableStreamDefaultController<Uint8Array> | null;
}

/** The read thread's side: registers the main thread's routes that this server lacks, answered over `channel`. */
export class Forwarder {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Requests passed on so far. */
  forwarded = 0;

  constructor(private readonly channel: Channel) {}

  /** Registers every route of `routes` (the main thread's, in its order) that `server` does not have itself. */
  register(server: HttpServer, routes: readonly RouteSpec[]): void {
    const policies = new Map<string, CorsPolicy>();
    routes.forEach((spec, route) => {
      if (server.hasRoute(spec.method, spec.pattern)) return;
      let cors: CorsPolicy | undefined;
      if (spec.cors !== null) {
        const key = JSON.stringify(spec.cors);
        cors = policies.get(key) ?? new CorsPolicy(spec.cors);
        policies.set(key, cors);
      }
      server.route({
        method: spec.method,
        pattern: spec.pattern,
        operation: spec.operation,
        headers: spec.headers,
        ...(spec.maxBodyBytes >= 0 ? { maxBodyBytes: spec.maxBodyBytes } : {}),
        ...(cors ? { cors } : {}),
        ...(spec.contentSecurityPolicy === null ? {} : { contentSecurityPolicy: spec.contentSecurityPolicy }),
        handler: (request) => this.forward(route, request, -1),
        tooLarge: (request, maxBytes) => this.forward(route, request, maxBytes),
      });
    });
  }

  /** Takes an answer message from the main thread. */
  answer(message: AnswerMessage): void {
    const pending = this.pending.get(message.id);
    if (pending === undefined) return; // the client went away
    switch (message.kind) {
      case 'reply':
        this.pending.delete(message.id);
        pending.resolve({
          status: message.status,
          headers: message.headers,
          body: message.body === null ? undefined : typeof message.body === 'string' ? message.body : bufferOf(message.body),
          // the writing thread negotiates coding and 304 with its own request's headers (representation.ts)
          ...(message.etag === null ? {} : { etag: message.etag }),
          ...(message.encodings === null ? {} : { encodings: buffersOf(message.encodings) }),
        });
        break;
      case 'response': {
        let body: Uint8Array | ReadableStream<Uint8Array> | null = message.body;
        if (message.streamed) {
          body = new ReadableStream<Uint8Array>({ start: (controller) => void (pending.stream = controller) });
        } else {
          this.pending.delete(message.id);
        }
        pending.resolve(new Response(body, { status: message.status, statusText: message.statusText, headers: message.headers }));
        break;
      }
      case 'chunk':
        pending.stream?.enqueue(message.bytes);
        break;
      case 'end':
        this.pending.delete(message.id);
        if (message.error === null) pending.stream?.close();
        else pending.stream?.error(new Error(message.error));
        break;
    }
  }

  private forward(route: number, request: HttpRequestInfo, tooLarge: number): Promise<RouteResult> {
    const id = this.nextId++;
    this.forwarded++;
    const message: ForwardedRequest = {
      kind: 'request',
      id,
      route,
      tooLarge,
      method: request.method,
      path: request.path,
      query: request.query,
      params: { ...request.params },
      headers: Object.entries(request.headers),
      ip: request.ip,
      body: request.body,
    };
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, stream: null });
      request.signal.addEventListener('abort', () => {
        if (!this.pending.delete(id)) return;
        this.channel.postMessage({ kind: 'abort', id } satisfies ForwardMessage);
      });
      this.channel.postMessage(message);
    });
  }
}

/** The main thread's side: answers the requests read threads pass on, with `server`'s routes. */
export class ForwardedRequests {
  private readonly inFlight = new Map<number, AbortController>();

  constructor(
    private readonly server: HttpServer,
    private readonly channel: Channel,
    /** The answer when a Response's body fails before anything was sent (the serverError hook). */
    private readonly failure: (error: unknown, request: HttpRequestInfo) => HttpReply,
  ) {}

  take(message: ForwardMessage): void {
    if (message.kind === 'abort') {
      this.inFlight.get(message.id)?.abort();
      return;
    }
    const controller = new AbortController();
    this.inFlight.set(message.id, controller);
    const headers: Record<string, string> = Object.create(null);
    for (const [name, value] of message.headers) headers[name] = value;
    const request: HttpRequestInfo = {
      method: message.method,
      path: message.path,
      query: message.query,
      params: message.params,
      headers,
      ip: message.ip,
      body: message.body === null ? null : bufferOf(message.body),
      signal: controller.signal,
    };
    void this.server
      .dispatch(message.route, request, message.tooLarge)
      .then((result) => (result instanceof Response ? this.respond(message.id, result, controller.signal) : this.reply(message.id, result)))
      .catch((error) => this.reply(message.id, this.failure(error, request)))
      .finally(() => this.inFlight.delete(message.id));
  }

  private reply(id: number, reply: HttpReply): void {
    const body = reply.body === undefined ? null : typeof reply.body === 'string' ? reply.body : ownBytes(reply.body);
    this.post({ kind: 'reply', id, status: reply.status, headers: reply.headers ?? [], body, etag: reply.etag ?? null, encodings: reply.encodings ?? null });
  }

  private async respond(id: number, response: Response, signal: AbortSignal): Promise<void> {
    const head = { kind: 'response' as const, id, status: response.status, statusText: response.statusText, headers: [...response.headers] };
    if (response.body === null || !isEventStream(response)) {
      const body = response.body === null ? null : new Uint8Array(await response.arrayBuffer()); // a buffer of its own
      this.post({ ...head, body, streamed: false });
      return;
    }
    this.post({ ...head, body: null, streamed: true });
    const reader = response.body.getReader();
    const cancel = () => void reader.cancel().catch(() => {});
    signal.addEventListener('abort', cancel);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.post({ kind: 'chunk', id, bytes: ownBytes(value) });
      }
      this.post({ kind: 'end', id, error: null });
    } catch (error) {
      if (!signal.aborted) this.post({ kind: 'end', id, error: String(error) });
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /** Bodies move to the other thread (transferred, not copied again): each sits in a buffer of its own. */
  private post(message: AnswerMessage): void {
    const bytes = message.kind === 'chunk' ? message.bytes : message.kind === 'reply' || message.kind === 'response' ? message.body : null;
    this.channel.postMessage(message, bytes instanceof Uint8Array ? [bytes.buffer as ArrayBuffer] : []);
  }
}

/** A copy of `bytes` in a buffer of its own (a Buffer may be a slice of a pool that must not move). */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/** Prepared codings as Buffers again (structured cloning turned them into Uint8Arrays). */
function buffersOf(encodings: NonNullable<HttpReply['encodings']>): NonNullable<HttpReply['encodings']> {
  return Object.fromEntries(Object.entries(encodings).map(([coding, bytes]) => [coding, bufferOf(bytes)]));
}

/** A Buffer over a posted Uint8Array's bytes (structured cloning turns Buffers into Uint8Arrays). */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
