// Points inside a lon/lat box, nearest (great-circle) to the box centre first, over a Flatbush index.
// Best-first traversal stops after `k` hits, so a dense box costs about k steps instead of a full sort.
import Flatbush from 'flatbush';
import { TripleQueue } from './queue.js';
import { haverSinChord, haverSinToBox, QueryPoint, unitVectors } from './great-circle.js';
import { keeps, PositionTags, positionsOf, type PointFilter } from './point-filter.js';

const POINT = -1;

interface FlatbushInternals {
  _boxes: Float64Array;
  _indices: Uint32Array | Uint16Array;
  _levelBounds: number[];
  nodeSize: number;
  numItems: number;
}

/** What a box search reads and never writes, made once per index in shared memory (see NearestIndex). */
export interface BoxIndex {
  readonly data: ArrayBufferLike;
  readonly xyz: Float64Array;
  /** Each row's position among Flatbush's leaf boxes (see positionsOf). */
  readonly positionOfRow: Uint32Array;
}

/** The shared parts of a search over a finished Flatbush index of points (made with SharedArrayBuffer to be shared). */
export function boxIndex(index: Flatbush): BoxIndex {
  const { _boxes: boxes, _indices: indices, numItems } = index as unknown as FlatbushInternals;
  // the leaf boxes of points, minX = maxX and minY = maxY, come first
  return { data: index.data, xyz: unitVectors(boxes, numItems, 4), positionOfRow: positionsOf(indices, numItems) };
}

/** A search over a BoxIndex; each thread has its own (queue and point tags). */
export class BoxSearch {
  private readonly queue = new TripleQueue();
  /** Unit vectors of the points in the order of Flatbush's leaf boxes (see unitVectors), and the query's. */
  private readonly xyz: Float64Array;
  private readonly index: Flatbush;
  private readonly point = new QueryPoint();
  /** The query box: west, south, east, north. */
  private readonly box = new Float64Array(4);

  /** The points' tags in the order of Flatbush's leaf boxes (see PointFilter). */
  private readonly tags: PositionTags;

  /** `rowTags`: each row's tag byte (see point-filter.ts); none: all zero. */
  constructor(index: BoxIndex, rowTags?: Uint8Array) {
    this.index = Flatbush.from(index.data);
    this.xyz = index.xyz;
    this.tags = new PositionTags(index.positionOfRow, rowTags);
  }

  /** A row's tag changed. */
  setTag(row: number, tag: number): void {
    this.tags.set(row, tag);
  }

  /** Writes up to `k` rows that `filter` keeps inside [west, south, east, north] into `rows`, nearest to the centre first. */
  search(west: number, south: number, east: number, north: number, k: number, filter: PointFilter, rows: Int32Array): number {
    const { _boxes: boxes, _levelBounds: levelBounds, numItems } = this.index as unknown as FlatbushInternals;
    if (numItems === 0 || k <= 0) return 0;
    this.point.set((west + east) / 2, (south + north) / 2);
    const box = this.box;
    box[0] = west;
    box[1] = south;
    box[2] = east;
    box[3] = north;
    const queue = this.queue;
    queue.clear();
    let found = 0;
    let nodeIndex = boxes.length - 4;
    let level = levelBounds.length - 1;
    for (;;) {
      if (level === 0) this.queuePoints(nodeIndex, filter);
      else this.queueNodes(nodeIndex, level);
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

  // The steps take whole numbers only (the query box is in `box`), so that V8 inlines their arithmetic
  // instead of boxing doubles (see nearest.ts).

  /** Queues the children of an inner node that meet the query box, by their bound. */
  private queueNodes(nodeIndex: number, level: number): void {
    const { _boxes: boxes, _indices: indices, _levelBounds: levelBounds, nodeSize } = this.index as unknown as FlatbushInternals;
    const box = this.box;
    const [west, south, east, north] = [box[0], box[1], box[2], box[3]];
    const origin = this.point.origin;
    const end = Math.min(nodeIndex + nodeSize * 4, levelBounds[level]);
    for (let pos = nodeIndex; pos < end; pos += 4) {
      if (east < boxes[pos] || north < boxes[pos + 1] || west > boxes[pos + 2] || south > boxes[pos + 3]) continue;
      this.queue.push(haverSinToBox(origin, boxes, pos), indices[pos >> 2], level - 1);
    }
  }

  /** Queues the points of a leaf that lie in the query box and that the filter keeps. */
  private queuePoints(nodeIndex: number, filter: PointFilter): void {
    const { _boxes: boxes, _indices: indices, _levelBounds: levelBounds, nodeSize } = this.index as unknown as FlatbushInternals;
    const box = this.box;
    const [west, south, east, north] = [box[0], box[1], box[2], box[3]];
    const q = this.point.xyz;
    const xyz = this.xyz;
    const tags = this.tags.tags;
    const end = Math.min(nodeIndex + nodeSize * 4, levelBounds[0]);
    for (let pos = nodeIndex; pos < end; pos += 4) {
      const lon = boxes[pos];
      const lat = boxes[pos + 1];
      if (east < lon || north < lat || west > lon || south > lat) continue;
      const point = pos >> 2;
      const row = indices[point];
      if (!keeps(filter, tags[point], row)) continue;
      this.queue.push(haverSinChord(q, xyz, 3 * point), POINT, row);
    }
  }
}
