// The spatial indexes over loaded toilets, built once per load in shared memory: each server thread
// searches them through its own NearestSearch and BoxSearch (their queues and filter tags are per thread).
import KDBush from 'kdbush';
import Flatbush from 'flatbush';
import { nearestIndex, type NearestIndex } from '../index/nearest.js';
import { boxIndex, type BoxIndex } from '../index/in-box.js';
import type { SourceTable } from './table.js';

/** Small leaves: a k=5 search pushes every point of each leaf it opens. */
const KD_NODE_SIZE = 16;
const FLATBUSH_NODE_SIZE = 16;

export interface SpatialIndexes {
  nearest: NearestIndex;
  /** null when there are no toilets: Flatbush holds at least one item. */
  box: BoxIndex | null;
}

export function buildSpatialIndexes(table: SourceTable): SpatialIndexes {
  const n = table.count;
  const kd = new KDBush(n, KD_NODE_SIZE, Float64Array, SharedArrayBuffer);
  const flat = n > 0 ? new Flatbush(n, FLATBUSH_NODE_SIZE, Float64Array, SharedArrayBuffer) : null;
  for (let row = 0; row < n; row++) {
    kd.add(table.lon[row], table.lat[row]);
    flat?.add(table.lon[row], table.lat[row], table.lon[row], table.lat[row]);
  }
  kd.finish();
  flat?.finish();
  return { nearest: nearestIndex(kd), box: flat && boxIndex(flat) };
}
