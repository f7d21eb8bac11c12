// Shared by the API tests: real source databases made by the importer (copies of the cached import, see
// test/support/extracts.ts), the real app on a loopback port with requests that check what every answer
// must satisfy (test/support/server.ts), and independent spherical geometry for expectations.
import Database from 'better-sqlite3';
import { osmExtract } from '../support/paths.js';
import type { ExtractName } from '../support/extracts.js';

export { BASE_URL, FIXED_NOW, SILENT, assertValid, serve, type Answer, type Served, type ServeOptions } from '../support/server.js';
export { importedCopy, tempDir, type ExtractName } from '../support/extracts.js';

/**
 * Imports a real extract into `db` with the real importer (which renames the finished file over `db`), for
 * tests of what an import does to a running server; the others take a copy of the cached import (importedCopy).
 */
export async function importInto(extract: ExtractName, db: string): Promise<void> {
  const { importExtract } = await import('../../importer/import.js'); // only the tests that import load the importer
  await importExtract(osmExtract(extract), { db });
}

/** A toilet as the source database holds it: the facts the filters look at, read without the server. */
export interface SourceToilet {
  id: string;
  lat: number;
  lon: number;
  name: string | null;
  access: string;
  wheelchair: string;
  changing_table: string;
  fee_required: number | null;
  opening_hours: string | null;
  /** The details JSON getToilet carries beside the item, or null when it has none. */
  details: string | null;
}

export function readSourceToilets(db: string): SourceToilet[] {
  const database = new Database(db, { readonly: true });
  try {
    return database
      .prepare('SELECT id, lat, lon, name, access, wheelchair, changing_table, fee_required, opening_hours, details FROM toilets ORDER BY id')
      .all() as SourceToilet[];
  } finally {
    database.close();
  }
}

/** `/api/v1/toilets/nearest?...` from an object of parameters. */
export function query(path: string, params: Record<string, string | number | boolean>): string {
  const search = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return search ? `${path}?${search}` : path;
}

// ---- Independent spherical geometry (not src/geo): the expectations the answers are checked against ----

const EARTH_RADIUS_M = 6371008.8;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in metres, haversine in its atan2 form. */
export function haversineMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const a = Math.sin(toRadians(lat2 - lat1) / 2) ** 2 + Math.cos(toRadians(lat1)) * Math.cos(toRadians(lat2)) * Math.sin(toRadians(lon2 - lon1) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
}

/** Initial great-circle bearing in degrees, [0, 360). */
export function initialBearing(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const [p1, p2, dl] = [toRadians(lat1), toRadians(lat2), toRadians(lon2 - lon1)];
  const degrees = (Math.atan2(Math.sin(dl) * Math.cos(p2), Math.cos(p1) * Math.sin(p2) - Math.sin(p1) * Math.cos(p2) * Math.cos(dl)) * 180) / Math.PI;
  return (degrees + 360) % 360;
}

/** Smallest angle between two bearings, in degrees. */
export function bearingGap(a: number, b: number): number {
  const gap = Math.abs(a - b) % 360;
  return Math.min(gap, 360 - gap);
}

/** Toilets sorted by distance from a point, nearest first, each with that distance. */
export function byDistanceFrom<T extends { lat: number; lon: number }>(toilets: readonly T[], lat: number, lon: number): (T & { meters: number })[] {
  return toilets.map((t) => ({ ...t, meters: haversineMeters(lat, lon, t.lat, t.lon) })).sort((a, b) => a.meters - b.meters);
}
