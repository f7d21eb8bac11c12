// The overview of the whole coverage for zoomed-out maps (issue 43): the area API answers boxes of at
// most 0.2° and 200 toilets, so a map of a region draws counts instead. Per zoom level 0..MAX_ZOOM the
// toilets are counted in a grid of CELL_PIXELS-wide cells (Web Mercator; zoom levels as MapLibre GL counts
// them, 512 pixels round the world at level 0); each cell is one [lon, lat, count] at the mean position of
// its toilets, snapped to an eighth of the cell, so even a cell of one toilet never gives its
// full-precision position (at MAX_ZOOM the snap is about 100 m). Each level is split into tiles (the
// 512-pixel squares of its zoom, each cell in the tile of its snapped position), so a map asks only for
// the part it shows. Built once per data version and change of the toilets marked gone, never per request:
// the deepest level from the toilets, each level above from the one below (a cell is exactly two by two
// cells of the next level).
import type { ToiletTable } from '../toilets/table.js';
import { Trait } from '../toilets/table.js';

/** The deepest overview level; further in, the site lists the toilets themselves (area API, nearest search). */
export const MAX_ZOOM = 12;
/** A cell's side in screen pixels at its zoom level: about one marker and its gap. */
const CELL_PIXELS = 48;
/** The world's width in pixels at level 0. */
const WORLD_PIXELS = 512;
/** A cell's centre of mass is snapped to this fraction of its side. */
const SNAP_FRACTION = 8;
/** Web Mercator's latitude limit. */
const MAX_LAT = 85.0511;

/** One cell: [lon, lat, count]. */
export type Cell = [number, number, number];
/** One level: its tiles by `x/y`, each with its cells, the most toilets first. */
export type OverviewLevel = Map<string, Cell[]>;

/** Sums of one level's cells (mercator x and y, 0..1): parallel arrays, cell keys in `keys`. */
interface Sums {
  /** Cells across the world (not a whole number: 2^zoom × 512 / 48). */
  cellsPerSide: number;
  /** The whole number of columns a key counts with. */
  columns: number;
  keys: number[];
  x: number[];
  y: number[];
  count: number[];
}

function mercatorX(lon: number): number {
  // 180° is the antimeridian's west side again: kept in the last column
  return Math.min((lon + 180) / 360, 1 - 1e-12);
}

function mercatorY(lat: number): number {
  const sin = Math.sin((Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

const lonOf = (x: number) => x * 360 - 180;
const latOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/** Decimals that keep a snapped coordinate exact enough at this level (and no more). */
function decimalsAt(zoom: number): number {
  const snapDegrees = 360 / ((2 ** zoom * WORLD_PIXELS) / CELL_PIXELS) / SNAP_FRACTION;
  return Math.max(0, Math.ceil(-Math.log10(snapDegrees)) + 1);
}

/** Adds (x, y, count) to the cell `key` of `sums`, through the index of its keys. */
function add(sums: Sums, index: Map<number, number>, key: number, x: number, y: number, count: number): void {
  const at = index.get(key);
  if (at === undefined) {
    index.set(key, sums.keys.length);
    sums.keys.push(key);
    sums.x.push(x);
    sums.y.push(y);
    sums.count.push(count);
  } else {
    sums.x[at] += x;
    sums.y[at] += y;
    sums.count[at] += count;
  }
}

function emptySums(zoom: number): Sums {
  const cellsPerSide = (2 ** zoom * WORLD_PIXELS) / CELL_PIXELS;
  return { cellsPerSide, columns: Math.ceil(cellsPerSide), keys: [], x: [], y: [], count: [] };
}

/** The deepest level's sums, from the rows not marked gone. */
function deepest(table: Pick<ToiletTable, 'count' | 'lat' | 'lon' | 'traits'>): Sums {
  const sums = emptySums(MAX_ZOOM);
  const side = sums.cellsPerSide;
  const index = new Map<number, number>();
  for (let row = 0; row < table.count; row++) {
    if (table.traits[row] & Trait.Hidden) continue;
    const x = mercatorX(table.lon[row]);
    const y = mercatorY(table.lat[row]);
    add(sums, index, Math.floor(y * side) * sums.columns + Math.floor(x * side), x, y, 1);
  }
  return sums;
}

/** The level above: each cell is two by two cells of `below`. */
function above(below: Sums, zoom: number): Sums {
  const sums = emptySums(zoom);
  const index = new Map<number, number>();
  for (let i = 0; i < below.keys.length; i++) {
    const row = Math.floor(below.keys[i] / below.columns);
    const column = below.keys[i] - row * below.columns;
    add(sums, index, Math.floor(row / 2) * sums.columns + Math.floor(column / 2), below.x[i], below.y[i], below.count[i]);
  }
  return sums;
}

/** The level's cells at their snapped positions, grouped by the tile each falls in. */
function tiled(sums: Sums, zoom: number): OverviewLevel {
  const snap = sums.cellsPerSide * SNAP_FRACTION;
  const tiles = 2 ** zoom;
  const decimals = decimalsAt(zoom);
  const round = (value: number) => Number(value.toFixed(decimals));
  const level: OverviewLevel = new Map();
  for (let i = 0; i < sums.keys.length; i++) {
    const count = sums.count[i];
    const sx = (Math.floor((sums.x[i] / count) * snap) + 0.5) / snap;
    const sy = (Math.floor((sums.y[i] / count) * snap) + 0.5) / snap;
    const tile = `${Math.floor(sx * tiles)}/${Math.floor(sy * tiles)}`;
    const cells = level.get(tile);
    const cell: Cell = [round(lonOf(sx)), round(latOf(sy)), count];
    if (cells === undefined) level.set(tile, [cell]);
    else cells.push(cell);
  }
  for (const cells of level.values()) cells.sort((a, b) => b[2] - a[2]);
  return level;
}

/** Every level 0..MAX_ZOOM over the table's rows not marked gone. */
export function buildLevels(table: Pick<ToiletTable, 'count' | 'lat' | 'lon' | 'traits'>): OverviewLevel[] {
  const levels: OverviewLevel[] = [];
  let sums = deepest(table);
  for (let zoom = MAX_ZOOM; zoom >= 0; zoom--) {
    if (zoom < MAX_ZOOM) sums = above(sums, zoom);
    levels[zoom] = tiled(sums, zoom);
  }
  return levels;
}

/** The rows marked gone, as a key: the levels change only when it does. */
export function hiddenKey(table: Pick<ToiletTable, 'count' | 'traits'>): string {
  const rows: number[] = [];
  for (let row = 0; row < table.count; row++) if (table.traits[row] & Trait.Hidden) rows.push(row);
  return rows.join(',');
}
