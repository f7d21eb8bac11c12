// One published file kept in step on this replica: on start and then every interval, the checksum file is
// asked for with If-None-Match; when it names another SHA-256 than the local copy's, the file is streamed
// into a temporary file beside the local copy, its SHA-256 compared, the file checked (checks.ts), then
// renamed over the local copy, and `installed` reloads it exactly as after a local import. Whatever fails
// (unreachable, 5xx, a hang, a truncated, damaged or refused file), the local copy stays as it was, the
// temporary file is removed, the failure is logged once (again only when the reason changes) and shown on
// /status, and the next check comes sooner, then backs off. An ETag is only kept once the local copy matches
// its checksum, so a failed fetch is tried again even when the publisher answers 304 from then on.
import { closeSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Logger } from '../log.js';
import type { FetchCounts } from '../observe/metrics.js';
import { fileStamp } from '../storage/replaced-file.js';
import { discardTemporary, keepTemporary, temporaryFile } from '../storage/temporaries.js';
import { parseChecksum, sha256OfFile } from './checksum.js';
import type { PublishedLocation } from './location.js';
import { fetchChecksum, fetchToFile, type TransferLimits } from './transfer.js';

/** What /status shows of one published file (README.md, "Status and health"). */
export interface RemoteFileStatus {
  /** host[:port] of the URL: never its userinfo, path or query. */
  host: string;
  /** ETag of the checksum file the local copy matches; null until one does. */
  etag: string | null;
  /** SHA-256 of the local copy, once known. */
  sha256: string | null;
  /** End of the last check that went well (file unchanged, or fetched and swapped in). */
  last_success_at: string | null;
  last_failure_at: string | null;
  /** Why the last check failed; null once one succeeds again. */
  last_error: string | null;
  failures_in_a_row: number;
  /** When this process last swapped in a fetched file. */
  fetched_at: string | null;
}

/** How a check ended. */
export type CheckOutcome = 'unchanged' | 'current' | 'fetched' | 'failed' | 'closed';

/** Timers, injected by tests (a fake scheduler: no waiting on the wall clock). */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface RemoteFileOptions {
  /** As messages name it: "the source database". */
  what: string;
  /** The setting that names it: "TOILETS_DB_URL". */
  setting: string;
  location: PublishedLocation;
  /** The local copy the server serves from (TOILETS_DB). */
  localPath: string;
  /** Throws saying why a fetched file cannot be served (checks.ts). */
  check(path: string): void;
  /** A fetched file was renamed over the local copy: load it. */
  installed(reason: string): void;
  limits: TransferLimits;
  intervalMs: number;
  log: Logger;
  now: () => number;
  timers?: Timers;
  /** 0..1, spreads the checks of replicas started together (default Math.random). */
  random?: () => number;
}

/** The first retry after a failure comes after this (or the interval, when shorter), then twice as long each time. */
const FIRST_RETRY_MS = 5_000;
/** Retries back off to at most this (or the interval, when longer). */
const MAX_RETRY_MS = 300_000;

export class RemoteFile {
  private readonly timers: Timers;
  private readonly random: () => number;
  private timer: unknown = null;
  private checking: Promise<CheckOutcome> | null = null;
  private readonly abort = new AbortController();
  /** The local copy's digest, for the stamp it was computed at. */
  private local: { stamp: string; sha256: string } | null = null;
  /** The checksum file's ETag the local copy matches, and the stamp the copy had then. */
  private matched: { etag: string; stamp: string } | null = null;
  private readonly state: RemoteFileStatus;
  private readonly counts: FetchCounts = { failures: 0, fetched: 0, lastSuccessMs: null, lastFailureMs: null };

  constructor(private readonly options: RemoteFileOptions) {
    this.timers = options.timers ?? REAL_TIMERS;
    this.random = options.random ?? Math.random;
    this.state = { host: options.location.host, etag: null, sha256: null, last_success_at: null, last_failure_at: null, last_error: null, failures_in_a_row: 0, fetched_at: null };
  }

  /** Checks at once, then on the interval. */
  start(): void {
    this.schedule(0);
  }

  /** Checks now (SIGHUP, tests); while a check runs, its outcome. */
  checkNow(): Promise<CheckOutcome> {
    if (this.abort.signal.aborted) return Promise.resolve('closed');
    this.checking ??= this.check().finally(() => (this.checking = null));
    return this.checking;
  }

  status(): RemoteFileStatus {
    return { ...this.state };
  }

  /** Counts for the metrics. */
  figures(): FetchCounts {
    return { ...this.counts };
  }

  /** Stops checking; a transfer under way is abandoned and its temporary file removed. */
  async close(): Promise<void> {
    this.abort.abort();
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    await this.checking;
  }

  private schedule(ms: number): void {
    if (this.abort.signal.aborted) return;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = this.timers.set(() => {
      this.timer = null;
      void this.checkNow();
    }, ms);
  }

