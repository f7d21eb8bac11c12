// The overview of the whole coverage for zoomed-out maps (issue 43): the area API answers boxes of at
// most 0.2° and 200 toilets, so a map of a region draws counts instead. Per zoom level 0..MAX_ZOOM the
// toilets are counted in a grid of CELL_PIXELS-wide cells (Web Mercator; zoom levels as MapLibre GL counts
// them, 512 pixels round the world at level 0); each cell is
// one [lon, lat, count] at the mean position of its toilets, snapped to an eighth of the cell, so even a
// cell of one toilet never gives its full-precision position (at MAX_ZOOM the snap is about 100 m).
// Built once per data version and overlay change (toilets marked gone drop out), never per request.
import type { ToiletTable } from '../toilets/table.js';
import { Trait } from '../toilets/table.js';

/** The deepest overview level; further in, the site lists the toilets themselves (area API, nearest search). */
export const MAX_ZOOM = 12;
/** A cell's side in screen pixels at its zoom level: about one marker and its gap. */
const CELL_PIXELS = 48;
/** A cell's centre of mass is snapped to this fraction of its side. */
const SNAP_FRACTION = 8;
/** The world's width in pixels at level 0. */
const WORLD_PIXELS = 512;
/** Web Mercator's latitude limit. */
const MAX_LAT = 85.0511;

/** One zoom level: cells as [lon, lat, count], the most toilets first. */
export type OverviewLevel = [number, number, number][];

function mercatorX(lon: number): number {
  return (lon + 180) / 360;
}

function mercatorY(lat: number): number {
  const sin = Math.sin((Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
}

function lonOf(x: number): number {
  return x * 360 - 180;
}

function latOf(y: number): number {
  return (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;
}

/** Decimals that keep a snapped coordinate exact enough at this level (and no more). */
function decimalsAt(zoom: number): number {
  const snapDegrees = 360 / ((2 ** zoom * WORLD_PIXELS) / CELL_PIXELS) / SNAP_FRACTION;
  return Math.max(0, Math.ceil(-Math.log10(snapDegrees)) + 1);
}

/** Every level 0..MAX_ZOOM over the table's rows not marked gone. */
export function buildLevels(table: Pick<ToiletTable, 'count' | 'lat' | 'lon' | 'traits'>): OverviewLevel[] {
  const rows: number[] = [];
  for (let row = 0; row < table.count; row++) if (!(table.traits[row] & Trait.Hidden)) rows.push(row);
  const x = Float64Array.from(rows, (row) => mercatorX(table.lon[row]));
  const y = Float64Array.from(rows, (row) => mercatorY(table.lat[row]));
  const levels: OverviewLevel[] = [];
  for (let zoom = 0; zoom <= MAX_ZOOM; zoom++) levels.push(level(x, y, zoom));
  return levels;
}

function level(x: Float64Array, y: Float64Array, zoom: number): OverviewLevel {
  const cells = (2 ** zoom * WORLD_PIXELS) / CELL_PIXELS;
  const sums = new Map<number, { x: number; y: number; count: number }>();
  for (let i = 0; i < x.length; i++) {
    const key = Math.floor(y[i] * cells) * Math.ceil(cells) + Math.floor(x[i] * cells);
    const cell = sums.get(key);
    if (cell === undefined) sums.set(key, { x: x[i], y: y[i], count: 1 });
    else [cell.x, cell.y, cell.count] = [cell.x + x[i], cell.y + y[i], cell.count + 1];
  }
  const snap = cells * SNAP_FRACTION;
  const decimals = decimalsAt(zoom);
  const round = (value: number) => Number(value.toFixed(decimals));
  return [...sums.values()]
    .map((cell): [number, number, number] => {
      const sx = (Math.floor((cell.x / cell.count) * snap) + 0.5) / snap;
      const sy = (Math.floor((cell.y / cell.count) * snap) + 0.5) / snap;
      return [round(lonOf(sx)), round(latOf(sy)), cell.count];
    })
    .sort((a, b) => b[2] - a[2]);
}
