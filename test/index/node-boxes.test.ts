import test from 'node:test';
import assert from 'node:assert/strict';
import KDBush from 'kdbush';
import { heapSize, nodeBoxes } from '../../src/index/node-boxes.js';
import { seededRandom } from '../support/random.js';

/** Each node of the tree over `coords` as KDBush splits it: heap number and position range. */
function nodesOf(count: number, nodeSize: number): [heap: number, left: number, right: number][] {
  const nodes: [number, number, number][] = [];
  const visit = (heap: number, left: number, right: number) => {
    nodes.push([heap, left, right]);
    if (right - left <= nodeSize) return;
    const m = (left + right) >> 1;
    visit(2 * heap, left, m - 1);
    visit(2 * heap + 1, m + 1, right);
  };
  visit(1, 0, count - 1);
  return nodes;
}

test('every kd-tree node gets the exact box of the points in its range', () => {
  for (const [count, nodeSize] of [[0, 16], [1, 16], [17, 16], [18, 16], [1000, 16], [4097, 4], [65_536, 16]]) {
    const random = seededRandom(count + 1);
    const kd = new KDBush(count, nodeSize, Float64Array);
    for (let i = 0; i < count; i++) kd.add(random() * 360 - 180, random() * 180 - 90);
    kd.finish();
    const coords = kd.coords as Float64Array;
    const boxes = nodeBoxes(coords, nodeSize);
    const size = heapSize(count, nodeSize);
    assert.equal(boxes.length, 4 * size);
    for (const [heap, left, right] of nodesOf(count, nodeSize)) {
      assert.ok(heap < size, `node ${heap} of ${count} points fits in ${size} heap numbers`);
      const expected = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = left; i <= right; i++) {
        expected[0] = Math.min(expected[0], coords[2 * i]);
        expected[1] = Math.min(expected[1], coords[2 * i + 1]);
        expected[2] = Math.max(expected[2], coords[2 * i]);
        expected[3] = Math.max(expected[3], coords[2 * i + 1]);
      }
      assert.deepEqual([...boxes.subarray(4 * heap, 4 * heap + 4)], expected, `node ${heap} [${left}, ${right}] of ${count} points`);
    }
  }
});
