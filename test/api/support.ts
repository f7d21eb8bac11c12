// Shared by the API tests: real source databases made by the importer, a real app on a loopback port,
// requests that check what every answer must satisfy, and independent spherical geometry for expectations.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importExtract } from '../../importer/import.js';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import type { PlaceLookup } from '../../src/places/lookup.js';
import { findInvalid } from '../../src/schemas/validate.js';
import type { SchemaName } from '../../src/schemas/resources.js';
import { osmExtract } from '../support/paths.js';

/** Every absolute URL the service emits about itself starts with this (proves BASE_URL is honoured). */
export const BASE_URL = 'https://toilets.example.test';

/** Wednesday 5 June 2024, 08:00 UTC: 09:00 in Porto, when some of its toilets with hours are closed. */
export const FIXED_NOW = Date.parse('2024-06-05T08:00:00Z');

export const SILENT: Logger = { info() {}, error() {} };

export type ExtractName = Parameters<typeof osmExtract>[0];

/** A folder of its own under the system temp dir; remove() deletes it. */
export function tempDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'toilet-api-test-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Imports a real extract into `db` with the real importer (which renames the finished file over `db`). */
export async function importInto(extract: ExtractName, db: string): Promise<void> {
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
}

export function readSourceToilets(db: string): SourceToilet[] {
  const database = new Database(db, { readonly: true });
  try {
    return database
      .prepare('SELECT id, lat, lon, name, access, wheelchair, changing_table, fee_required, opening_hours FROM toilets ORDER BY id')
      .all() as SourceToilet[];
  } finally {
    database.close();
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body for JSON and problem+json answers, else undefined. */
  json: any;
}

export interface Served {
  app: App;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /**
   * One request; checks what every answer must satisfy: no cookie, a valid Problem for problem+json,
   * and a 200 of a read valid against that read's schema.
   */
  call(path: string, init?: RequestInit): Promise<Answer>;
  close(): Promise<void>;
}

export interface ServeOptions {
  db: string;
  /** Environment on top of the test defaults (loopback, ephemeral port, BASE_URL, generous limits). */
  env?: Record<string, string>;
  now?: () => number;
  places?: PlaceLookup | null;
  log?: Logger;
  /** Watch the database folder for replacements, as main.ts does. */
  watch?: boolean;
}

export async function serve(options: ServeOptions): Promise<Served> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    BASE_URL,
    // one thread: these tests set the clock, which read threads cannot see (test/threads runs several)
    HTTP_THREADS: '1',
    TOILETS_DB: options.db,
    RATE_LIMIT_PER_MINUTE: '1000000',
    AREA_RATE_LIMIT_PER_MINUTE: '1000000',
    ...options.env,
  });
  const app = createApp({ config, log: options.log ?? SILENT, now: options.now ?? (() => FIXED_NOW), places: options.places ?? null });
  app.catalog.load();
  if (options.watch) app.catalog.watch();
  const port = await app.listen();
  const origin = `http://127.0.0.1:${port}`;
  const call = async (path: string, init?: RequestInit): Promise<Answer> => {
    const response = await fetch(origin + path, init);
    const text = await response.text();
    assert.equal(response.headers.get('set-cookie'), null, `${path} set a cookie`);
    const type = response.headers.get('content-type') ?? '';
    const json = /^application\/(problem\+)?json/.test(type) && text !== '' ? JSON.parse(text) : undefined;
    if (type.startsWith('application/problem+json')) {
      assertValid('Problem', json);
      assert.equal(json.status, response.status, 'problem status matches the HTTP status');
      assert.ok(json.type.startsWith(`${BASE_URL}/problems/`), `problem type ${json.type} lives under BASE_URL`);
    }
    const read = readSchemaOf(path);
    if (read !== null && response.status === 200 && json !== undefined) assertValid(read, json);
    return { status: response.status, headers: response.headers, text, json };
  };
  return { app, origin, call, close: () => app.close() };
}

/** The success schema of the read a path addresses, or null for other paths. */
function readSchemaOf(path: string): SchemaName | null {
  const pathname = path.split('?')[0];
  if (pathname === '/api/v1/toilets/nearest') return 'FindResult';
  if (pathname === '/api/v1/toilets') return 'AreaResult';
  return /^\/api\/v1\/toilets\/[^/]+$/.test(pathname) ? 'ToiletAnswer' : null;
}

export function assertValid(schema: SchemaName, body: unknown): void {
  assert.deepEqual(findInvalid(schema, body), [], `answer is not a valid ${schema}: ${JSON.stringify(body).slice(0, 300)}`);
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
