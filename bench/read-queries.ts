// The queries the in-process read benches ask, the same in every case so their figures compare: points a
// few hundred metres off random toilets (where people ask) and the densest 0.2° boxes (limit 200).
import type { Reads } from '../src/api/reads.js';
import type { AreaParams } from '../src/schemas/params.js';
import { toiletId, type ToiletTable } from '../src/toilets/table.js';

export const NO_FILTERS = { open_now: false, wheelchair: false, changing_table: false, free: false, no_purchase_needed: false };

const DENSE_BOX_CANDIDATES = 16_384;
const DENSE_BOXES = 4096;

/** `count` points a few hundred metres off random toilets. */
export function pointsNearToilets(t: ToiletTable, random: () => number, count: number): { lat: number; lon: number }[] {
  return Array.from({ length: count }, () => {
    const row = Math.floor(random() * t.count);
    return { lat: t.lat[row] + (random() - 0.5) * 0.01, lon: t.lon[row] + (random() - 0.5) * 0.01 };
  });
}

/**
 * The densest 4,096 of 16,384 0.2° boxes centred a few hundred metres off random toilets (limit 200, no
 * filter): at a million toilets every one holds over 200 toilets, so the limit binds, as in a city.
 */
export function densestBoxes(reads: Reads, random: () => number, t: ToiletTable, now: number): AreaParams[] {
  const candidates = pointsNearToilets(t, random, DENSE_BOX_CANDIDATES).map(({ lat, lon }) => {
    const box: AreaParams = { bbox: { west: lon - 0.1, south: lat - 0.1, east: lon + 0.1, north: lat + 0.1 }, limit: 200, ...NO_FILTERS };
    return { box, found: reads.searchArea(box, now) };
  });
  return candidates.sort((a, b) => b.found - a.found).slice(0, DENSE_BOXES).map((c) => c.box);
}

/**
 * The HTTP benches' request lines (wrk): nearest a few hundred metres off 10,000 random toilets, the 0.2°
 * boxes (limit 20) at them, and their ids.
 */
export function httpReadRequests(t: ToiletTable, random: () => number): { rows: number[]; near: string[]; area: string[]; byId: string[] } {
  const rows = Array.from({ length: 10_000 }, () => Math.floor(random() * t.count));
  const near = rows.map((r) => `GET /api/v1/toilets/nearest?lat=${(t.lat[r] + (random() - 0.5) * 0.01).toFixed(5)}&lon=${(t.lon[r] + (random() - 0.5) * 0.01).toFixed(5)}`);
  // Sides of 0.1999° from a rounded corner, so rounding to 5 decimals cannot push a side past the 0.2° limit.
  const area = rows.map((r) => {
    const [west, south] = [(t.lon[r] - 0.1).toFixed(5), (t.lat[r] - 0.1).toFixed(5)];
    return `GET /api/v1/toilets?bbox=${west},${south},${(Number(west) + 0.1999).toFixed(5)},${(Number(south) + 0.1999).toFixed(5)}&limit=20`;
  });
  return { rows, near, area, byId: rows.map((r) => `GET /api/v1/toilets/${toiletId(t, r)}`) };
}