  /** The delay before the next check: the interval, spread by ±10 %, or after failures a backing-off retry. */
  nextDelayMs(): number {
    const { intervalMs } = this.options;
    const failures = this.state.failures_in_a_row;
    const base = failures === 0 ? intervalMs : Math.min(Math.min(intervalMs, FIRST_RETRY_MS) * 2 ** (failures - 1), Math.max(intervalMs, MAX_RETRY_MS));
    return Math.round(base * (0.9 + 0.2 * this.random()));
  }

  private async check(): Promise<CheckOutcome> {
    let outcome: CheckOutcome;
    try {
      outcome = await this.fetchIfChanged();
      this.succeeded();
    } catch (error) {
      outcome = this.abort.signal.aborted ? 'closed' : 'failed';
      if (outcome === 'failed') this.failed((error as Error).message);
    }
    this.schedule(this.nextDelayMs());
    return outcome;
  }

  private async fetchIfChanged(): Promise<CheckOutcome> {
    const { location, limits, localPath } = this.options;
    const stamp = fileStamp(localPath);
    const etag = this.matched !== null && this.matched.stamp === stamp ? this.matched.etag : null;
    const answer = await fetchChecksum(location.checksumUrl, `${location.shown}.sha256`, location.headers, etag, limits, this.abort.signal);
    if (!answer.changed) return 'unchanged';
    const published = parseChecksum(answer.text, location.fileName);
    if ((await this.localSha256(stamp)) === published) {
      this.matchedNow(answer.etag, published);
      return 'current';
    }
    const fetched = await this.fetchInto(published);
    this.matchedNow(answer.etag, published);
    this.counts.fetched++;
    this.state.fetched_at = new Date(this.options.now()).toISOString();
    this.options.log.info(`fetched ${this.options.what} from ${this.options.setting}`, { url: location.shown, sha256: published, bytes: fetched.bytes, etag: answer.etag });
    this.options.installed(`fetched from ${this.options.setting}`);
    return 'fetched';
  }

  /** Streams the published file beside the local copy, checks it, renames it over the copy. */
  private async fetchInto(published: string): Promise<{ bytes: number }> {
    const { location, limits, localPath } = this.options;
    const temp = temporaryFile(dirname(localPath), `.${basename(localPath)}.`, '.fetching');
    try {
      const fetched = await fetchToFile(location.fileUrl, location.shown, location.headers, temp, limits, this.abort.signal);
      if (fetched.sha256 !== published) {
        throw new Error(`the file fetched from ${location.shown} has SHA-256 ${fetched.sha256}, its checksum file says ${published}: damaged on the way, or published while this replica fetched it (tried again)`);
      }
      try {
        this.options.check(temp);
      } catch (error) {
        throw new Error(`the file published at ${location.shown} is refused: ${(error as Error).message}`);
      }
      renameSync(temp, localPath);
      keepTemporary(temp);
      syncFolder(dirname(localPath));
      this.local = { stamp: fileStamp(localPath), sha256: published };
      return fetched;
    } finally {
      discardTemporary(temp); // gone already after the rename
    }
  }

  /** The local copy's SHA-256, computed once per version of the file; null when there is none. */
  private async localSha256(stamp: string): Promise<string | null> {
    if (stamp === '') return null;
    if (this.local?.stamp !== stamp) this.local = { stamp, sha256: await sha256OfFile(this.options.localPath) };
    return this.local.sha256;
  }

  private matchedNow(etag: string | null, sha256: string): void {
    this.matched = etag === null ? null : { etag, stamp: fileStamp(this.options.localPath) };
    this.state.etag = etag;
    this.state.sha256 = sha256;
  }

  private succeeded(): void {
    const nowMs = this.options.now();
    if (this.state.failures_in_a_row > 0) this.options.log.info(`fetching ${this.options.what} from ${this.options.setting} works again`, { url: this.options.location.shown, failures: this.state.failures_in_a_row });
    this.counts.lastSuccessMs = nowMs;
    this.state.last_success_at = new Date(nowMs).toISOString();
    this.state.last_error = null;
    this.state.failures_in_a_row = 0;
  }

  private failed(message: string): void {
    const nowMs = this.options.now();
    // the same failure again (its byte counts, ports and digests aside) within one run of failures
    const repeated = this.state.failures_in_a_row > 0 && sameKind(message, this.state.last_error);
    this.counts.failures++;
    this.counts.lastFailureMs = nowMs;
    this.state.last_failure_at = new Date(nowMs).toISOString();
    this.state.last_error = message;
    this.state.failures_in_a_row++;
    if (repeated) return; // said once; /status and the metrics count the rest
    const keeping = fileStamp(this.options.localPath) === '' ? 'nothing is served from it until a fetch succeeds' : 'the local copy stays in service';
    this.options.log.error(`fetching ${this.options.what} from ${this.options.setting} failed: ${message}; ${keeping}`, { url: this.options.location.shown, failures_in_a_row: this.state.failures_in_a_row });
  }
}

/** Whether two failure messages say the same but for their numbers. */
function sameKind(a: string, b: string | null): boolean {
  const mask = (text: string) => text.replace(/[0-9a-f]{64}|\d+/g, '#');
  return b !== null && mask(a) === mask(b);
}

/** Makes a rename in `dir` durable. */
function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
