// Messages between the main thread, the decoder threads and the database thread (database-worker.ts).
import type { MessagePort } from 'node:worker_threads';
import type { ToiletRows } from './toilet-rows.js';

export interface WriterSetup {
  path: string;
  /**
   * SQLite page cache. Small on purpose: with journal_mode OFF, pages beyond it are written out as rows come
   * in, instead of all at COMMIT (~0.1 s more while inserting, ~0.2 s less at the end, 220 MiB less memory).
   */
  cacheKiB: number;
}

/** Requests from the main thread, run one after another in order; each is answered by a WriterReply with its id. */
export type WriterRequest = { id: number } & (
  /** A decoder's port, and its DecoderState (shared memory). */
  | { op: 'connect'; port: MessagePort; state: SharedArrayBuffer }
  | { op: 'exec'; sql: string }
  | { op: 'runEach'; sql: string; params: unknown[][] }
  | { op: 'all'; sql: string; params: unknown[] }
  /** `values[c][r]`: column c of row r (columns clone faster than one array per row). */
  | { op: 'insertRows'; table: string; columns: readonly string[]; values: unknown[][] }
  /** Carries the live database's id moves over and records new ones (id-moves.ts); answers their number. */
  | { op: 'carryIdMoves'; livePath: string; movedAt: string }
  /** Writes the column store of every toilet row inserted so far, leaving out these ids. */
  | { op: 'writeColumns'; dropIds: string[] }
  /** Done once every connected decoder has sent a mark (or ended): what they sent before it is in. */
  | { op: 'decodersMarked' }
  /** Done once every connected decoder has ended: all their rows are in. */
  | { op: 'decodersDone' }
  /** Closes the database; the thread then exits. */
  | { op: 'close' }
);

export type WriterReply = { id: number; value: unknown } | { id: number; error: { message: string; code?: string } };

/** From a decoder thread: a block's toilet rows; a mark (see decodersMarked); the end of its messages. */
export type DecoderMessage = { kind: 'rows'; rows: ToiletRows } | { kind: 'mark' } | { kind: 'end' };

/**
 * DecoderState: an Int32Array on shared memory per decoder. IN_FLIGHT counts batches posted and not yet
 * inserted, so a decoder can wait while the database thread is behind; FAILED is set when writing failed.
 */
export const IN_FLIGHT = 0;
export const FAILED = 1;
export const DECODER_STATE_LENGTH = 2;
