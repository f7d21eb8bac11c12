// Which OSM objects become places for the place lookup, how important each is, and which settlement it
// belongs to ("<place>, <city>" labels). City context comes from the feature's addr:city, else the
// settlement whose typical extent covers the point best (no admin boundary geometry is needed).
import KDBush from 'kdbush';
import type { Tags } from './pbf/index.js';
import type { PlaceRecord } from '../src/places/record.js';
import { PLACE_CLASS_OF, rateImportance, type PlaceClass } from '../src/rules/place-class.js';
import { distanceMeters } from '../src/geo/sphere.js';
import { countryAt } from '../src/geo/where.js';

/** A row of the places table: what the place index reads, plus the OSM id and the value that made it a place. */
export interface PlaceRow extends PlaceRecord {
  id: string;
  subkind: string;
}

/** The place class of a named element, or null. Streets count only as ways (a highway node is a bus stop or nothing). */
export function classifyPlace(tags: Tags, isWay: boolean): PlaceClass | null {
  if (!tags.name || tags.noname === 'yes') return null;
  for (const key in PLACE_CLASS_OF) {
    const value = tags[key];
    if (value === undefined) continue;
    const found = PLACE_CLASS_OF[key][value];
    if (!found) continue;
    if (found.kind === 'street' && !isWay) continue;
    if (found.kind === 'settlement' && tags.boundary === 'administrative') continue; // the boundary's label node is the place
    return found;
  }
  return null;
}

const ALT_NAME_KEYS = ['alt_name', 'official_name', 'short_name', 'loc_name', 'old_name', 'int_name', 'iata'];

/** The display name and every other name worth matching (name:<lang>, alt names, ';'-lists split). */
export function placeNames(tags: Tags): { name: string; altNames: string[] } {
  const name = tags.name.trim();
  const seen = new Set([name]);
  const altNames: string[] = [];
  const add = (value: string) => {
    for (const part of value.split(';')) {
      const n = part.trim();
      if (n && !seen.has(n)) {
        seen.add(n);
        altNames.push(n);
      }
    }
  };
  for (const key in tags) if (key.startsWith('name:') && !key.startsWith('name:signed')) add(tags[key]);
  for (const key of ALT_NAME_KEYS) if (tags[key]) add(tags[key]);
  return { name, altNames };
}

/** Base importance plus boosts for population, capital status and a Wikidata entry; clamped to 0..1. */
export function importanceOf(cls: PlaceClass, tags: Tags): number {
  const population = Number.parseInt((tags.population ?? '').replace(/[\s,.]/g, ''), 10);
  return rateImportance(cls, population, tags.capital === 'yes' || tags.capital === '2', Boolean(tags.wikidata));
}

/**
 * A place as the scan finds it, already in the shape of its row: buildPlaces sets its `city` and `country`
 * and returns the object itself as the row (a copy per place was ~384,000 objects at a million toilets,
 * ~0.2 s of first writes to fresh pages). Small, and cheap to pass between threads.
 */
export interface PlaceCandidate extends PlaceRow {
  /** Until buildPlaces: a non-empty addr:city, trimmed, or null. */
  city: string | null;
  /** Whether `country` is already countryAt(lat, lon) (not for streets, whose place moves). */
  countryKnown: boolean;
}

/** `country`: countryAt(lat, lon) when the caller has it. */
export function placeCandidate(id: string, cls: PlaceClass, tags: Tags, lat: number, lon: number, country?: string | null): PlaceCandidate {
  const { name, altNames } = placeNames(tags);
  return {
    id,
    kind: cls.kind,
    subkind: cls.subkind,
    name,
    alt_names: altNames.length ? altNames.join('\n') : null,
    lat,
    lon,
    importance: importanceOf(cls, tags),
    city: tags['addr:city']?.trim() || null,
    country: country ?? null,
    countryKnown: country !== undefined,
  };
}

/** Typical extent of a settlement in metres (the covering rule Nominatim uses for its address ranks). */
const SETTLEMENT_RADIUS_M: Record<string, number> = { city: 15000, town: 4000, village: 2000, hamlet: 1000 };
/** Settlements that are their own city in a label ("Porto", not "Porto, Porto"). */
const SELF_LABELLED = new Set(['city', 'town', 'village']);

/**
 * Builds place rows: city context, country and importance; streets merged into one entry per name and
 * city, located at the middle vertex of the way nearest the group's centre.
 */
