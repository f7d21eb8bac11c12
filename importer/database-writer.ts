// The database being written, from the main thread: a handle on the database thread (database-worker.ts).
// Requests run in order; decoder threads connect their own ports and send toilet rows directly.
import { MessageChannel, Worker, type MessagePort, type TransferListItem } from 'node:worker_threads';
import { DECODER_STATE_LENGTH, FAILED, IN_FLIGHT, type WriterReply, type WriterRequest, type WriterSetup } from './database-protocol.js';

/** What a decoder needs to send rows (see RowSink). */
export interface DecoderConnection {
  port: MessagePort;
  state: SharedArrayBuffer;
}

type Request = WriterRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class DatabaseWriter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 0;
  private crashed: Error | null = null;
  private readonly decoderStates: Int32Array[] = [];
  private readonly exited: Promise<void>;

  constructor(setup: WriterSetup) {
    this.worker = new Worker(new URL('./database-worker.js', import.meta.url), { workerData: setup });
    this.worker.on('message', (reply: WriterReply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ('error' in reply) waiter?.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      else waiter?.resolve(reply.value);
    });
    this.worker.on('error', (error) => this.crash(error));
    this.exited = new Promise((resolve) => this.worker.on('exit', () => {
      this.crash(new Error('the database thread stopped'));
      resolve();
    }));
  }

  /** A port and shared state for one decoder thread; transfer the port to it. */
  connectDecoder(): DecoderConnection {
    const { port1, port2 } = new MessageChannel();
    const state = new SharedArrayBuffer(DECODER_STATE_LENGTH * Int32Array.BYTES_PER_ELEMENT);
    this.decoderStates.push(new Int32Array(state));
    void this.request({ op: 'connect', port: port1, state }, [port1]).catch(() => {});
    return { port: port2, state };
  }

  exec(sql: string): Promise<void> {
    return this.request({ op: 'exec', sql }) as Promise<void>;
  }

  /** Runs `sql` once per parameter list. */
  runEach(sql: string, params: unknown[][]): Promise<void> {
    return this.request({ op: 'runEach', sql, params }) as Promise<void>;
  }

  all<T>(sql: string, ...params: unknown[]): Promise<T[]> {
    return this.request({ op: 'all', sql, params }) as Promise<T[]>;
  }

  /** Inserts rows given by column: `values[c][r]` is column c of row r. `transfer`: buffers of the values to move, not copy. */
  insertRows(table: string, columns: readonly string[], values: unknown[][], transfer: ArrayBuffer[] = []): Promise<void> {
    return this.request({ op: 'insertRows', table, columns, values }, transfer) as Promise<void>;
  }

  /** Carries the id moves of the live database at `livePath` over, and records new ones; resolves to their number. */
  carryIdMoves(livePath: string, movedAt: string): Promise<number> {
    return this.request({ op: 'carryIdMoves', livePath, movedAt }) as Promise<number>;
  }

  /** Writes the column store (src/source/columns.ts) of the toilets inserted, leaving out `dropIds`. */
  writeColumns(dropIds: string[]): Promise<void> {
    return this.request({ op: 'writeColumns', dropIds }) as Promise<void>;
  }

  /** Resolves once every connected decoder has sent a mark (RowSink.mark) or ended: what came before is in. */
  decodersMarked(): Promise<void> {
    return this.request({ op: 'decodersMarked' }) as Promise<void>;
  }

  /** Resolves once every connected decoder has ended: all its rows are in. */
  decodersDone(): Promise<void> {
    return this.request({ op: 'decodersDone' }) as Promise<void>;
  }

  /** Closes the database and ends the thread. */
  async close(): Promise<void> {
    await this.request({ op: 'close' });
    await this.exited;
  }

  /** Ends the thread at once, after a failure (the database file is left as it is). */
  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private request(request: Request, transfer: TransferListItem[] = []): Promise<unknown> {
    if (this.crashed) return Promise.reject(this.crashed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  private crash(error: Error): void {
    this.crashed ??= error;
    // A decoder waiting for the thread to catch up would wait forever.
    for (const state of this.decoderStates) {
      Atomics.store(state, FAILED, 1);
      Atomics.notify(state, IN_FLIGHT);
    }
    for (const waiter of this.waiting.values()) waiter.reject(this.crashed);
    this.waiting.clear();
  }
}
