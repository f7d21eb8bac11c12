// The HTTP server's request observer on one thread (the main thread or a read thread): counts each answered
// request into the thread's metrics block and records its access-log line in the thread's ring. Built from
// the config the same way on every thread; null when metrics and the access log are both off, so the
// server then measures nothing. The main thread also owns what every thread shares (ObservingBlocks) and
// the writer that turns every ring's records into lines (AccessLogWriter).
import type { RequestObserver } from '../http/server.js';
import type { Config } from '../config.js';
import { AccessLog, AccessLogWriter } from './access-log.js';
import { AccessRing } from './access-ring.js';
import { DayKeys } from './day-key.js';
import { RequestMetrics, type Interface } from './request-metrics.js';

/** What the main thread shares with every read thread for observing (part of its workerData). */
export interface SharedObserving {
  /** The thread's request metrics block (kept by the main thread across replacements); null: metrics off. */
  metricsBlock: SharedArrayBuffer | null;
  /** The thread's access-log ring (kept likewise); null: access log off. */
  accessRing: SharedArrayBuffer | null;
}

export interface ObserverOptions {
  config: Config;
  shared: SharedObserving;
  now: () => number;
}

export class ThreadObserver implements RequestObserver {
  /** By operation: its slot in the access-log ring. */
  private readonly logSlots: number[] = [];
  /** Method tokens' slots in the ring (a handful, asked once each). */
  private readonly methodSlots = new Map<string, number>();
  readonly wantsClient: boolean;

  constructor(
    readonly metrics: RequestMetrics | null,
    readonly accessLog: AccessLog | null,
  ) {
    this.wantsClient = accessLog?.wantsClient ?? false;
  }

  operation(name: string, pattern: string): number {
    const slot = this.metrics !== null ? this.metrics.operation(name, interfaceOf(pattern)) : this.logSlots.length;
    if (this.accessLog !== null) this.logSlots[slot] = this.accessLog.slot(name);
    return slot;
  }

  observed(operation: number, method: string, status: number, bytes: number, startedMs: number, client: string | null): void {
    const ms = performance.now() - startedMs;
    this.metrics?.record(operation, status, ms / 1000);
    const log = this.accessLog;
    if (log !== null && log.takes(status)) {
      let methodSlot = this.methodSlots.get(method);
      if (methodSlot === undefined) this.methodSlots.set(method, (methodSlot = log.slot(method)));
      log.write(this.logSlots[operation], methodSlot, status, ms, bytes, client);
    }
  }
}

/** The observer a thread's server gets, or null when there is nothing to observe. */
export function createObserver(options: ObserverOptions): ThreadObserver | null {
  const { config, shared, now } = options;
  const metrics = shared.metricsBlock !== null ? new RequestMetrics(shared.metricsBlock) : null;
  const accessLog =
    shared.accessRing !== null ? new AccessLog({ level: config.logLevel, sample: config.accessLogSample, client: config.accessLogClient, ring: new AccessRing(shared.accessRing), now }) : null;
  return metrics === null && accessLog === null ? null : new ThreadObserver(metrics, accessLog);
}

/** What the main thread makes once and shares: a metrics block and an access-log ring per thread number, and the daily keys. */
export class ObservingBlocks {
  private readonly blocks: SharedArrayBuffer[] = [];
  private readonly rings: AccessRing[] = [];
  private readonly clientKeys: SharedArrayBuffer | null;

  constructor(private readonly config: Config) {
    this.clientKeys = config.accessLog && config.accessLogClient ? new DayKeys().shared : null;
  }

  /** The blocks of thread `thread` (0: main), the same each time it is asked. */
  forThread(thread: number): SharedObserving {
    if (this.config.metrics) this.blocks[thread] ??= new RequestMetrics().block;
    if (this.config.accessLog) this.rings[thread] ??= new AccessRing();
    return { metricsBlock: this.blocks[thread] ?? null, accessRing: this.rings[thread]?.shared ?? null };
  }

  /** Every metrics block made so far (the main thread's and each read thread's). */
  metricsBlocks(): SharedArrayBuffer[] {
    return this.blocks.filter((block) => block !== undefined);
  }

  /** The writer of every thread's access-log lines into `sink` (main thread), or null when the log is off. */
  accessLogWriter(sink: (lines: string) => void, now: () => number): AccessLogWriter | null {
    if (!this.config.accessLog) return null;
    const level = this.config.logLevel;
    return new AccessLogWriter({ rings: () => this.rings, clientKeys: this.clientKeys !== null ? new DayKeys(this.clientKeys, now) : null, warnOn: level === 'info' || level === 'warn', sink, now });
  }
}

function interfaceOf(pattern: string): Interface {
  if (pattern.startsWith('/api/')) return 'rest';
  if (pattern === '/mcp' || pattern.startsWith('/mcp/') || pattern.startsWith('/.well-known/mcp')) return 'mcp';
  return 'web';
}
