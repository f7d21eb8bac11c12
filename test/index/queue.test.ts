import test from 'node:test';
import assert from 'node:assert/strict';
import { TripleQueue } from '../../src/index/queue.js';
import { seededRandom } from '../support/random.js';

test('the queue gives entries back in priority order, with their members, across growth and interleaved pushes', () => {
  const random = seededRandom(12345);
  const queue = new TripleQueue(4);
  const mirror: [number, number, number][] = [];
  for (let round = 0; round < 2000; round++) {
    const pushes = Math.floor(random() * 6);
    for (let i = 0; i < pushes; i++) {
      // few distinct priorities, so ties occur
      const entry: [number, number, number] = [Math.floor(random() * 50) / 7, round, i];
      queue.push(...entry);
      mirror.push(entry);
    }
    const pops = Math.floor(random() * 5);
    for (let i = 0; i < pops && queue.length > 0; i++) {
      const least = Math.min(...mirror.map((e) => e[0]));
      assert.equal(queue.peekPriority(), least);
      const at = mirror.findIndex((e) => e[0] === least && e[1] === queue.peekA() && e[2] === queue.peekB());
      assert.ok(at >= 0, 'the top entry keeps its members');
      mirror.splice(at, 1);
      queue.pop();
      assert.equal(queue.length, mirror.length);
    }
  }
  queue.clear();
  assert.equal(queue.length, 0);
});
