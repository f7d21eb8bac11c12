// What the site calls a toilet the data gives no name (issue 43): the business it is in ("Toilets at Café
// Riviera"), the street of its address, or the nearest place ("Public toilet in Parc Princesse
// Antoinette"): the landmark within LANDMARK_REACH, else the nearest settlement within SETTLEMENT_REACH.
// Built from the source database at each load (the raw tags and the places table), never per request.
// Only the site says these titles: the API's `name` stays null, as the data has it.
import type Database from 'better-sqlite3';
import KDBush from 'kdbush';
import type { SiteTitle } from '../rules/site-title.js';

/** A landmark (park, museum, square …) this close names the toilet's place: about 150 m. */
const LANDMARK_REACH_DEGREES = 0.0015;
/** The nearest settlement (town, village, suburb …) within about 5 km names it otherwise. */
const SETTLEMENT_REACH_DEGREES = 0.05;

interface NamedPoints {
  index: KDBush;
  names: string[];
  lat: Float64Array;
  lon: Float64Array;
}

function namedPoints(db: Database.Database, kind: 'landmark' | 'settlement'): NamedPoints | null {
  const rows = db.prepare('SELECT name, lat, lon FROM places WHERE kind = ?').all(kind) as { name: string; lat: number; lon: number }[];
  if (rows.length === 0) return null;
  const index = new KDBush(rows.length);
  const lat = new Float64Array(rows.length);
  const lon = new Float64Array(rows.length);
  rows.forEach((row, i) => {
    index.add(row.lon, row.lat);
    lat[i] = row.lat;
    lon[i] = row.lon;
  });
  index.finish();
  return { index, names: rows.map((row) => row.name), lat, lon };
}

/** The name of the point of `points` nearest to the position within `reach` degrees (distances scaled by latitude), or null. */
function nearestName(points: NamedPoints | null, lat: number, lon: number, reach: number): string | null {
  if (points === null) return null;
  const scale = Math.cos((lat * Math.PI) / 180);
  let best = -1;
  let bestDistance = Infinity;
  for (const i of points.index.range(lon - reach / scale, lat - reach, lon + reach / scale, lat + reach)) {
    const distance = ((points.lon[i] - lon) * scale) ** 2 + (points.lat[i] - lat) ** 2;
    if (distance < bestDistance && distance <= reach * reach) [best, bestDistance] = [i, distance];
  }
  return best < 0 ? null : points.names[best];
}

function tagText(tags: Record<string, unknown>, key: string): string | null {
  const value = tags[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The titles of the toilets of a source database that have no name, by toilet id. */
export function buildTitles(db: Database.Database): Map<string, SiteTitle> {
  const landmarks = namedPoints(db, 'landmark');
  const settlements = namedPoints(db, 'settlement');
  const titles = new Map<string, SiteTitle>();
  const rows = db.prepare('SELECT id, kind, lat, lon, tags FROM toilets WHERE name IS NULL').iterate() as Iterable<{ id: string; kind: string; lat: number; lon: number; tags: string }>;
  for (const row of rows) {
    const tags = JSON.parse(row.tags) as Record<string, unknown>;
    // a host toilet's `name` is the business's own (the toilet has none of its own)
    const host = row.kind === 'host_toilet' ? tagText(tags, 'name') : null;
    const street = tagText(tags, 'addr:street');
    const place = host ?? street ?? nearestName(landmarks, row.lat, row.lon, LANDMARK_REACH_DEGREES) ?? nearestName(settlements, row.lat, row.lon, SETTLEMENT_REACH_DEGREES);
    if (place === null) continue;
    titles.set(row.id, { kind: host !== null ? 'host' : street !== null ? 'street' : 'place', name: place });
  }
  return titles;
}
