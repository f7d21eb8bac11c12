// A read thread (worker_threads entry, started by ReadThreads): its own uWS app on the service's port,
// answering the public REST reads and the public MCP endpoint from a replica of the main thread's
// snapshot, and passing every other route to the main thread (src/http/forward.ts). Place names are
// looked up by the main thread too.
import { parentPort, workerData } from 'node:worker_threads';
import { chooseTransport } from '../http/transport-choice.js';
import { Forwarder } from '../http/forward.js';
import { createReadSide } from '../api/read-side.js';
import { Heartbeats } from '../api/health.js';
import { PlaceLookupUnavailable, type PlaceLookup, type PlaceMatch, type PlaceQuery } from '../places/lookup.js';
import { SnapshotReplica } from '../toilets/replica.js';
import { ListingCounters } from '../toilets/listing-counters.js';
import { createObserver } from '../observe/observer.js';
import { McpCallCounts } from '../observe/mcp-calls.js';
import { registerMcpRoutes } from '../mcp/endpoint.js';
import type { Logger } from '../log.js';
import type { FromReadThread, ReadThreadSetup, ToReadThread } from './messages.js';
import { PROBLEM_TYPES } from '../problems.js';
import { OPERATIONS, RATE_LIMITS } from '../operations.js';

const setup = workerData as ReadThreadSetup;
const port = parentPort!;
const send = (message: FromReadThread) => port.postMessage(message);
const { config } = setup;
// logged by the main thread, so every line goes where the service's log goes
const log: Logger = {
  info: (message, fields = {}) => send({ kind: 'log', level: 'info', message, fields }),
  error: (message, fields = {}) => send({ kind: 'log', level: 'error', message, fields }),
};

/** Asks the main thread, which holds the place index and the geocoder client. */
class MainThreadPlaces implements PlaceLookup {
  private readonly waiting = new Map<number, { resolve(match: PlaceMatch | null): void; reject(error: Error): void }>();
  private nextId = 1;

  find(query: PlaceQuery): Promise<PlaceMatch | null> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      send({ kind: 'find-place', id, query });
    });
  }

  found(id: number, match: PlaceMatch | null): void {
    this.waiting.get(id)?.resolve(match);
    this.waiting.delete(id);
  }

  failed(id: number, message: string, retryAfterSeconds: number | null): void {
    this.waiting.get(id)?.reject(retryAfterSeconds === null ? new Error(message) : new PlaceLookupUnavailable(message, retryAfterSeconds));
    this.waiting.delete(id);
  }
}

const replica = new SnapshotReplica();
const heartbeats = new Heartbeats(setup.heartbeats);
const places = setup.places ? new MainThreadPlaces() : null;
// access-log records go into this thread's ring, which the main thread reads (access-log.ts): no message per request or batch
const observer = createObserver({ config, shared: setup.observing, now: Date.now });
const { server, reads, limits, problems } = createReadSide({
  config,
  holder: replica,
  counters: new ListingCounters(setup.listingCounters),
  onAnswersChange: (listener) => replica.onChange(listener),
  places,
  log,
  now: Date.now,
  limitTables: setup.limits,
  health: { heartbeats, thread: setup.thread },
  observer,
  problemTypes: PROBLEM_TYPES,
  operations: OPERATIONS,
  rateLimits: RATE_LIMITS,
  // the main thread chose (HTTP_TRANSPORT is 'uws' or 'node' here), and logged why
  transport: chooseTransport(config.httpTransport).factory,
});
const mcpCalls = new McpCallCounts(setup.mcpCalls);
const mcp = registerMcpRoutes(server, { config, reads, limits, problems, places, log, now: Date.now, onToolCall: (tool, outcome) => mcpCalls.count(tool, outcome) });
// every other route is passed on (those with a body with the main thread's answer to an oversized one)
const forwarder = new Forwarder(port);
forwarder.register(server, setup.routes);

/**
 * Ends this thread after an error nothing caught: it stops taking connections (the kernel gives new ones
 * to the other threads), finishes its requests, and ends; the main thread then starts another. Ending
 * with the uWS app still open would abort the whole process.
 */
let failing = false;
function fail(error: unknown): void {
  log.error('a read thread failed; it closes and the main thread starts another', { error: (error as Error)?.stack ?? String(error) });
  if (failing) return;
  failing = true;
  void server.close({ timeoutMs: 2000 }).finally(async () => {
    await mcp.close().catch(() => {});
    replica.close();
    port.close();
  });
}
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

port.on('message', (message: ToReadThread) => {
  switch (message.kind) {
    case 'load':
      replica.loaded(message.loaded, message.info, message.overlays);
      break;
    case 'overlays':
      replica.changed(message.overlays);
      break;
    case 'listen':
      server.listen(message.host, message.port).then(
        () => {
          heartbeats.start(setup.thread, Date.now);
          send({ kind: 'listening' });
        },
        (error: Error) => send({ kind: 'listen-failed', message: error.message }), // the main thread then closes every read thread
      );
      break;
    case 'place-found':
      places?.found(message.id, message.match);
      break;
    case 'place-failed':
      places?.failed(message.id, message.message, message.retryAfterSeconds);
      break;
    case 'count':
      send({ kind: 'counted', counts: { thread: setup.thread, received: server.requestsReceived, forwarded: forwarder.forwarded } });
      break;
    case 'close':
      heartbeats.stop(setup.thread);
      void server.close().then(async () => {
        await mcp.close();
        replica.close();
        send({ kind: 'closed' });
        port.close();
      });
      break;
    case 'chunk':
    case 'end':
    case 'reply':
    case 'response':
      forwarder.answer(message);
  }
});
