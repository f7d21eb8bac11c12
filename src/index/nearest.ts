// Nearest-k by great-circle distance over a KDBush index, best-first like geokdbush's `around`, but with
// typed-array queues reused across calls so a query allocates nothing. Every search descends through the
// same top levels of the tree, whose split points lie scattered over the index's large arrays: at a million
// points each level cost a few cache misses. Those levels' split points are therefore copied into small
// arrays in tree order (TopLevels), which stay in the processor cache from one search to the next.
// A half queued below such a split point gets a bound that needs no trigonometry (its distance from the
// split's plane, from constants of the split), and its box bound only if it is ever taken: most halves
// queued on the way down are never taken. The half that holds the query point is not queued at all but
// split straight away: it would be taken next anyway. A node's box bound is to the box of its points
// (nodeBoxes), not to the region its splits leave it, so sparse places open few nodes.
import KDBush from 'kdbush';
import { TripleQueue } from './queue.js';
import { haverSinChord, haverSinToBox, QueryPoint, RAD, unitVectors } from './great-circle.js';
import { keeps, PositionTags, positionsOf, type PointFilter } from './point-filter.js';
import { sharedArray } from '../rules/shared-array.js';
import { nodeBoxes } from './node-boxes.js';

const POINT = -1;
/** The third member of a queued node: its priority is an estimate, to be replaced by its box bound if taken, or that bound. */
const ESTIMATE = 1;
const BOX_BOUND = 0;
/** Taken off a plane distance (in unit-vector chord) to cover rounding: about 6 µm. */
const PLANE_MARGIN = 1e-12;
/** Levels copied into TopLevels: 65,535 split points in 4.5 MB, every split of a million points in leaves of 16. */
const TOP_LEVELS = 16;

/**
 * The split points of the tree's top levels in heap order (the root is 1, the children of node h are 2h
 * and 2h + 1). Per entry, in one cache line: the split coordinate, the split point's unit vector, and
 * the sine and cosine of the split coordinate (the split plane, see pushHalf); then row and index
 * position. Entry 0 is unused, as are the entries of nodes that are leaves. Shared: each search keeps
 * the entries' tags itself.
 */
interface TopLevels {
  readonly size: number;
  /** split, x, y, z, sin(split), cos(split) of each entry, at 8 × entry. */
  readonly point: Float64Array;
  readonly row: Uint32Array;
  readonly position: Uint32Array;
}

function topLevels(ids: Uint16Array | Uint32Array, nodeSize: number, coords: Float64Array, xyz: Float64Array, levels: number): TopLevels {
  const size = 1 << levels;
  const top = { size, point: sharedArray(Float64Array, size * 8), row: sharedArray(Uint32Array, size), position: sharedArray(Uint32Array, size) };
  const visit = (heap: number, left: number, right: number, axis: number): void => {
    if (heap >= size || right - left <= nodeSize) return;
    const m = (left + right) >> 1;
    const split = coords[2 * m + axis];
    top.point[8 * heap] = split;
    top.point.set(xyz.subarray(3 * m, 3 * m + 3), 8 * heap + 1);
    top.point[8 * heap + 4] = Math.sin(split * RAD);
    top.point[8 * heap + 5] = Math.cos(split * RAD);
    top.row[heap] = ids[m];
    top.position[heap] = m;
    visit(2 * heap, left, m - 1, 1 - axis);
    visit(2 * heap + 1, m + 1, right, 1 - axis);
  };
  if (ids.length > 0) visit(1, 0, ids.length - 1, 0);
  return top;
}

/** The TopLevels entry of the split point at an index position, 0 when it has none. */
function entryOf(top: TopLevels, nodeSize: number, position: number, count: number): number {
  let [heap, left, right] = [1, 0, count - 1];
  while (heap < top.size && right - left > nodeSize) {
    const m = (left + right) >> 1;
    if (position === m) return heap;
    if (position < m) [heap, right] = [2 * heap, m - 1];
    else [heap, left] = [2 * heap + 1, m + 1];
  }
  return 0;
}

/**
 * What a search reads and never writes, made once per index in shared memory so that every server thread
 * searches the same arrays: the KDBush data, the points' unit vectors and the nodes' boxes.
 */
export interface NearestIndex {
  readonly data: ArrayBufferLike;
  readonly xyz: Float64Array;
  readonly boxes: Float64Array;
  /** Each row's index position (see positionsOf). */
  readonly positionOfRow: Uint32Array;
  readonly top: TopLevels;
}

