// Starts a real HttpServer for a test, with problem+json hooks: on an ephemeral loopback port, or with
// `inject` answered in process (no socket: for tests whose subject is not the connection).
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { Problems, problemHooks } from '../../src/http/problem.js';
import { PROBLEM_TYPES } from '../../src/problems.js';
import { INJECT_ORIGIN } from '../../src/http/inject.js';
import { chooseTransport, type TransportFactory, type TransportSetting } from '../../src/http/transport-choice.js';
import { nativeUws } from '../../src/http/uws-native.js';
import { HttpServer, type HttpRequestInfo } from '../../src/http/server.js';

/** How a test reaches its server: over a loopback socket to the uWS or the node:http transport, or in process. */
export type Reach = 'uws' | 'node' | 'inject';
/**
 * The listening transports, for tests whose subject is the connection: uWS only where its native binary
 * loads for this Node (Node 20 on x64 Linux with the npm package; CI's Node 24 run has node alone, its
 * Node 20 run both).
 */
export const SOCKETS: readonly Reach[] = nativeUws().module === null ? ['node'] : ['uws', 'node'];
/** Every reach, for tests whose subject is routing and answers rather than the connection. */
export const REACHES: readonly Reach[] = [...SOCKETS, 'inject'];

export const BASE_URL = 'http://toilets.test';

export interface TestServer {
  readonly server: HttpServer;
  /** e.g. "http://127.0.0.1:41234" (INJECT_ORIGIN in process) */
  readonly origin: string;
  /** 0 in process */
  readonly port: number;
  /** fetch() to this server: over the socket, or server.inject in process. */
  readonly fetch: typeof fetch;
  readonly problems: Problems;
  /** Errors the serverError hook saw, with their requests. */
  readonly errors: { error: unknown; request: HttpRequestInfo }[];
}

export async function startServer(
  register: (server: HttpServer, problems: Problems) => void,
  options: { trustedProxyHops?: number; host?: string; onUnreadableForwardedFor?: () => void; reach?: Reach; transport?: TransportFactory } = {},
): Promise<TestServer> {
  const problems = new Problems(BASE_URL, PROBLEM_TYPES);
  const errors: TestServer['errors'] = [];
  const server = new HttpServer({
    hooks: problemHooks(problems, (error, request) => errors.push({ error, request })),
    trustedProxyHops: options.trustedProxyHops,
    onUnreadableForwardedFor: options.onUnreadableForwardedFor,
    // no reach named: the run's HTTP_TRANSPORT (default auto, as npm start)
    transport: options.transport ?? chooseTransport(options.reach === 'uws' || options.reach === 'node' ? options.reach : ((process.env.HTTP_TRANSPORT || 'auto') as TransportSetting)).factory,
  });
  register(server, problems);
  if (options.reach === 'inject') return { server, origin: INJECT_ORIGIN, port: 0, fetch: (input, init) => server.inject(input as string, init), problems, errors };
  const host = options.host ?? '127.0.0.1';
  const port = await server.listen(host, 0);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { server, origin, port, fetch, problems, errors };
}

/** startServer with `reach` (for a describe looped over REACHES or SOCKETS). */
export function startServerOn(reach: Reach, register: Parameters<typeof startServer>[0], options: Parameters<typeof startServer>[1] = {}): Promise<TestServer> {
  return startServer(register, { ...options, reach });
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * One request on a connection of its own that asks to be kept alive, so that connection-level
 * behaviour (a server-sent Connection: close) is visible.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: (Buffer | string)[] } = {},
): Promise<RawAnswer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.chunks !== undefined) for (const chunk of options.chunks) req.write(chunk);
    req.end(options.body);
  }).finally(() => agent.destroy());
}

/** The parsed JSON body of a fetch Response, typed loosely for assertions. */
export async function readJson(response: Response): Promise<any> {
  return response.json();
}

/** Resolves with the error a connection attempt fails with, or null if it connects. */
export function connectionError(url: string): Promise<NodeJS.ErrnoException | null> {
  return rawRequest(url).then(
    () => null,
    (error: NodeJS.ErrnoException) => error,
  );
}

/** A promise with its resolve function, to let a test decide when a handler proceeds. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * Writes `bytes` on a connection of its own; resolves with what the server wrote until it closed the
 * connection, or after `waitMs` of it staying open (closed: false).
 */
export function rawExchange(port: number, bytes: string, waitMs = 5000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, waitMs);
    socket.on('data', (data: Buffer) => (text += data.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}
