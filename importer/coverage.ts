// The area an import covers, recorded in the source database's meta so the server can tell "no toilets
// here" from "outside the data" (src/api/reads.ts) and show it on /status and the licence page.
// Bounds: the extract header's bbox, which is the area the extract was cut to (Geofabrik, osmium extract
// and BBBike write it), when it is present and sane; otherwise the extent of the toilets and places the
// import found, the best the data itself can say. The name: the import's --region, else the extract's file
// name without its date or "latest" (monaco-2020-07-19.osm.pbf → Monaco).
import type { BoundingBox } from './pbf/index.js';
import type { Coverage } from '../src/source/schema.js';

export interface Positions {
  lat: ArrayLike<number>;
  lon: ArrayLike<number>;
}

/** The coverage of an import: the header's bbox when usable, else the extent of `data` (null when both are empty). */
export function coverageOf(name: string, header: BoundingBox | null, data: readonly Positions[]): Coverage | null {
  if (header !== null && usable(header)) {
    return { name, bounds: [header.left, header.bottom, header.right, header.top], from: 'header' };
  }
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { lat, lon } of data) {
    for (let i = 0; i < lat.length; i++) {
      if (lon[i] < west) west = lon[i];
      if (lon[i] > east) east = lon[i];
      if (lat[i] < south) south = lat[i];
      if (lat[i] > north) north = lat[i];
    }
  }
  return west <= east ? { name, bounds: [west, south, east, north], from: 'data' } : null;
}

/** A header box inside the world with some area (left > right would cross the antimeridian: allowed). */
function usable(box: BoundingBox): boolean {
  const inWorld = [box.left, box.right].every((x) => x >= -180 && x <= 180) && [box.top, box.bottom].every((y) => y >= -90 && y <= 90);
  return inWorld && box.bottom < box.top && box.left !== box.right;
}

/**
 * A region's name from an extract's file name or URL: the last path segment without `.osm.pbf`, a trailing
 * date (`-2020-07-19`, `-200719`) or `-latest`, words capitalised (`baden-wuerttemberg-latest.osm.pbf` →
 * "Baden Wuerttemberg"). An operator who wants another name imports with --region.
 */
export function regionFromFileName(source: string): string {
  const file = source.replace(/[?#].*$/, '').split(/[/\\]/).pop() ?? '';
  const stem = file
    .replace(/\.osm\.pbf$|\.pbf$/i, '')
    .replace(/[-_.](latest|\d{4}-\d{2}-\d{2}|\d{6,8})$/i, '')
    .replace(/[-_.]+/g, ' ')
    .trim();
  if (stem === '') return 'the imported extract';
  return stem.replace(/(^|\s)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** The extract's name as shown (/status, the licence page): a file or URL's last path segment, never a folder or a query. */
export function extractName(source: string): string {
  return source.replace(/[?#].*$/, '').split(/[/\\]/).pop() || source;
}