/** The shared parts of a search over a finished KDBush index (made with SharedArrayBuffer to be shared); `levels`: see TopLevels. */
export function nearestIndex(kd: KDBush, levels = TOP_LEVELS): NearestIndex {
  const coords = kd.coords as Float64Array;
  const xyz = unitVectors(coords);
  return {
    data: kd.data,
    xyz,
    boxes: nodeBoxes(coords, kd.nodeSize),
    positionOfRow: positionsOf(kd.ids, kd.ids.length),
    top: topLevels(kd.ids, kd.nodeSize, coords, xyz, levels),
  };
}

/** A search over a NearestIndex; each thread has its own (queues and point tags). */
export class NearestSearch {
  private readonly queue = new TripleQueue();
  // Pending kd-tree nodes: their index range, split axis and heap number, addressed by slot.
  private left = new Int32Array(256);
  private right = new Int32Array(256);
  private axis = new Uint8Array(256);
  /** Heap number (root 1, children 2h and 2h + 1): where the node's box is, and its TopLevels entry when below top.size. */
  private heap = new Int32Array(256);
  /** The box bound of each node taken. */
  private taken = new Float64Array(256);
  private slots = 0;

  /** Unit vectors of the points in the index's order (see unitVectors), and the query's. */
  private readonly xyz: Float64Array;
  private readonly point = new QueryPoint();
  private readonly top: TopLevels;
  /** The tag of each TopLevels entry's split point. */
  private readonly topTag: Uint8Array;
  /** The box of each node's points, by heap number (nodeBoxes). */
  private readonly boxes: Float64Array;
  /** The index's rows and coordinates in its point order, and its leaf size. */
  private readonly ids: Uint16Array | Uint32Array;
  private readonly coords: Float64Array;
  private readonly nodeSize: number;

  /** The points' tags in the index's order (see PointFilter). */
  private readonly tags: PositionTags;

  /** `rowTags`: each row's tag byte (see point-filter.ts); none: all zero. */
  constructor(index: NearestIndex, rowTags?: Uint8Array) {
    const kd = KDBush.from(index.data);
    this.ids = kd.ids;
    this.coords = kd.coords as Float64Array;
    this.nodeSize = kd.nodeSize;
    this.xyz = index.xyz;
    this.boxes = index.boxes;
    this.tags = new PositionTags(index.positionOfRow, rowTags);
    this.top = index.top;
    this.topTag = new Uint8Array(this.top.size);
    for (let entry = 1; entry < this.top.size; entry++) this.topTag[entry] = this.tags.tags[this.top.position[entry]];
  }

  /** A row's tag changed. */
  setTag(row: number, tag: number): void {
    this.tags.set(row, tag);
    const entry = entryOf(this.top, this.nodeSize, this.tags.positionOf(row), this.ids.length);
    if (entry !== 0) this.topTag[entry] = tag;
  }

  /**
   * Writes into `rows`/`haverSins` up to `k` rows nearest to (lon, lat) whose haversine value is at most
   * `maxHaverSin` and that `filter` keeps, nearest first; returns how many were written.
   */
  search(lon: number, lat: number, k: number, maxHaverSin: number, filter: PointFilter, rows: Int32Array, haverSins: Float64Array): number {
    const count = this.ids.length;
    const nodeSize = this.nodeSize;
    const queue = this.queue;
    let found = 0;
    if (count === 0 || k <= 0) return 0;
    this.point.set(lon, lat);
    queue.clear();
    this.slots = 0;
    let node = this.root(count - 1);
    for (;;) {
      if (this.right[node] - this.left[node] > nodeSize) {
        const inside = this.split(node, filter);
        if (inside >= 0) {
          node = inside;
          continue;
        }
      } else {
        this.queueLeaf(node, filter);
      }
      // Take the next node, reporting the points queued nearer than it on the way.
      for (;;) {
        // Points at the head of the queue are nearer than anything still inside a pending node.
        while (queue.length > 0 && queue.peekA() === POINT) {
          const h = queue.peekPriority();
          if (h > maxHaverSin) return found;
          rows[found] = queue.peekB();
          haverSins[found] = h;
          queue.pop();
          if (++found === k) return found;
        }
        if (queue.length === 0 || queue.peekPriority() > maxHaverSin) return found;
        node = queue.peekA();
        const estimated = queue.peekB() === ESTIMATE;
        this.taken[node] = queue.peekPriority();
        queue.pop();
        if (!estimated || !this.requeueIfFarther(node)) break;
      }
    }
  }

  /**
   * Replaces a taken node's estimate with its box bound (haverSinToBox); when that is farther than the
   * head of the queue, queues the node again with it and returns true.
   */
  private requeueIfFarther(node: number): boolean {
    const bound = haverSinToBox(this.point.origin, this.boxes, 4 * this.heap[node]);
    if (this.queue.length > 0 && bound > this.queue.peekPriority()) {
      this.queue.push(bound, node, BOX_BOUND);
      return true;
    }
    this.taken[node] = bound;
    return false;
  }

