// Builds a place index from a source database's places table, as the importer builds the one it stores
// (GeoNames towns of the whole world, toilets for ranking by nearness), with options for tests.
import type Database from 'better-sqlite3';
import { buildPlaceIndex } from '../../src/places/build.js';
import type { PlaceIndex } from '../../src/places/place-index.js';
import type { PlaceRecord } from '../../src/places/record.js';
import { ToiletGrid, type ToiletPoints } from '../../src/places/toilet-nearness.js';
import { worldTowns } from '../../src/places/world-towns.js';
import { readToiletColumns } from '../../src/source/columns.js';

export interface LoadPlaceIndexOptions {
  /** Toilet positions already in memory; read from the source's column store when absent. */
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
  return ToiletGrid.of(readToiletColumns(db).numbers);
}
