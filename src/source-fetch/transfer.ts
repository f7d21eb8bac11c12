// The two requests of a check, over HTTP(S) with fetch(): the checksum file, conditional on the ETag last
// seen (If-None-Match; a 304 is the usual answer and costs a few hundred bytes), and the file itself,
// streamed into a temporary file while its SHA-256 is computed. A transfer that sends nothing for
// `timeoutMs` (no answer, or a body that stops) is given up; a file over `maxBytes` is refused before or
// while it arrives, so a wrong URL cannot fill the disk. Every message names the address without its
// userinfo or query (PublishedLocation.shown).
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

export interface TransferLimits {
  /** No byte (nor the answer's head) for this long ends the transfer. */
  timeoutMs: number;
  /** Largest file accepted, in bytes. */
  maxBytes: number;
}

/** The checksum file's answer: unchanged since `etag`, or its text and ETag. */
export type ChecksumAnswer = { changed: false } | { changed: true; text: string; etag: string | null };

/** A fetched file on disk. */
export interface FetchedFile {
  sha256: string;
  bytes: number;
  etag: string | null;
}

/** Largest checksum file read: one line of a digest and a name. */
const CHECKSUM_MAX_BYTES = 4096;

/** Aborts when nothing happened for the timeout, or when `outer` aborts (the server shuts down). */
class Watchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  private readonly onOuterAbort = () => this.controller.abort();
  stalled = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal,
  ) {
    this.timer = this.arm();
    outer.addEventListener('abort', this.onOuterAbort, { once: true });
    if (outer.aborted) this.controller.abort();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }

  private arm(): NodeJS.Timeout {
    return setTimeout(() => {
      this.stalled = true;
      this.controller.abort();
    }, this.timeoutMs);
  }
}

/** Requests `url`; the watchdog runs until the caller stops it. */
async function request(url: string, shown: string, headers: Record<string, string>, watchdog: Watchdog, limits: TransferLimits): Promise<Response> {
  try {
    return await fetch(url, { headers, signal: watchdog.signal, redirect: 'follow' });
  } catch (error) {
    throw new Error(`cannot reach ${shown}: ${reason(error, watchdog, limits)}`);
  }
}

/** The checksum file at `url`, unless its ETag is still `etag`. */
export async function fetchChecksum(url: string, shown: string, headers: Readonly<Record<string, string>>, etag: string | null, limits: TransferLimits, outer: AbortSignal): Promise<ChecksumAnswer> {
  const watchdog = new Watchdog(limits.timeoutMs, outer);
  try {
    const response = await request(url, shown, { ...headers, ...(etag === null ? {} : { 'If-None-Match': etag }) }, watchdog, limits);
    if (response.status === 304 && etag !== null) return { changed: false };
    if (response.status !== 200) throw new Error(`${shown} answered ${response.status} ${response.statusText}${response.status === 404 ? ': has the import job published the file and its checksum yet?' : ''}`);
    let text = '';
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        watchdog.touch();
        text += Buffer.from(chunk).toString('latin1');
        if (text.length > CHECKSUM_MAX_BYTES) throw new Error(`it is over ${CHECKSUM_MAX_BYTES} bytes: it should hold one line`);
      }
    } catch (error) {
      throw new Error(`the checksum file ${shown} could not be read: ${reason(error, watchdog, limits)}`);
    }
    return { changed: true, text, etag: response.headers.get('etag') };
  } finally {
    watchdog.stop();
  }
}

/** Streams the file at `url` into `path` (made anew) and makes it durable; throws on any shortfall. */
export async function fetchToFile(url: string, shown: string, headers: Readonly<Record<string, string>>, path: string, limits: TransferLimits, outer: AbortSignal): Promise<FetchedFile> {
  const watchdog = new Watchdog(limits.timeoutMs, outer);
  try {
    const response = await request(url, shown, { ...headers }, watchdog, limits);
    if (response.status !== 200 || response.body === null) throw new Error(`${shown} answered ${response.status} ${response.statusText}`);
    // fetch decodes a Content-Encoding (gzip, br); Content-Length then counts the encoded bytes
    const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
    const length = encoded ? null : Number(response.headers.get('content-length') ?? NaN);
    const expected = length !== null && Number.isSafeInteger(length) ? length : null;
    if (expected !== null && expected > limits.maxBytes) throw new Error(`${shown} is ${megabytes(expected)}, over the limit of ${megabytes(limits.maxBytes)} (SOURCE_FETCH_MAX_MB)`);
    const hash = createHash('sha256');
    let bytes = 0;
    const file = await open(path, 'wx', 0o644);
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        watchdog.touch();
        bytes += chunk.byteLength;
        if (bytes > limits.maxBytes) throw new Error(`it is over the limit of ${megabytes(limits.maxBytes)} (SOURCE_FETCH_MAX_MB)`);
        hash.update(chunk);
        await file.write(chunk);
      }
      await file.sync();
    } catch (error) {
      throw new Error(`the transfer of ${shown} broke off after ${bytes} bytes: ${reason(error, watchdog, limits)}`);
    } finally {
      await file.close();
    }
    if (expected !== null && bytes !== expected) throw new Error(`the transfer of ${shown} is incomplete: ${bytes} of ${expected} bytes`);
    return { sha256: hash.digest('hex'), bytes, etag: response.headers.get('etag') };
  } finally {
    watchdog.stop();
  }
}

function reason(error: unknown, watchdog: Watchdog, limits: TransferLimits): string {
  if (watchdog.stalled) return `nothing arrived for ${limits.timeoutMs / 1000} s (SOURCE_FETCH_TIMEOUT_MS)`;
  if (watchdog.signal.aborted) return 'the server is shutting down';
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}
