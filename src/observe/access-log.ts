// One JSON line per answered request, from every server thread: time, operation, method, status,
// duration, bytes, thread, and (only when the operator turns it on) a daily pseudonym of the client
// address. Never the path, the query string, a body, a header or an MCP argument: a nearest query's
// coordinates are where a person stands, a path may carry a toilet id someone looked at, and headers
// carry credentials (docs/PRIVACY.md).
//
// Refusals (429, 403, 503) are `warn` lines, always written (an operator counts them); other lines are
// `info`, sampled when ACCESS_LOG_SAMPLE < 1. On the request path a thread only decides whether the
// request gets a line and writes its binary record into the thread's ring (access-ring.ts); the main
// thread's AccessLogWriter reads every thread's ring every WRITE_MS, formats the lines and hands them to
// the sink as one batch. The client address waits in the ring (memory only) until its pseudonym is made
// there; it never reaches the sink.
import type { LogLevel } from '../log.js';
import type { DayKeys } from './day-key.js';
import { AccessRing, type AccessRecord } from './access-ring.js';

/** Statuses that refuse a request: logged at `warn`, never sampled away. */
const REFUSALS = new Set([403, 429, 503]);
/** How often the writer reads the rings. */
const WRITE_MS = 50;

export interface AccessLogOptions {
  /** The least level written (LOG_LEVEL): `warn` keeps only the refusals, `error` no access line. */
  level: LogLevel;
  /** Share of non-refusal lines written, 0..1 (ACCESS_LOG_SAMPLE). */
  sample: number;
  /** Whether lines carry the client pseudonym (ACCESS_LOG_CLIENT). */
  client: boolean;
  /** This thread's ring. */
  ring: AccessRing;
  now: () => number;
  random?: () => number;
}

/** A thread's side of the access log: the decision and the record, on the request path. */
export class AccessLog {
  private readonly infoOn: boolean;
  private readonly warnOn: boolean;
  private readonly random: () => number;
  readonly wantsClient: boolean;

  constructor(private readonly options: AccessLogOptions) {
    this.infoOn = options.level === 'info' && options.sample > 0;
    this.warnOn = options.level === 'info' || options.level === 'warn';
    this.random = options.random ?? Math.random;
    this.wantsClient = options.client;
  }

  /** The ring's number for an operation or method name (asked when a route is registered, or a method first seen). */
  slot(name: string): number {
    return this.options.ring.slot(name);
  }

  /** Whether a request with this status gets a line (sampling decided here, once). */
  takes(status: number): boolean {
    if (REFUSALS.has(status)) return this.warnOn;
    return this.infoOn && (this.options.sample >= 1 || this.random() < this.options.sample);
  }

  /** Records the line of a request `takes` accepted (`operation` and `method` as slots). */
  write(operation: number, method: number, status: number, durationMs: number, bytes: number, client: string | null): void {
    this.options.ring.write(this.options.now(), durationMs, bytes, status, operation, method, this.wantsClient ? client : null);
  }
}

export interface AccessLogWriterOptions {
  /** Every thread's ring, by thread number (0: main), as they are now (a started thread adds its own). */
  rings(): readonly (AccessRing | undefined)[];
  /** Daily keys for the client pseudonym; null: no client field. */
  clientKeys: DayKeys | null;
  /** Whether `warn` lines are written (LOG_LEVEL info or warn): the line about dropped records is one. */
  warnOn: boolean;
  /** Takes a batch of whole lines (each ending in a newline). */
  sink(lines: string): void;
  now: () => number;
}

/** The main thread's writer: every ring's records as JSON lines, off the request path. */
export class AccessLogWriter {
  private readonly timer: NodeJS.Timeout;
  /** Dropped records already said in the log, by thread. */
  private readonly told: number[] = [];
  private lines = '';
  private thread = 0;
  private readonly format = (r: AccessRecord) => this.line(r);
  private lastMs = Number.NaN;
  private lastTime = '';

  constructor(private readonly options: AccessLogWriterOptions) {
    this.timer = setInterval(() => this.flush(), WRITE_MS).unref();
  }

  /** Records dropped because a ring was full, all threads together (for /metrics). */
  dropped(): number {
    return this.options.rings().reduce((sum, ring) => sum + (ring?.dropped() ?? 0), 0);
  }

  /** Formats what every ring holds and hands it to the sink (also when the service closes). */
  flush(): void {
    const rings = this.options.rings();
    for (let thread = 0; thread < rings.length; thread++) {
      const ring = rings[thread];
      if (ring === undefined) continue;
      this.thread = thread;
      ring.read(this.format);
      const dropped = ring.dropped();
      if (dropped > (this.told[thread] ?? 0)) {
        if (this.options.warnOn) {
          this.lines += `{"time":"${new Date(this.options.now()).toISOString()}","level":"warn","message":"access log lines dropped: the ring of this thread was full","dropped":${dropped - (this.told[thread] ?? 0)},"dropped_total":${dropped},"thread":${thread}}\n`;
        }
        this.told[thread] = dropped;
      }
    }
    if (this.lines === '') return;
    const lines = this.lines;
    this.lines = '';
    this.options.sink(lines);
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }

  private line(r: AccessRecord): void {
    const level = REFUSALS.has(r.status) ? 'warn' : 'info';
    const keys = this.options.clientKeys;
    const pseudonym = r.client !== null && keys !== null ? `,"client":"${keys.pseudonym(r.client, r.timeMs)}"` : '';
    // Every value is a number, a route's operation name or the method token, so the line is a template
    // rather than an object to serialise; the two names come quoted by JSON.stringify (once per name).
    this.lines += `{"time":"${this.timeText(r.timeMs)}","level":"${level}","message":"request","operation":${r.operation},"method":${r.method},"status":${r.status},"duration_ms":${Math.round(r.durationMs * 1000) / 1000},"bytes":${r.bytes},"thread":${this.thread}${pseudonym}}\n`;
  }

  /** The time as ISO text, made once per millisecond (records written together share it). */
  private timeText(ms: number): string {
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastTime = new Date(ms).toISOString();
    }
    return this.lastTime;
  }
}
