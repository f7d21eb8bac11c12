// Streams an extract from a URL to a temporary file, reporting progress; the nightly refresh path.
import { createWriteStream, rmSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isDiskFull } from '../src/storage/errors.js';

export class DownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DownloadError';
  }
}

export interface DownloadProgress {
  bytesRead: number;
  totalBytes: number | null;
}

/** Gives up when no bytes arrive for this long (a stalled mirror should not hang a cron job forever). */
const STALL_TIMEOUT_MS = 60_000;

/** What the server said the body is (its Content-Type), for messages about a body that is not an extract. */
export interface Downloaded {
  contentType: string | null;
}

export async function download(url: string, toPath: string, onProgress?: (p: DownloadProgress) => void): Promise<Downloaded> {
  const controller = new AbortController();
  let stall = setTimeout(() => controller.abort(), STALL_TIMEOUT_MS);
  const touch = () => {
    clearTimeout(stall);
    stall = setTimeout(() => controller.abort(), STALL_TIMEOUT_MS);
  };
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    } catch (error) {
      throw new DownloadError(`cannot download ${url}: ${describeFetchError(error)}`);
    }
    if (!response.ok || !response.body) {
      throw new DownloadError(`cannot download ${url}: the server answered ${response.status} ${response.statusText}`);
    }
    // fetch decodes a Content-Encoding (gzip, br); Content-Length then counts the encoded bytes, so the size
    // is unknown (a body cut short fails decoding instead)
    const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
    const length = Number(response.headers.get('content-length'));
    const totalBytes = !encoded && Number.isFinite(length) && length > 0 ? length : null;
    let bytesRead = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytesRead += chunk.length;
        touch();
        onProgress?.({ bytesRead, totalBytes });
        callback(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), count, createWriteStream(toPath));
    } catch (error) {
      rmSync(toPath, { force: true });
      if (isDiskFull(error)) throw new DownloadError(`the disk is full while downloading ${url} to ${toPath}`);
      throw new DownloadError(`download of ${url} broke off after ${bytesRead} bytes: ${describeFetchError(error)}`);
    }
    if (totalBytes !== null && bytesRead !== totalBytes) {
      rmSync(toPath, { force: true });
      throw new DownloadError(`download of ${url} is incomplete: got ${bytesRead} of ${totalBytes} bytes`);
    }
    return { contentType: response.headers.get('content-type') };
  } finally {
    clearTimeout(stall);
  }
}

function describeFetchError(error: unknown): string {
  if ((error as Error).name === 'AbortError') return `no data for ${STALL_TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
