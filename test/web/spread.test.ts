// The map's markers spread apart (src/web/spread.ts): toilets at one spot, or closer on screen than a
// marker, end at least the gap apart, each as near its true position as the others allow; markers that
// are apart already stay where they are.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spreadPoints, type ScreenPoint } from '../../src/web/spread.js';

const GAP = 28;

function closest(points: readonly ScreenPoint[]): number {
  let least = Infinity;
  for (let i = 0; i < points.length; i++) for (let j = i + 1; j < points.length; j++) least = Math.min(least, Math.hypot(points[i].x - points[j].x, points[i].y - points[j].y));
  return least;
}

test('thirty toilets at one spot part into a rosette the gap apart, round that spot', () => {
  const spot = Array.from({ length: 30 }, () => ({ x: 200, y: 300 }));
  const spread = spreadPoints(spot, GAP);
  assert.ok(closest(spread) >= GAP, `closest ${closest(spread)}`);
  const far = Math.max(...spread.map((p) => Math.hypot(p.x - 200, p.y - 300)));
  assert.ok(far <= 4 * GAP, `the farthest is ${far} px from the spot`);
  assert.deepEqual(spreadPoints(spot, GAP), spread, 'the same markers spread the same way every time');
});

test('two markers 10 px apart move apart along their line, each half the way', () => {
  const [a, b] = spreadPoints([{ x: 100, y: 100 }, { x: 110, y: 100 }], GAP);
  assert.ok(Math.abs(a.y - 100) < 1e-9 && Math.abs(b.y - 100) < 1e-9);
  assert.ok(b.x - a.x >= GAP && b.x - a.x < GAP + 0.1);
  assert.ok(Math.abs(a.x + b.x - 210) < 1e-9, 'round their middle');
});

test('a chain of close markers and a far one: the chain spreads, the far one stays', () => {
  const points = [...Array.from({ length: 8 }, (_, i) => ({ x: 50 + i * 5, y: 50 })), { x: 400, y: 400 }];
  const spread = spreadPoints(points, GAP);
  assert.ok(closest(spread) >= GAP);
  assert.deepEqual(spread[8], { x: 400, y: 400 });
});

test('markers the gap apart already are left where they are', () => {
  const points = [{ x: 0, y: 0 }, { x: GAP, y: 0 }, { x: 0, y: GAP + 5 }];
  assert.deepEqual(spreadPoints(points, GAP), points);
});
