// The map's views without MapLibre: the first one, the box that fitting the data's coverage into the map's
// box on screen will show (Web Mercator; MapLibre's zoom levels count 512-pixel tiles), so the page can ask
// for the toilets in it while the map library is still on its way; and the overview tiles a view covers.
import type { View } from './map.js';

/** The world's width in pixels at zoom 0, as MapLibre GL counts zoom levels. */
const TILE_PIXELS = 512;
const mercatorX = (lon: number) => (lon + 180) / 360;
const mercatorY = (lat: number) => {
  const sin = Math.sin((lat * Math.PI) / 180);
  return 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI);
};
const latOf = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - 2 * y))) * 180) / Math.PI;

/** The view of `bounds` (west, south, east, north) fitted into width × height pixels with `padding` on each side. */
export function fittedView(bounds: readonly number[], width: number, height: number, padding = 24): View {
  const [west, south, east, north] = bounds;
  const spanX = Math.max(mercatorX(east) - mercatorX(west), 1e-9);
  const spanY = Math.max(mercatorY(south) - mercatorY(north), 1e-9);
  const scale = Math.min((width - 2 * padding) / spanX, (height - 2 * padding) / spanY);
  const zoom = Math.max(0, Math.min(17, Math.log2(scale / TILE_PIXELS)));
  const world = TILE_PIXELS * 2 ** zoom;
  const cx = (mercatorX(west) + mercatorX(east)) / 2;
  const cy = (mercatorY(south) + mercatorY(north)) / 2;
  const halfX = width / 2 / world;
  const halfY = height / 2 / world;
  return { west: (cx - halfX) * 360 - 180, east: (cx + halfX) * 360 - 180, north: latOf(cy - halfY), south: latOf(cy + halfY), zoom };
}

export function centreOf(view: View): { lat: number; lon: number } {
  return { lat: latOf((mercatorY(view.north) + mercatorY(view.south)) / 2), lon: (view.west + view.east) / 2 };
}

/** The most overview tiles one view asks for (a wide screen at a fractional zoom needs about 30). */
const MAX_TILES = 48;

/** The `z/x/y` of the overview tiles of level `level` (512-pixel tiles, as the server cuts them) that cover the view. */
export function overviewTiles(view: View, level: number): string[] {
  const n = 2 ** level;
  const clamp = (value: number) => Math.max(0, Math.min(n - 1, Math.floor(value * n)));
  const [west, east] = [clamp(mercatorX(view.west)), clamp(mercatorX(view.east))];
  const [north, south] = [clamp(mercatorY(Math.min(view.north, 85.05))), clamp(mercatorY(Math.max(view.south, -85.05)))];
  const tiles: string[] = [];
  for (let x = west; x <= east; x++) for (let y = north; y <= south; y++) if (tiles.length < MAX_TILES) tiles.push(`${level}/${x}/${y}`);
  return tiles;
}
