// The bounding box of the points of every node of a KDBush tree, by heap number (the root is 1, the children
// of node h are 2h and 2h + 1). The region a node's splits leave it can be far larger than its points: in
// a sparse place, a half reaching into an empty sea or desert. A search that bounds a node by its points
// rather than by its region skips such nodes instead of opening them.
import { sharedArray } from '../rules/shared-array.js';

/** Heap numbers of a tree over `count` points with leaves of at most `nodeSize + 1`: one past the largest. */
export function heapSize(count: number, nodeSize: number): number {
  let size = 2;
  // The upper half of a range is never smaller than the lower: follow it to the deepest leaf.
  for (let length = count; length - 1 > nodeSize; length -= (length + 1) >> 1) size *= 2;
  return size;
}

/**
 * minLon, minLat, maxLon, maxLat of each node's points at 4 × its heap number (`coords`: lon, lat pairs in
 * the index's order), in shared memory. An empty node's box is inverted (min +∞, max −∞).
 */
export function nodeBoxes(coords: Float64Array, nodeSize: number): Float64Array {
  const count = coords.length >> 1;
  const boxes = sharedArray(Float64Array, 4 * heapSize(count, nodeSize));
  const visit = (heap: number, left: number, right: number): void => {
    const at = 4 * heap;
    let [minLon, minLat, maxLon, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
    const add = (lon: number, lat: number) => {
      minLon = Math.min(minLon, lon);
      minLat = Math.min(minLat, lat);
      maxLon = Math.max(maxLon, lon);
      maxLat = Math.max(maxLat, lat);
    };
    if (right - left <= nodeSize) {
      for (let i = left; i <= right; i++) add(coords[2 * i], coords[2 * i + 1]);
    } else {
      const m = (left + right) >> 1;
      add(coords[2 * m], coords[2 * m + 1]);
      for (const [child, from, to] of [[2 * heap, left, m - 1], [2 * heap + 1, m + 1, right]]) {
        visit(child, from, to);
        if (from > to) continue;
        add(boxes[4 * child], boxes[4 * child + 1]);
        add(boxes[4 * child + 2], boxes[4 * child + 3]);
      }
    }
    boxes[at] = minLon;
    boxes[at + 1] = minLat;
    boxes[at + 2] = maxLon;
    boxes[at + 3] = maxLat;
  };
  visit(1, 0, count - 1);
  return boxes;
}
