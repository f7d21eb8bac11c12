// The place index of a source database: its `places` table, GeoNames towns of the whole world, and its
// toilets for ranking by nearness.
import type Database from 'better-sqlite3';
import { buildPlaceIndex } from './build.js';
import type { PlaceIndex } from './place-index.js';
import type { PlaceRecord } from './record.js';
import { ToiletGrid, type ToiletPoints } from './toilet-nearness.js';
import { worldTowns } from './world-towns.js';

export interface LoadPlaceIndexOptions {
  /** Toilet positions already in memory (a ToiletTable fits); read from the toilets table when absent. */
  toilets?: ToiletPoints;
  /** Merge GeoNames towns of the whole world (default true). */
  worldTowns?: boolean;
}

export function loadPlaceIndex(db: Database.Database, options: LoadPlaceIndexOptions = {}): PlaceIndex {
  const grid = options.toilets ? ToiletGrid.of(options.toilets) : toiletGridOf(db);
  return buildPlaceIndex(placesOf(db), { towns: options.worldTowns === false ? undefined : worldTowns(), nearness: grid.nearness });
}

type PlaceRow = [kind: PlaceRecord['kind'], name: string, altNames: string | null, lat: number, lon: number, importance: number, city: string | null, country: string | null];

/** Rows of the places table (read as arrays: a third faster than as objects). */
function* placesOf(db: Database.Database): Generator<PlaceRecord> {
  const rows = db.prepare('SELECT kind, name, alt_names, lat, lon, importance, city, country FROM places').raw(true).iterate() as IterableIterator<PlaceRow>;
  for (const [kind, name, altNames, lat, lon, importance, city, country] of rows) {
    yield { kind, name, alt_names: altNames, lat, lon, importance, city, country };
  }
}

function toiletGridOf(db: Database.Database): ToiletGrid {
  const grid = new ToiletGrid();
  for (const [lat, lon] of db.prepare('SELECT lat, lon FROM toilets').raw(true).iterate() as IterableIterator<[number, number]>) grid.add(lat, lon);
  return grid;
}
