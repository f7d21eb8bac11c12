// Points inside a lon/lat box, nearest (great-circle) to the box centre first, over a Flatbush index.
// Best-first traversal stops after `k` hits, so a dense box costs about k steps instead of a full sort.
import type Flatbush from 'flatbush';
import { TripleQueue } from './queue.js';
import { haverSinChord, haverSinToBox, QueryPoint, unitVectors } from './great-circle.js';
import { keeps, PositionTags, type PointFilter } from './point-filter.js';

const POINT = -1;

interface FlatbushInternals {
  _boxes: Float64Array;
  _indices: Uint32Array | Uint16Array;
  _levelBounds: number[];
  nodeSize: number;
  numItems: number;
}

export class BoxSearch {
  private readonly queue = new TripleQueue();
  /** Unit vectors of the points in the order of Flatbush's leaf boxes (see unitVectors), and the query's. */
  private readonly xyz: Float64Array;
  private readonly point = new QueryPoint();

  /** The points' tags in the order of Flatbush's leaf boxes (see PointFilter). */
  private readonly tags: PositionTags;

  /** `rowTags`: each row's tag byte (see point-filter.ts); none: all zero. */
  constructor(
    private readonly index: Flatbush,
    rowTags?: Uint8Array,
  ) {
    const { _boxes: boxes, _indices: indices, numItems } = index as unknown as FlatbushInternals;
    this.tags = new PositionTags(indices, numItems, rowTags);
    const points = new Float64Array(numItems * 2);
    for (let p = 0; p < numItems; p++) {
      points[2 * p] = boxes[4 * p];
      points[2 * p + 1] = boxes[4 * p + 1];
    }
    this.xyz = unitVectors(points);
  }

  /** A row's tag changed. */
  setTag(row: number, tag: number): void {
    this.tags.set(row, tag);
  }

  /** Writes up to `k` rows that `filter` keeps inside [west, south, east, north] into `rows`, nearest to the centre first. */
  search(west: number, south: number, east: number, north: number, k: number, filter: PointFilter, rows: Int32Array): number {
    const { _boxes: boxes, _indices: indices, _levelBounds: levelBounds, nodeSize, numItems } = this.index as unknown as FlatbushInternals;
    if (numItems === 0 || k <= 0) return 0;
    const lon = (west + east) / 2;
    const lat = (south + north) / 2;
    this.point.set(lon, lat);
    const { xyz: q, origin } = this.point;
    const xyz = this.xyz;
    const numItems4 = numItems * 4;
    const queue = this.queue;
    const tags = this.tags.tags;
    queue.clear();
    let found = 0;
    let nodeIndex = boxes.length - 4;
    let level = levelBounds.length - 1;
    for (;;) {
      const end = Math.min(nodeIndex + nodeSize * 4, levelBounds[level]);
      for (let pos = nodeIndex; pos < end; pos += 4) {
        const x0 = boxes[pos];
        const y0 = boxes[pos + 1];
        const x1 = boxes[pos + 2];
        const y1 = boxes[pos + 3];
        if (east < x0 || north < y0 || west > x1 || south > y1) continue;
        const index = indices[pos >> 2];
        if (pos >= numItems4) {
          queue.push(haverSinToBox(origin, boxes, pos), index, level - 1);
        } else if (keeps(filter, tags[pos >> 2], index)) {
          queue.push(haverSinChord(q, xyz, pos >> 2), POINT, index);
        }
      }
      while (queue.length > 0 && queue.peekA() === POINT) {
        rows[found] = queue.peekB();
        queue.pop();
        if (++found === k) return found;
      }
      if (queue.length === 0) return found;
      nodeIndex = queue.peekA();
      level = queue.peekB();
      queue.pop();
    }
  }
}
