// Metric offsets around a point on the WGS84 sphere, and the small shapes the generator draws (buildings,
// toilet blocks, parks, street polylines). Everything is local (metres to a few km), so an equirectangular
// approximation is plenty.
import type { Random } from './random.js';

export interface Point {
  lat: number;
  lon: number;
}

const METRES_PER_DEGREE = 111_320;
/** Keeps generated points off the poles, where a metre east is an unbounded change of longitude. */
const MAX_LATITUDE = 85;

/** The point `east` and `north` metres from `origin`, with latitude clamped and longitude wrapped into [-180, 180). */
export function offset(origin: Point, east: number, north: number): Point {
  const lat = Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, origin.lat + north / METRES_PER_DEGREE));
  return { lat, lon: wrapLongitude(origin.lon + east / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180))) };
}

function wrapLongitude(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** A point around `centre` with a 2-D normal spread of `sigma` metres per axis. */
export function scatter(random: Random, centre: Point, sigma: number): Point {
  const radius = sigma * Math.sqrt(-2 * Math.log(1 - random.next()));
  return polar(centre, radius, random.between(0, 2 * Math.PI));
}

/** A point at `minRadius`..`maxRadius` metres from `centre` in a random direction (rural noise). */
export function ring(random: Random, centre: Point, minRadius: number, maxRadius: number): Point {
  return polar(centre, random.between(minRadius, maxRadius), random.between(0, 2 * Math.PI));
}

function polar(centre: Point, radius: number, angle: number): Point {
  return offset(centre, radius * Math.cos(angle), radius * Math.sin(angle));
}

/** The four corners, counter-clockwise, of a `width` × `depth` metre rectangle centred on `centre` and turned by a random angle. */
export function rectangle(random: Random, centre: Point, width: number, depth: number): Point[] {
  const angle = random.between(0, Math.PI);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const corners: [number, number][] = [[-width / 2, -depth / 2], [width / 2, -depth / 2], [width / 2, depth / 2], [-width / 2, depth / 2]];
  return corners.map(([x, y]) => offset(centre, x * cos - y * sin, x * sin + y * cos));
}

/** A simple (star-shaped) polygon of `vertices` corners at 70–100 % of `radius` metres, counter-clockwise. */
export function blob(random: Random, centre: Point, radius: number, vertices: number): Point[] {
  const start = random.between(0, 2 * Math.PI);
  const points: Point[] = [];
  for (let i = 0; i < vertices; i++) points.push(polar(centre, radius * random.between(0.7, 1), start + (2 * Math.PI * i) / vertices));
  return points;
}

/** `vertices` points of a gently bending line from `start`, `step` metres apart. */
export function polyline(random: Random, start: Point, step: number, vertices: number): Point[] {
  let heading = random.between(0, 2 * Math.PI);
  let at = start;
  const points = [at];
  for (let i = 1; i < vertices; i++) {
    heading += random.between(-0.3, 0.3);
    at = polar(at, step * random.between(0.6, 1.4), heading);
    points.push(at);
  }
  return points;
}

/** The point halfway between `a` and `b` along the shorter way round (a shape may straddle the antimeridian). */
export function midpoint(a: Point, b: Point): Point {
  return { lat: (a.lat + b.lat) / 2, lon: wrapLongitude(a.lon + wrapLongitude(b.lon - a.lon) / 2) };
}
