// What the main thread and a read thread say to each other (src/threads/README.md has the whole picture).
import type { Config } from '../config.js';
import type { LimitTables } from '../api/limits.js';
import type { AnswerMessage, ForwardMessage } from '../http/forward.js';
import type { RouteSpec } from '../http/server.js';
import type { PlaceMatch, PlaceQuery } from '../places/lookup.js';
import type { LoadedToilets } from '../toilets/load.js';
import type { OverlayChange, SourceInfo } from '../toilets/snapshot.js';
import type { SharedObserving } from '../observe/observer.js';

/** workerData of a read thread. */
export interface ReadThreadSetup {
  /** 1, 2, …: the main thread is 0. */
  thread: number;
  config: Config;
  /** The main thread's routes, in its order (see HttpServer.routeSpecs). */
  routes: RouteSpec[];
  limits: LimitTables;
  /** false: the service has no place lookup at all. */
  places: boolean;
  /** The counters of Plus listings' figures (src/toilets/listing-counters.ts), in shared memory. */
  listingCounters: SharedArrayBuffer;
  /** MCP tool calls by tool and outcome (src/observe/mcp-calls.ts), in shared memory. */
  mcpCalls: SharedArrayBuffer;
  /** Every thread's heartbeat (src/api/health.ts), in shared memory. */
  heartbeats: SharedArrayBuffer;
  /** This thread number's metrics block and the access log's daily keys. */
  observing: SharedObserving;
}

/** Main thread → read thread. */
export type ToReadThread =
  | AnswerMessage
  | { kind: 'load'; loaded: LoadedToilets; info: SourceInfo; overlays: OverlayChange }
  | { kind: 'overlays'; overlays: OverlayChange }
  | { kind: 'listen'; host: string; port: number }
  | { kind: 'place-found'; id: number; match: PlaceMatch | null }
  | { kind: 'place-failed'; id: number; message: string; retryAfterSeconds: number | null }
  | { kind: 'count' }
  | { kind: 'close' };

/** Read thread → main thread. */
export type FromReadThread =
  | ForwardMessage
  | { kind: 'find-place'; id: number; query: PlaceQuery }
  | { kind: 'listening' }
  | { kind: 'listen-failed'; message: string }
  | { kind: 'counted'; counts: ThreadCounts }
  | { kind: 'closed' }
  /** A log line, written by the main thread's logger. */
  | { kind: 'log'; level: 'info' | 'error'; message: string; fields: Record<string, unknown> };

/** Requests a thread received since it started, and how many of them it passed to the main thread. */
export interface ThreadCounts {
  thread: number;
  received: number;
  forwarded: number;
}
