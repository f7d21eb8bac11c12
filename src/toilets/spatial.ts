// The spatial indexes over loaded toilets, built once per load in shared memory: each server thread
// searches them through its own NearestSearch and BoxSearch (their queues and filter tags are per thread).
// At scale they are built on a thread of their own (spatial-thread.ts) while the loader reads the other
// columns: both take about a second at a million toilets, and they need only the positions.
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import KDBush from 'kdbush';
import Flatbush from 'flatbush';
import { nearestIndex, type NearestIndex } from '../index/nearest.js';
import { boxIndex, type BoxIndex } from '../index/in-box.js';
import { sharedArray } from '../rules/shared-array.js';

/** Small leaves: a k=5 search pushes every point of each leaf it opens. */
const KD_NODE_SIZE = 16;
const FLATBUSH_NODE_SIZE = 16;

export interface SpatialIndexes {
  nearest: NearestIndex;
  /** null when there are no toilets: Flatbush holds at least one item. */
  box: BoxIndex | null;
}

/** Row r lies at (lon[r], lat[r]), for r below count. */
export interface Positions {
  count: number;
  lat: Float64Array;
  lon: Float64Array;
}

export function buildSpatialIndexes(positions: Positions): SpatialIndexes {
  const { count, lat, lon } = positions;
  const kd = new KDBush(count, KD_NODE_SIZE, Float64Array, SharedArrayBuffer);
  const flat = count > 0 ? new Flatbush(count, FLATBUSH_NODE_SIZE, Float64Array, SharedArrayBuffer) : null;
  for (let row = 0; row < count; row++) {
    kd.add(lon[row], lat[row]);
    flat?.add(lon[row], lat[row], lon[row], lat[row]);
  }
  kd.finish();
  flat?.finish();
  return { nearest: nearestIndex(kd), box: flat && boxIndex(flat) };
}

/**
 * From this many toilets the indexes are built on a thread of their own: at 100,000 building takes about
 * as long as starting a thread (~0.1 s on the reference machine).
 */
const INDEX_THREAD_FROM = 100_000;

/** The build thread's progress, in its shared state word. */
export const BuildState = { Starting: 0, Building: 1, Done: 2 } as const;

/** What the build thread posts back: the indexes (their arrays shared, not copied) or why it failed. */
export type BuildReply = { indexes: SpatialIndexes } | { error: string };

/** A thread that has not begun building by then (an exhausted machine) is given up and the build done here. */
const THREAD_START_TIMEOUT_MS = 10_000;

const BUILD_THREAD = new URL('./spatial-thread.js', import.meta.url);

/**
 * Starts building the indexes over `positions` (the positions must not change until they are built) and
 * returns what waits for them: on a thread of their own from `threadFrom` toilets, so the caller goes on
 * meanwhile, else when waited for. Waiting blocks (Atomics.wait), as a load is synchronous; a failed build
 * throws there.
 */
export function startSpatialIndexes(positions: Positions, threadFrom = INDEX_THREAD_FROM): () => SpatialIndexes {
  if (positions.count < threadFrom) return () => buildSpatialIndexes(positions);
  const state = sharedArray(Int32Array, 1);
  const { port1: replies, port2 } = new MessageChannel();
  const { count, lat, lon } = positions;
  let worker: Worker;
  try {
    worker = new Worker(BUILD_THREAD, { workerData: { positions: { count, lat, lon }, state, replies: port2 }, transferList: [port2] });
  } catch {
    replies.close();
    return () => buildSpatialIndexes(positions); // no thread to be had (e.g. a process limit): built here
  }
  worker.unref();
  return () => {
    try {
      if (Atomics.wait(state, 0, BuildState.Starting, THREAD_START_TIMEOUT_MS) === 'timed-out') return buildSpatialIndexes(positions);
      while (Atomics.load(state, 0) !== BuildState.Done) Atomics.wait(state, 0, BuildState.Building);
      const reply = receiveMessageOnPort(replies)?.message as BuildReply;
      if ('error' in reply) throw new Error(`building the spatial indexes failed: ${reply.error}`);
      return reply.indexes;
    } finally {
      replies.close();
      void worker.terminate();
    }
  };
}
