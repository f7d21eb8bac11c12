// Memoises answers that depend only on which country-coder polygon contains a point, per grid cell that no
// border crosses. country-coder finds that polygon by ray casting over its borders (~3 µs a lookup); an
// import asks for millions of points, mostly in cells far from any border, where every point has the same
// answer as the first one asked. Cells a border runs through (or comes within MARGIN of) are never cached,
// so answers are exactly those of the uncached function.
import { borders } from '@rapideditor/country-coder';

/** A power of two, so cell edges are exact binary fractions of a degree (1/4° ≈ 28 km). */
const CELLS_PER_DEGREE = 4;
/** Segments are bucketed per whole degree; a cell's segments are in the bucket holding it. */
const BUCKETS_PER_ROW = 361;
/**
 * Distance in degrees (~0.1 mm) within which a border counts as crossing a cell: points that far from every
 * segment are classified the same by the ray casting however its floating-point rounding falls.
 */
const MARGIN = 1e-9;
/** Cells near a border are split again into FINE × FINE cells (1/128° ≈ 870 m). */
const FINE = 32;
/** Bounds memory on planet-sized imports (~50 bytes a cell). */
const MAX_CELLS = 1 << 20;

type Position = number[];

/** Border segments as x1, y1, x2, y2 runs, by 1° bucket (lon, lat of the south-west corner). */
function bucketSegments(): Map<number, Float64Array> {
  const lists = new Map<number, number[]>();
  const add = (a: Position, b: Position) => {
    for (let y = Math.floor(Math.min(a[1], b[1]) - MARGIN), top = Math.floor(Math.max(a[1], b[1]) + MARGIN); y <= top; y++) {
      for (let x = Math.floor(Math.min(a[0], b[0]) - MARGIN), right = Math.floor(Math.max(a[0], b[0]) + MARGIN); x <= right; x++) {
        const key = bucketKey(x, y);
        let list = lists.get(key);
        if (!list) lists.set(key, (list = []));
        list.push(a[0], a[1], b[0], b[1]);
      }
    }
  };
  for (const feature of borders.features) {
    const geometry = feature.geometry as { type: string; coordinates: unknown } | null;
    if (!geometry) continue;
    const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates) as Position[][][];
    for (const polygon of polygons) {
      for (const ring of polygon) {
        // Every consecutive pair and the closing pair, as the ray casting walks them.
        for (let j = 0, k = ring.length - 1; j < ring.length; k = j++) add(ring[k], ring[j]);
      }
    }
  }
  return new Map([...lists].map(([key, list]) => [key, Float64Array.from(list)]));
}

function bucketKey(x: number, y: number): number {
  return (y + 90) * BUCKETS_PER_ROW + (x + 180);
}

const CROSSED = Symbol('crossed');
let segmentsByBucket: Map<number, Float64Array> | null = null;

/** A coarse cell a border crosses: the segments near it, and answers per fine cell within it. */
class CrossedCell<T> {
  readonly fine = new Map<number, T | typeof CROSSED>();
  constructor(readonly segments: Float64Array) {}
}

export class BorderCells<T> {
  private readonly cells = new Map<number, T | CrossedCell<T>>();

  /** `compute` must depend on the point only through the country-coder polygon containing it. */
  constructor(private readonly compute: (lat: number, lon: number) => T) {}

  get(lat: number, lon: number): T {
    if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) return this.compute(lat, lon);
    const cellX = Math.floor(lon * CELLS_PER_DEGREE);
    const cellY = Math.floor(lat * CELLS_PER_DEGREE);
    const key = (cellY + 90 * CELLS_PER_DEGREE) * (361 * CELLS_PER_DEGREE) + (cellX + 180 * CELLS_PER_DEGREE);
    let cell = this.cells.get(key);
    if (cell === undefined) {
      const answer = this.compute(lat, lon);
      const near = nearSegments(bucketOf(cellX, cellY), cellX, cellY, CELLS_PER_DEGREE);
      if (this.cells.size >= MAX_CELLS) this.cells.clear();
      if (near === null) {
        this.cells.set(key, answer);
        return answer;
      }
      cell = new CrossedCell<T>(near);
      this.cells.set(key, cell);
    }
    if (!(cell instanceof CrossedCell)) return cell;
    // Near a border: the same again on cells FINE times smaller, within this one.
    const fineX = Math.floor(lon * CELLS_PER_DEGREE * FINE);
    const fineY = Math.floor(lat * CELLS_PER_DEGREE * FINE);
    const fineKey = (fineY - cellY * FINE) * FINE + (fineX - cellX * FINE);
    const known = cell.fine.get(fineKey);
    if (known === CROSSED) return this.compute(lat, lon);
    if (known !== undefined) return known;
    const answer = this.compute(lat, lon);
    cell.fine.set(fineKey, nearSegments(cell.segments, fineX, fineY, CELLS_PER_DEGREE * FINE) === null ? answer : CROSSED);
    return answer;
  }
}

function bucketOf(cellX: number, cellY: number): Float64Array | undefined {
  segmentsByBucket ??= bucketSegments();
  return segmentsByBucket.get(bucketKey(Math.floor(cellX / CELLS_PER_DEGREE), Math.floor(cellY / CELLS_PER_DEGREE)));
}

/**
 * The segments among `segments` that come within about MARGIN of cell (cellX, cellY) of a grid with
 * `perDegree` cells a degree, or null when there are none.
 */
function nearSegments(segments: Float64Array | undefined, cellX: number, cellY: number, perDegree: number): Float64Array | null {
  if (!segments) return null;
  const west = cellX / perDegree - MARGIN;
  const east = (cellX + 1) / perDegree + MARGIN;
  const south = cellY / perDegree - MARGIN;
  const north = (cellY + 1) / perDegree + MARGIN;
  let near: number[] | null = null;
  for (let i = 0; i < segments.length; i += 4) {
    const x1 = segments[i];
    const y1 = segments[i + 1];
    const x2 = segments[i + 2];
    const y2 = segments[i + 3];
    const boxesOverlap = (x1 < x2 ? x2 : x1) >= west && (x1 < x2 ? x1 : x2) <= east && (y1 < y2 ? y2 : y1) >= south && (y1 < y2 ? y1 : y2) <= north;
    if (boxesOverlap && !cornersOnOneSide(x1, y1, x2, y2, west, east, south, north)) (near ??= []).push(x1, y1, x2, y2);
  }
  return near === null ? null : Float64Array.from(near);
}

/** Whether all four corners of the box lie strictly on the same side of the segment's line (it misses the box). */
function cornersOnOneSide(x1: number, y1: number, x2: number, y2: number, west: number, east: number, south: number, north: number): boolean {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const sw = dx * (south - y1) - dy * (west - x1);
  const se = dx * (south - y1) - dy * (east - x1);
  const nw = dx * (north - y1) - dy * (west - x1);
  const ne = dx * (north - y1) - dy * (east - x1);
  return (sw > 0 && se > 0 && nw > 0 && ne > 0) || (sw < 0 && se < 0 && nw < 0 && ne < 0);
}
