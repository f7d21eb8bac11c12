// The new database must be on disk before it is renamed over the live one. Left to the fsync just before the
// rename, writing ~500 MB (1M toilets) takes ~0.5–0.9 s at the very end of an import: the kernel holds the
// pages until then. Asking for them earlier, in libuv's thread pool, lets the disk work while the import
// computes, and the last fsync finds little left.
import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';

export class WriteBack {
  private readonly fd: number;
  private running: Promise<void> | null = null;
  /** The first error of a background flush: Linux reports it to this descriptor only once. */
  private failure: Error | null = null;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  /** Starts writing what the file holds so far: now, or after a flush still running. */
  start(): void {
    const previous = this.running;
    const flush: Promise<void> = (previous ?? Promise.resolve()).then(
      () =>
        new Promise((resolve) =>
          fsync(this.fd, (error) => {
            this.failure ??= error;
            if (this.running === flush) this.running = null;
            resolve();
          }),
        ),
    );
    this.running = flush;
  }

  /** Waits for the flushes started, then writes the rest; throws the first write error, whenever it happened. */
  async finish(): Promise<void> {
    await this.running;
    if (this.failure) throw this.failure;
    fsyncSync(this.fd);
  }

  /** Closes the file once no flush uses it. */
  async close(): Promise<void> {
    await this.running;
    closeSync(this.fd);
  }
}
