// Decoders as message channels: worker threads, or one inline decoder on the main thread (threads: 0) that
// behaves the same way, answering asynchronously in request order.
import { Worker, type TransferListItem } from 'node:worker_threads';
import { BlockDecoder, describeFault, loadNodeTransform, type DecoderReply, type DecoderRequest, type DecoderSetup } from './block-decoder.js';
import { ExtractError } from './extract-error.js';
import type { NodeTransform } from './types.js';

export interface DecoderChannel {
  post(request: DecoderRequest, transfer?: TransferListItem[]): void;
  close(): Promise<void>;
}

export interface DecoderEvents {
  reply(channel: number, reply: DecoderReply): void;
  /** A decoder died (not a decoding failure, which arrives as a 'failed' reply). */
  crash(error: Error): void;
}

const WORKER_URL = new URL('./decode-worker.js', import.meta.url);

/** `setupFor(index)` for each decoder: its setup, and objects to transfer to its thread with it. */
export type SetupFor = (decoder: number) => { setup: DecoderSetup; transfer: TransferListItem[] };

/** `threads` worker threads, or one inline decoder when `threads` is 0. */
export async function openDecoders(threads: number, setupFor: SetupFor, events: DecoderEvents): Promise<DecoderChannel[]> {
  if (threads === 0) {
    const { setup } = setupFor(0);
    let transform;
    try {
      transform = setup.transform ? await loadNodeTransform(setup.transform) : null;
    } catch (err) {
      throw new Error(`node transform failed: ${describeFault(err)}`, { cause: err });
    }
    return [new InlineChannel(setup, transform, events)];
  }
  return Array.from({ length: threads }, (_, index) => {
    const { setup, transfer } = setupFor(index);
    return new WorkerChannel(index, setup, transfer, events);
  });
}

/**
 * Decoders (and node transforms) allocate short-lived objects by the million; a young generation this large
 * (32 MiB semi-spaces, V8's default is 16) makes scavenges rarer and cut the decoders' CPU time by ~8%.
 */
const YOUNG_GENERATION_MB = 96;

/** How long a closing worker may take to finish its current block before it is terminated. */
const CLOSE_GRACE_MS = 10_000;

class WorkerChannel implements DecoderChannel {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private closing = false;
  /** Resolves on the worker's 'closed' reply. */
  private readonly closedReply: Promise<void>;
  private onClosedReply: () => void = () => {};
  /**
   * Who hears this decoder; no one once it has closed. Node keeps a worker's listeners until its exit event is
   * handled, which a busy main thread handles late: through them the scan's ways and relations (~100 MB at a
   * million toilets) stayed reachable, and were marked by every collection, until the import's end.
   */
  private events: DecoderEvents | null;

  constructor(index: number, setup: DecoderSetup, transfer: TransferListItem[], events: DecoderEvents) {
    this.events = events;
    this.worker = new Worker(WORKER_URL, { workerData: setup, transferList: transfer, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    this.closedReply = new Promise((resolve) => (this.onClosedReply = resolve));
    this.worker.on('message', (reply: DecoderReply) => (reply.kind === 'closed' ? this.onClosedReply() : this.events?.reply(index, reply)));
    this.worker.on('error', (err) => this.events?.crash(asCrash(setup.path, err)));
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        if (!this.closing) this.events?.crash(new ExtractError('corrupt', `${setup.path}: a decoder thread stopped unexpectedly (exit code ${code})`));
        resolve();
      });
    });
  }

  post(request: DecoderRequest, transfer: TransferListItem[] = []): void {
    this.worker.postMessage(request, transfer);
  }

  /**
   * Asks the worker to close its file and exit once its queued work is done, rather than terminating it at
   * once: a thread terminated while still loading its modules leaks the file descriptors it was reading.
   * Resolves once the worker says it has closed its file and node transform (or has exited): its thread then
   * exits on its own, which takes ~0.15 s after an import's scan, time the caller need not wait.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.worker.postMessage({ kind: 'close' } satisfies DecoderRequest);
    let timer: NodeJS.Timeout | undefined;
    const overdue = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), CLOSE_GRACE_MS);
    });
    const closed = Promise.race([this.closedReply, this.exited]).then(() => false);
    if (await Promise.race([closed, overdue])) await this.worker.terminate();
    clearTimeout(timer);
    this.events = null;
  }
}

class InlineChannel implements DecoderChannel {
  private readonly decoder: BlockDecoder;
  private closed = false;

  constructor(
    setup: DecoderSetup,
    transform: NodeTransform | null,
    private readonly events: DecoderEvents,
  ) {
    this.decoder = new BlockDecoder(setup, transform);
  }

  post(request: DecoderRequest): void {
    setImmediate(() => {
      if (this.closed) return;
      const answer = this.decoder.handle(request);
      if (answer) this.events.reply(0, answer.reply);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.decoder.handle({ kind: 'close' });
  }
}

/** Errors the worker could not even report (e.g. the file vanished before it opened it). */
function asCrash(path: string, err: Error): Error {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new ExtractError('not_found', `${path} disappeared during the scan`);
  return err instanceof ExtractError ? err : new ExtractError('corrupt', `${path}: a decoder thread failed (${err.message})`);
}
