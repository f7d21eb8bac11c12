// The HTTP server's request observer on one thread (the main thread or a read thread): counts each answered
// request into the thread's metrics block and writes its access-log line. Built from the config the same
// way on every thread; null when metrics and the access log are both off, so the server then measures nothing.
import type { RequestObserver } from '../http/server.js';
import type { Config } from '../config.js';
import { AccessLog } from './access-log.js';
import { DayKeys } from './day-key.js';
import { RequestMetrics, type Interface } from './request-metrics.js';

/** What the main thread shares with every read thread for observing (part of its workerData). */
export interface SharedObserving {
  /** The thread's request metrics block (kept by the main thread across replacements); null: metrics off. */
  metricsBlock: SharedArrayBuffer | null;
  /** The access log's daily client keys; null: no client field. */
  clientKeys: SharedArrayBuffer | null;
}

export interface ObserverOptions {
  config: Config;
  /** 0 for the main thread. */
  thread: number;
  shared: SharedObserving;
  /** Takes a batch of access-log lines. */
  sink(lines: string): void;
  now: () => number;
}

export class ThreadObserver implements RequestObserver {
  private readonly names: string[] = [];
  readonly wantsClient: boolean;

  constructor(
    readonly metrics: RequestMetrics | null,
    readonly accessLog: AccessLog | null,
  ) {
    this.wantsClient = accessLog?.wantsClient ?? false;
  }

  operation(name: string, pattern: string): number {
    const slot = this.metrics !== null ? this.metrics.operation(name, interfaceOf(pattern)) : this.names.length;
    this.names[slot] = name;
    return slot;
  }

  observed(operation: number, method: string, status: number, bytes: number, startedMs: number, client: string | null): void {
    const ms = performance.now() - startedMs;
    this.metrics?.record(operation, status, ms / 1000);
    if (this.accessLog?.takes(status)) this.accessLog.write(this.names[operation], method, status, ms, bytes, client);
  }
}

/** The observer a thread's server gets, or null when there is nothing to observe. */
export function createObserver(options: ObserverOptions): ThreadObserver | null {
  const { config, thread, shared, sink, now } = options;
  const metrics = shared.metricsBlock !== null ? new RequestMetrics(shared.metricsBlock) : null;
  const accessLog = config.accessLog
    ? new AccessLog({ thread, level: config.logLevel, sample: config.accessLogSample, clientKeys: shared.clientKeys !== null ? new DayKeys(shared.clientKeys, now) : null, sink, now })
    : null;
  return metrics === null && accessLog === null ? null : new ThreadObserver(metrics, accessLog);
}

/** What the main thread makes once and shares: a metrics block per thread number, and the daily keys. */
export class ObservingBlocks {
  private readonly blocks: SharedArrayBuffer[] = [];
  readonly clientKeys: SharedArrayBuffer | null;

  constructor(private readonly config: Config) {
    this.clientKeys = config.accessLog && config.accessLogClient ? new DayKeys().shared : null;
  }

  /** The blocks of thread `thread` (0: main), the same each time it is asked. */
  forThread(thread: number): SharedObserving {
    if (!this.config.metrics) return { metricsBlock: null, clientKeys: this.clientKeys };
    this.blocks[thread] ??= new RequestMetrics().block;
    return { metricsBlock: this.blocks[thread], clientKeys: this.clientKeys };
  }

  /** Every metrics block made so far (the main thread's and each read thread's). */
  metricsBlocks(): SharedArrayBuffer[] {
    return this.blocks.filter((block) => block !== undefined);
  }
}

function interfaceOf(pattern: string): Interface {
  if (pattern.startsWith('/api/')) return 'rest';
  if (pattern === '/mcp' || pattern.startsWith('/mcp/') || pattern.startsWith('/.well-known/mcp')) return 'mcp';
  return 'web';
}
