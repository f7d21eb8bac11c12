// Representative points for ways and multipolygons. Positions are what a person walks to, so a tagged
// entrance wins; otherwise a point guaranteed inside the outline.
import polylabel from 'polylabel';

export type Point = [lon: number, lat: number];
export type Ring = Point[];

/** Joins way segments (lists of node ids) into closed rings by their shared end nodes; open leftovers are dropped. */
export function assembleRings(segments: number[][]): number[][] {
  const pending = segments.filter((s) => s.length >= 2).map((s) => s.slice());
  const rings: number[][] = [];
  while (pending.length > 0) {
    let ring = pending.pop()!;
    let grew = true;
    while (ring[0] !== ring[ring.length - 1] && grew) {
      grew = false;
      const end = ring[ring.length - 1];
      for (let i = 0; i < pending.length; i++) {
        const s = pending[i];
        if (s[0] === end) ring = ring.concat(s.slice(1));
        else if (s[s.length - 1] === end) ring = ring.concat(s.slice(0, -1).reverse());
        else continue;
        pending.splice(i, 1);
        grew = true;
        break;
      }
    }
    if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) rings.push(ring);
  }
  return rings;
}

export function pointInRing(lon: number, lat: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Area-weighted centroid of a ring (planar in degrees: fine at the size of a building or park). Computed
 * relative to the first vertex: with absolute coordinates the cross products (~350 at 41°N 8°W) cancel
 * down to a building's area (~1e-8) and the result drifts by about a metre.
 */
function ringCentroid(ring: Ring): Point {
  const [x0, y0] = ring[0];
  let area = 0;
  let x = 0;
  let y = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xi = ring[i][0] - x0;
    const yi = ring[i][1] - y0;
    const xj = ring[j][0] - x0;
    const yj = ring[j][1] - y0;
    const f = xj * yi - xi * yj;
    area += f;
    x += (xj + xi) * f;
    y += (yj + yi) * f;
  }
  if (area === 0) return ring[0];
  return [x0 + x / (3 * area), y0 + y / (3 * area)];
}

/** A point inside the largest outer ring: its centroid when that is inside, else the pole of inaccessibility. */
export function interiorPoint(outers: Ring[]): Point | null {
  if (outers.length === 0) return null;
  let largest = outers[0];
  let largestArea = 0;
  for (const ring of outers) {
    const a = Math.abs(signedArea(ring));
    if (a > largestArea) {
      largestArea = a;
      largest = ring;
    }
  }
  if (largestArea === 0) return largest[0];
  const centroid = ringCentroid(largest);
  if (pointInRing(centroid[0], centroid[1], largest)) return centroid;
  const [lon, lat] = polylabel([largest], 1e-6);
  return [lon, lat];
}

function signedArea(ring: Ring): number {
  const [x0, y0] = ring[0];
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - x0) * (ring[i][1] - y0) - (ring[i][0] - x0) * (ring[j][1] - y0);
  return sum / 2;
}

export function roundCoordinate(value: number): number {
  return Math.round(value * 1e7) / 1e7;
}
