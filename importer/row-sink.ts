// A decoder thread's side of its connection to the database thread: posts each block's toilet rows, and
// waits while MAX_IN_FLIGHT batches are still to be inserted (so memory stays bounded when writing is the
// slower side).
import type { MessagePort } from 'node:worker_threads';
import { FAILED, IN_FLIGHT, type DecoderMessage } from './database-protocol.js';
import type { ToiletRows } from './toilet-rows.js';

const MAX_IN_FLIGHT = 4;

export class RowSink {
  private readonly state: Int32Array;

  constructor(
    private readonly port: MessagePort,
    state: SharedArrayBuffer,
  ) {
    this.state = new Int32Array(state);
  }

  send(rows: ToiletRows, transfer: ArrayBuffer[]): void {
    for (let inFlight = Atomics.load(this.state, IN_FLIGHT); inFlight >= MAX_IN_FLIGHT; inFlight = Atomics.load(this.state, IN_FLIGHT)) {
      if (Atomics.load(this.state, FAILED)) throw new Error('writing the database failed');
      Atomics.wait(this.state, IN_FLIGHT, inFlight);
    }
    if (Atomics.load(this.state, FAILED)) throw new Error('writing the database failed');
    Atomics.add(this.state, IN_FLIGHT, 1);
    this.port.postMessage({ kind: 'rows', rows } satisfies DecoderMessage, transfer);
  }

  /** Tells the database thread that everything sent so far is sent (DatabaseWriter.decodersMarked). */
  mark(): void {
    this.port.postMessage({ kind: 'mark' } satisfies DecoderMessage);
  }

  end(): void {
    this.port.postMessage({ kind: 'end' } satisfies DecoderMessage);
    this.port.close();
  }
}
