// Spreads the site map's markers (web/src/map.ts) so that each can be told apart and tapped: toilets at
// one spot or a few metres apart (two rows of one building, the map zoomed out) would draw one marker over
// another. Markers closer than `gap` pixels on screen are pushed apart, pair by pair, a few rounds until
// none overlaps: each moves only as far as it must, and the map draws a leg back to its true position.
// Pure screen geometry (no MapLibre, no DOM), shared with the tests; at most a few hundred markers a view.

export interface ScreenPoint {
  x: number;
  y: number;
}

/** Rounds of pushing apart: a group of 30 markers at one spot settles in about 20. */
const MAX_ROUNDS = 200;
/** How much of the way back to its true position a marker goes in each of the first PULL_ROUNDS rounds. */
const PULL = 0.15;
const PULL_ROUNDS = 30;
/** Markers at exactly one spot part along their own angle (the golden angle times their index), never at random. */
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** Where to draw each of `points` (same order) so that no two are closer than `gap` (when rounds allow). */
export function spreadPoints(points: readonly ScreenPoint[], gap: number): ScreenPoint[] {
  const x = Float64Array.from(points, (p) => p.x);
  const y = Float64Array.from(points, (p) => p.y);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let moved = false;
    for (let i = 0; i < x.length; i++) {
      for (let j = i + 1; j < x.length; j++) {
        let dx = x[j] - x[i];
        let dy = y[j] - y[i];
        let distance = Math.hypot(dx, dy);
        if (distance >= gap) continue;
        if (distance < 1e-6) {
          dx = Math.cos(j * GOLDEN_ANGLE);
          dy = Math.sin(j * GOLDEN_ANGLE);
          distance = 1;
        } else {
          dx /= distance;
          dy /= distance;
        }
        // each goes half the way, a little further so that the round ends apart, not just touching
        const push = (gap - distance) / 2 + 0.01;
        x[i] -= dx * push;
        y[i] -= dy * push;
        x[j] += dx * push;
        y[j] += dy * push;
        moved = true;
      }
    }
    if (!moved) break;
    // in the first rounds each is drawn back a little towards its true position: a group packs round its spot
    if (round < PULL_ROUNDS) {
      for (let i = 0; i < x.length; i++) {
        x[i] += (points[i].x - x[i]) * PULL;
        y[i] += (points[i].y - y[i]) * PULL;
      }
    }
  }
  return points.map((_, i) => ({ x: x[i], y: y[i] }));
}