export function buildPlaces(candidates: PlaceCandidate[]): PlaceRow[] {
  const covering = coveringSettlements(candidates, (c) => c.kind === 'settlement' && c.subkind in SETTLEMENT_RADIUS_M);
  const rows: PlaceRow[] = [];
  /** Streets by lower-case name and city: the first one's row, then every one of them. */
  const streets = new Map<string, PlaceRow[]>();
  for (let i = 0; i < candidates.length; i++) {
    const row = candidates[i];
    const selfLabelled = row.kind === 'settlement' && SELF_LABELLED.has(row.subkind);
    const city = selfLabelled ? null : (row.city ?? covering[i]?.name ?? null);
    row.city = city === row.name ? null : city;
    if (row.kind !== 'street') {
      if (!row.countryKnown) row.country = countryAt(row.lat, row.lon);
      rows.push(row);
      continue;
    }
    const key = `${row.name.toLowerCase()}\u0000${row.city ?? ''}`;
    const points = streets.get(key);
    if (points) {
      const first = points[0];
      points.push(row);
      if (row.importance > first.importance) first.importance = row.importance;
      if (row.alt_names && !first.alt_names) first.alt_names = row.alt_names;
    } else {
      streets.set(key, [row]);
    }
  }
  for (const points of streets.values()) {
    const row = points[0];
    if (points.length > 1) placeAtMostCentral(row, points);
    row.country = countryAt(row.lat, row.lon);
    rows.push(row);
  }
  return rows;
}

function placeAtMostCentral(row: PlaceRow, points: PlaceRow[]): void {
  let lat = 0;
  let lon = 0;
  for (const p of points) {
    lat += p.lat;
    lon += p.lon;
  }
  lat /= points.length;
  lon /= points.length;
  let best = points[0];
  let bestDistance = Infinity;
  for (const p of points) {
    const d = distanceMeters(lat, lon, p.lat, p.lon);
    if (d < bestDistance) {
      bestDistance = d;
      best = p;
    }
  }
  row.lat = best.lat;
  row.lon = best.lon;
  row.id = points.reduce((min, p) => (compareOsmIds(p.id, min) < 0 ? p.id : min), points[0].id);
}

function compareOsmIds(a: string, b: string): number {
  return a[0] === b[0] ? Number(a.slice(1)) - Number(b.slice(1)) : a < b ? -1 : 1;
}

/** How far (degrees of latitude) a point looks for the settlement covering it: the largest extent. */
const SEARCH_DEGREES = Math.max(...Object.values(SETTLEMENT_RADIUS_M)) / 111_320;

/**
 * For each point, the settlement that best covers it (smallest distance / typical extent, under 1), among
 * those within SEARCH_DEGREES of it (scaled by 1/cos(latitude) for longitude); of equals, the lower id.
 * Searched from the settlements' side, each only as far as it reaches, since settlements are the fewer and
 * most reach a few kilometres: the same answers as searching from every point, for a fraction of the work.
 * The inner loop reads positions from typed arrays and compares indexes, not objects and ids: it runs for
 * every point near every settlement (buildPlaces ~0.15–0.25 s faster on the ~245,000 places of a million
 * toilets).
 */
function coveringSettlements(points: PlaceCandidate[], isSettlement: (c: PlaceCandidate) => boolean): (PlaceCandidate | null)[] {
  const best: (PlaceCandidate | null)[] = new Array(points.length).fill(null);
  const settlements: number[] = [];
  const lat = new Float64Array(points.length);
  const lon = new Float64Array(points.length);
  const searchLon = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    lat[i] = p.lat;
    lon[i] = p.lon;
    searchLon[i] = SEARCH_DEGREES / Math.max(0.01, Math.cos((p.lat * Math.PI) / 180));
    if (isSettlement(p)) settlements.push(i);
  }
  if (settlements.length === 0) return best;
  const index = new KDBush(points.length);
  for (let i = 0; i < points.length; i++) index.add(lon[i], lat[i]);
  index.finish();
  const bestRatio = new Float64Array(points.length).fill(1);
  for (const si of settlements) {
    const s = points[si];
    const radius = SETTLEMENT_RADIUS_M[s.subkind];
    // Twice the reach: every point within `radius` metres is inside (up to 89°; beyond, all longitudes).
    const reach = (2 * radius) / 111_320;
    const polar = Math.abs(s.lat) + reach > 89;
    const lonReach = polar ? 360 : reach / Math.cos((Math.min(89, Math.abs(s.lat) + reach) * Math.PI) / 180);
    for (const i of index.range(s.lon - lonReach, s.lat - reach, s.lon + lonReach, s.lat + reach)) {
      if (i === si) continue;
      const dLon = searchLon[i];
      if (s.lon < lon[i] - dLon || s.lon > lon[i] + dLon || s.lat < lat[i] - SEARCH_DEGREES || s.lat > lat[i] + SEARCH_DEGREES) continue;
      const ratio = distanceMeters(lat[i], lon[i], s.lat, s.lon) / radius;
      const current = best[i];
      // Settlements can share a position (GeoNames duplicates): the lower id wins, whatever the input order.
      if (ratio < bestRatio[i] || (current !== null && ratio === bestRatio[i] && compareOsmIds(s.id, current.id) < 0)) {
        bestRatio[i] = ratio;
        best[i] = s;
      }
    }
  }
  return best;
}