  // The steps of a search are methods taking whole numbers only, each small enough for V8 to inline the
  // arithmetic it calls: a double passed to or returned from a call that is not inlined is boxed, one
  // allocation each, and a search makes over a hundred of them.

  /** Queues the points of a leaf that the filter keeps. */
  private queueLeaf(node: number, filter: PointFilter): void {
    const ids = this.ids;
    const tags = this.tags.tags;
    const xyz = this.xyz;
    const q = this.point.xyz;
    for (let i = this.left[node], right = this.right[node]; i <= right; i++) {
      const row = ids[i];
      if (!keeps(filter, tags[i], row)) continue;
      this.queue.push(haverSinChord(q, xyz, 3 * i), POINT, row);
    }
  }

  /**
   * Queues the split point of an inner node (if the filter keeps it) and its halves, except, when the
   * node holds the query point, the half that holds it: that one is returned to be split next (it would
   * be taken next anyway, its bound being 0), so the way down from the root costs no queueing. Else -1.
   */
  private split(node: number, filter: PointFilter): number {
    const left = this.left[node];
    const right = this.right[node];
    const m = (left + right) >> 1;
    const heap = this.heap[node];
    const top = this.top;
    const inTop = heap < top.size;
    const row = inTop ? top.row[heap] : this.ids[m];
    if (keeps(filter, inTop ? this.topTag[heap] : this.tags.tags[m], row)) {
      const h = inTop ? haverSinChord(this.point.xyz, top.point, 8 * heap + 1) : haverSinChord(this.point.xyz, this.xyz, 3 * m);
      this.queue.push(h, POINT, row);
    }
    const split = inTop ? top.point[8 * heap] : this.coords[2 * m + this.axis[node]];
    const inside = this.taken[node] === 0 ? (this.point.origin[this.axis[node]] <= split ? 0 : 1) : -1;
    let next = -1;
    // One call site for both halves: two would double the code V8 inlines here and exhaust its budget.
    for (let upper = 0; upper < 2; upper++) {
      const slot = upper === 0 ? this.slot(left, m - 1, 1 - this.axis[node], 2 * heap) : this.slot(m + 1, right, 1 - this.axis[node], 2 * heap + 1);
      if (this.left[slot] > this.right[slot]) continue; // empty half
      if (upper === inside) {
        this.taken[slot] = 0;
        next = slot;
      } else {
        this.pushHalf(slot, node, upper);
      }
    }
    return next;
  }

  /**
   * Queues a half of `parent`. Below TopLevels with its box bound. Else with a lower bound from the
   * parent's bound and the split plane: a latitude split is the plane z = sin(split), a longitude split
   * the plane through the poles at that meridian, and no point of the half lies on the query's side of
   * it (for a longitude split, when the half's points lie within 180° of the meridian). The chord to any
   * point of the half is then at least the query's distance from the plane. Given its box bound if the half is taken.
   */
  private pushHalf(slot: number, parent: number, upper: number): void {
    const heap = this.heap[parent];
    const boxes = this.boxes;
    const box = 4 * this.heap[slot];
    if (heap >= this.top.size) {
      this.queue.push(haverSinToBox(this.point.origin, boxes, box), slot, BOX_BOUND);
      return;
    }
    const split = this.top.point;
    const at = 8 * heap;
    const q = this.point.xyz;
    // Signed distance of the query from the plane, positive on the upper half's side.
    let side: number;
    if (this.axis[parent] === 1) {
      side = q[2] - split[at + 4];
    } else {
      const reach = upper === 1 ? boxes[box + 2] - split[at] : split[at] - boxes[box];
      side = reach <= 180 ? q[1] * split[at + 5] - q[0] * split[at + 4] : 0;
    }
    const gap = Math.max(0, (upper === 1 ? -side : side) - PLANE_MARGIN);
    this.queue.push(Math.max(this.taken[parent], (gap * gap) / 4), slot, ESTIMATE);
  }

  private root(right: number): number {
    const slot = this.slot(0, right, 0, 1);
    this.taken[slot] = 0;
    return slot;
  }

  private slot(left: number, right: number, axis: number, heap: number): number {
    if (this.slots === this.left.length) this.grow();
    const slot = this.slots++;
    this.left[slot] = left;
    this.right[slot] = right;
    this.axis[slot] = axis;
    this.heap[slot] = heap;
    return slot;
  }

  private grow(): void {
    const size = this.left.length * 2;
    const left = new Int32Array(size);
    const right = new Int32Array(size);
    const axis = new Uint8Array(size);
    const heap = new Int32Array(size);
    const taken = new Float64Array(size);
    left.set(this.left);
    right.set(this.right);
    axis.set(this.axis);
    heap.set(this.heap);
    taken.set(this.taken);
    Object.assign(this, { left, right, axis, heap, taken });
  }
}
