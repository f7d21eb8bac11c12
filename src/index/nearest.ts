// Nearest-k by great-circle distance over a KDBush index, best-first like geokdbush's `around`, but with
// typed-array queues reused across calls so a query allocates nothing.
import type KDBush from 'kdbush';
import { TripleQueue } from './queue.js';
import { haverSinChord, haverSinToBox, QueryPoint, unitVectors } from './great-circle.js';
import { keeps, PositionTags, type PointFilter } from './point-filter.js';

const POINT = -1;
const WORLD = [-180, -90, 180, 90];

export class NearestSearch {
  private readonly queue = new TripleQueue();
  // Pending kd-tree nodes: their index range, split axis and bounds, addressed by slot.
  private left = new Int32Array(256);
  private right = new Int32Array(256);
  private axis = new Uint8Array(256);
  private bounds = new Float64Array(256 * 4);
  private slots = 0;

  /** Unit vectors of the points in the index's order (see unitVectors), and the query's. */
  private readonly xyz: Float64Array;
  private readonly point = new QueryPoint();

  /** The points' tags in the index's order (see PointFilter). */
  readonly tags: PositionTags;

  /** `rowTags`: each row's tag byte (see point-filter.ts); none: all zero. */
  constructor(
    private readonly index: KDBush,
    rowTags?: Uint8Array,
  ) {
    const { ids, coords } = index as unknown as { ids: Uint32Array; coords: Float64Array };
    this.xyz = unitVectors(coords);
    this.tags = new PositionTags(ids, ids.length, rowTags);
  }

  /**
   * Writes into `rows`/`haverSins` up to `k` rows nearest to (lon, lat) whose haversine value is at most
   * `maxHaverSin` and that `filter` keeps, nearest first; returns how many were written.
   */
  search(lon: number, lat: number, k: number, maxHaverSin: number, filter: PointFilter, rows: Int32Array, haverSins: Float64Array): number {
    const { ids, coords, nodeSize } = this.index as unknown as { ids: Uint32Array; coords: Float64Array; nodeSize: number };
    const queue = this.queue;
    const tags = this.tags.tags;
    this.point.set(lon, lat);
    const q = this.point.xyz;
    const xyz = this.xyz;
    let found = 0;
    if (ids.length === 0 || k <= 0) return 0;
    queue.clear();
    this.slots = 0;
    let node = this.root(ids.length - 1);
    for (;;) {
      const left = this.left[node];
      const right = this.right[node];
      if (right - left <= nodeSize) {
        for (let i = left; i <= right; i++) {
          const row = ids[i];
          if (keeps(filter, tags[i], row)) queue.push(haverSinChord(q, xyz, i), POINT, row);
        }
      } else {
        const m = (left + right) >> 1;
        const row = ids[m];
        if (keeps(filter, tags[m], row)) queue.push(haverSinChord(q, xyz, m), POINT, row);
        this.pushNode(this.child(node, left, m - 1, coords, m, false));
        this.pushNode(this.child(node, m + 1, right, coords, m, true));
      }
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
      queue.pop();
    }
  }

  private pushNode(slot: number): void {
    if (this.left[slot] > this.right[slot]) return; // empty half
    this.queue.push(haverSinToBox(this.point.origin, this.bounds, slot * 4), slot, 0);
  }

  private root(right: number): number {
    const slot = this.slot(0, right, 0);
    this.bounds.set(WORLD, slot * 4);
    return slot;
  }

  /**
   * The lower (or upper) half of `parent` split at point `m`: its bounds are the parent's with the split
   * coordinate as the new max (or min), and it splits on the other axis. Reads the coordinates itself
   * rather than taking them as arguments (see haverSinToBox on boxed doubles).
   */
  private child(parent: number, left: number, right: number, coords: Float64Array, m: number, upper: boolean): number {
    const axis = this.axis[parent];
    const slot = this.slot(left, right, 1 - axis);
    const bounds = this.bounds;
    const from = parent * 4;
    const to = slot * 4;
    bounds[to] = bounds[from];
    bounds[to + 1] = bounds[from + 1];
    bounds[to + 2] = bounds[from + 2];
    bounds[to + 3] = bounds[from + 3];
    bounds[to + (upper ? 0 : 2) + axis] = coords[2 * m + axis];
    return slot;
  }

  private slot(left: number, right: number, axis: number): number {
    if (this.slots === this.left.length) this.grow();
    const slot = this.slots++;
    this.left[slot] = left;
    this.right[slot] = right;
    this.axis[slot] = axis;
    return slot;
  }

  private grow(): void {
    const size = this.left.length * 2;
    const left = new Int32Array(size);
    const right = new Int32Array(size);
    const axis = new Uint8Array(size);
    const bounds = new Float64Array(size * 4);
    left.set(this.left);
    right.set(this.right);
    axis.set(this.axis);
    bounds.set(this.bounds);
    Object.assign(this, { left, right, axis, bounds });
  }
}
