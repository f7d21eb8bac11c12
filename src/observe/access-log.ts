// One JSON line per answered request, from every server thread: time, operation, method, status,
// duration, bytes, thread, and (only when the operator turns it on) a daily pseudonym of the client
// address. Never the path, the query string, a body, a header or an MCP argument: a nearest query's
// coordinates are where a person stands, a path may carry a toilet id someone looked at, and headers
// carry credentials (docs/PRIVACY.md).
//
// Refusals (429, 403, 503) are `warn` lines, always written (an operator counts them); other lines are
// `info`, sampled when ACCESS_LOG_SAMPLE < 1. Lines are gathered and handed to the sink in batches (at
// most every BATCH_MS, or at BATCH_BYTES): one write per batch on the main thread, and one message per
// batch from a read thread rather than one per request.
import type { LogLevel } from '../log.js';
import type { DayKeys } from './day-key.js';

/** Statuses that refuse a request: logged at `warn`, never sampled away. */
const REFUSALS = new Set([403, 429, 503]);
const BATCH_MS = 100;
const BATCH_BYTES = 64 * 1024;

export interface AccessLogOptions {
  /** 0 for the main thread, 1, 2, … for read threads. */
  thread: number;
  /** The least level written (LOG_LEVEL): `warn` keeps only the refusals, `error` no access line. */
  level: LogLevel;
  /** Share of non-refusal lines written, 0..1 (ACCESS_LOG_SAMPLE). */
  sample: number;
  /** Daily keys for the client pseudonym; null: no client field (the default). */
  clientKeys: DayKeys | null;
  /** Takes a batch of whole lines (each ending in a newline). */
  sink(lines: string): void;
  now: () => number;
  random?: () => number;
}

export class AccessLog {
  private pending = '';
  private timer: NodeJS.Timeout | null = null;
  private readonly infoOn: boolean;
  private readonly warnOn: boolean;
  private readonly random: () => number;

  constructor(private readonly options: AccessLogOptions) {
    this.infoOn = options.level === 'info' && options.sample > 0;
    this.warnOn = options.level === 'info' || options.level === 'warn';
    this.random = options.random ?? Math.random;
  }

  /** Whether the lines need the client address (read before the answer is written). */
  get wantsClient(): boolean {
    return this.options.clientKeys !== null;
  }

  /** Whether a request with this status gets a line (sampling decided here, once). */
  takes(status: number): boolean {
    if (REFUSALS.has(status)) return this.warnOn;
    return this.infoOn && (this.options.sample >= 1 || this.random() < this.options.sample);
  }

  /** Adds the line of a request `takes` accepted. */
  write(operation: string, method: string, status: number, durationMs: number, bytes: number, client: string | null): void {
    const level = REFUSALS.has(status) ? 'warn' : 'info';
    const pseudonym = client !== null && this.options.clientKeys !== null ? `,"client":"${this.options.clientKeys.pseudonym(client)}"` : '';
    // Every value is a number, a route's operation name or the method token, so the line is a template
    // rather than an object to serialise; the two names are still quoted by JSON.stringify.
    this.pending += `{"time":"${new Date(this.options.now()).toISOString()}","level":"${level}","message":"request","operation":${JSON.stringify(operation)},"method":${JSON.stringify(method)},"status":${status},"duration_ms":${Math.round(durationMs * 1000) / 1000},"bytes":${bytes},"thread":${this.options.thread}${pseudonym}}\n`;
    if (this.pending.length >= BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), BATCH_MS).unref();
  }

  /** Hands the gathered lines to the sink now (also before the thread closes). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    this.options.sink(lines);
  }
}
