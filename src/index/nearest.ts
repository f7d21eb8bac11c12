// Nearest-k by great-circle distance over a KDBush index, best-first like geokdbush's `around`, but with
// typed-array queues reused across calls so a query allocates nothing.
import type KDBush from 'kdbush';
import { TripleQueue } from './queue.js';
import { haverSinChord, haverSinToBox, unitVectorOf, unitVectors } from './great-circle.js';
import { keeps, PositionTags, type PointFilter } from './point-filter.js';

const RAD = Math.PI / 180;
const POINT = -1;

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
  private readonly query = new Float64Array(3);

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
    const cosLat = Math.cos(lat * RAD);
    const q = this.query;
    const xyz = this.xyz;
    unitVectorOf(lon, lat, q);
    let found = 0;
    if (ids.length === 0 || k <= 0) return 0;
    queue.clear();
    this.slots = 0;
    let node = this.node(0, ids.length - 1, 0, -180, -90, 180, 90);
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
        const midLon = coords[2 * m];
        const midLat = coords[2 * m + 1];
        const row = ids[m];
        if (keeps(filter, tags[m], row)) queue.push(haverSinChord(q, xyz, m), POINT, row);
        const axis = this.axis[node];
        const b = node * 4;
        // Plain locals: a destructured array literal here allocated an array and four boxed doubles per node.
        const minLon = this.bounds[b];
        const minLat = this.bounds[b + 1];
        const maxLon = this.bounds[b + 2];
        const maxLat = this.bounds[b + 3];
        const lower = this.node(left, m - 1, 1 - axis, minLon, minLat, axis === 0 ? midLon : maxLon, axis === 1 ? midLat : maxLat);
        const upper = this.node(m + 1, right, 1 - axis, axis === 0 ? midLon : minLon, axis === 1 ? midLat : minLat, maxLon, maxLat);
        this.pushNode(lower, lon, lat, cosLat);
        this.pushNode(upper, lon, lat, cosLat);
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

  private pushNode(slot: number, lon: number, lat: number, cosLat: number): void {
    if (this.left[slot] > this.right[slot]) return; // empty half
    const b = slot * 4;
    const bounds = this.bounds;
    this.queue.push(haverSinToBox(lon, lat, cosLat, bounds[b], bounds[b + 1], bounds[b + 2], bounds[b + 3]), slot, 0);
  }

  private node(left: number, right: number, axis: number, minLon: number, minLat: number, maxLon: number, maxLat: number): number {
    if (this.slots === this.left.length) this.grow();
    const slot = this.slots++;
    this.left[slot] = left;
    this.right[slot] = right;
    this.axis[slot] = axis;
    const b = slot * 4;
    this.bounds[b] = minLon;
    this.bounds[b + 1] = minLat;
    this.bounds[b + 2] = maxLon;
    this.bounds[b + 3] = maxLat;
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
