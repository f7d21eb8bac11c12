// Great-circle arithmetic in "haversine" units (h = sin²(θ/2)), which order like distances and avoid
// asin/sqrt until a result is reported. Lower bounds to boxes follow geokdbush (ISC, Vladimir Agafonkin).
import { EARTH_RADIUS_M } from '../geo/sphere.js';
import { sharedArray } from '../rules/shared-array.js';

export const RAD = Math.PI / 180;

export function haverSin(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}

/**
 * Unit vectors of `count` points, lon then lat every `stride` numbers of `coords` (x, y pairs; Flatbush's
 * point boxes are fours), in an index's point order: the haversine value between two points is a quarter
 * of the squared chord between their unit vectors (sin²(θ/2) = (c/2)²), so ranking a candidate needs no
 * trigonometry at all. In shared memory, for every server thread.
 */
export function unitVectors(coords: Float64Array, count = coords.length >> 1, stride = 2): Float64Array {
  const xyz = sharedArray(Float64Array, count * 3);
  for (let i = 0, j = 0; j < count * 3; i += stride, j += 3) {
    const lon = coords[i] * RAD;
    const lat = coords[i + 1] * RAD;
    const cosLat = Math.cos(lat);
    xyz[j] = cosLat * Math.cos(lon);
    xyz[j + 1] = cosLat * Math.sin(lon);
    xyz[j + 2] = Math.sin(lat);
  }
  return xyz;
}

/** A search's query point in the two forms the distance functions take; set once per search. */
export class QueryPoint {
  /** Unit vector: the haversine value to a point is a quarter of the squared chord between their unit vectors. */
  readonly xyz = new Float64Array(3);
  /** lon, lat, cos(lat), for haverSinToBox. */
  readonly origin = new Float64Array(3);

  /** `lon` may lie outside ±180° (it is wrapped: the box bounds compare it with boxes inside ±180°). */
  set(lon: number, lat: number): void {
    if (lon < -180 || lon > 180) lon = ((((lon + 180) % 360) + 360) % 360) - 180;
    const cosLat = Math.cos(lat * RAD);
    this.xyz[0] = cosLat * Math.cos(lon * RAD);
    this.xyz[1] = cosLat * Math.sin(lon * RAD);
    this.xyz[2] = Math.sin(lat * RAD);
    this.origin[0] = lon;
    this.origin[1] = lat;
    this.origin[2] = cosLat;
  }
}

/**
 * Haversine value between the query's unit vector `q` and the unit vector at `xyz[at]`. Small enough
 * for V8 to inline into the searches' steps, so the double it returns is never boxed.
 */
export function haverSinChord(q: Float64Array, xyz: Float64Array, at: number): number {
  const dx = xyz[at] - q[0];
  const dy = xyz[at + 1] - q[1];
  const dz = xyz[at + 2] - q[2];
  return (dx * dx + dy * dy + dz * dz) / 4;
}

export function haverSinToMeters(h: number): number {
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(Math.min(1, h)));
}

export function metersToHaverSin(meters: number): number {
  return meters >= Math.PI * EARTH_RADIUS_M ? 1 : haverSin(meters / EARTH_RADIUS_M);
}

/**
 * Lower bound of the haversine value from a point to any point of a lon/lat box. The point is
 * `origin` = [lon, lat, cos(lat)] and the box `boxes[at .. at + 3]` = minLon, minLat, maxLon, maxLat: arrays
 * rather than seven numbers, and one flat body, because a double passed to or returned from a call V8 does
 * not inline is boxed, one allocation each, and the searches call this for every node they queue.
 *
 * The haversine formula h = hav(Δlat) + cos(lat)·cos(lat₂)·hav(Δlon) is bounded term by term: the least
 * latitude and longitude gaps to the box, and the least cos(lat₂) on it (at its latitude farthest from the
 * equator). Sine and cosine are bounded below by their Taylor polynomials, so no trigonometry is called:
 * a dense box search took a third less time. For the small boxes a search ranks, the bound is within a
 * few per cent of the exact least distance; a looser bound only opens a node sooner, never changes a result.
 */
export function haverSinToBox(origin: Float64Array, boxes: Float64Array, at: number): number {
  const lon = origin[0];
  const lat = origin[1];
  const minLon = boxes[at];
  const minLat = boxes[at + 1];
  const maxLon = boxes[at + 2];
  const maxLat = boxes[at + 3];
  const latGap = (lat < minLat ? minLat - lat : lat > maxLat ? lat - maxLat : 0) * RAD;
  const h = haverSinLowerBound(latGap);
  // The shorter way round to the box's nearer meridian edge, at most 180°.
  let lonGap = 0;
  if (lon < minLon) lonGap = Math.min(minLon - lon, lon - maxLon + 360);
  else if (lon > maxLon) lonGap = Math.min(lon - maxLon, minLon - lon + 360);
  if (lonGap === 0) return h;
  const farthestLat = Math.max(Math.abs(minLat), Math.abs(maxLat)) * RAD;
  return h + origin[2] * cosLowerBound(farthestLat) * haverSinLowerBound(lonGap * RAD);
}

/** At most hav(θ), for 0 ≤ θ ≤ π: sin(y) ≥ y − y³/6 ≥ 0 for 0 ≤ y = θ/2 ≤ π/2. */
function haverSinLowerBound(theta: number): number {
  const y = theta / 2;
  const s = y - (y * y * y) / 6;
  return s * s;
}

/** At most cos(x), for 0 ≤ x ≤ π/2 (its series cut after a negative term), and never below 0. */
function cosLowerBound(x: number): number {
  const x2 = x * x;
  return Math.max(0, 1 - x2 / 2 + (x2 * x2) / 24 - (x2 * x2 * x2) / 720);
}
