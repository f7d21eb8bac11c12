// The place index of the source database in use: rebuilt beside the old one whenever the catalog swaps
// in new data, then swapped in one assignment, like the toilet snapshot.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { loadPlaceIndex } from './load.js';
import type { PlaceIndex } from './place-index.js';
import type { ImmediatePlaceLookup } from './service.js';
import type { PlaceMatch, PlaceQuery } from './lookup.js';
import type { ToiletPoints } from './toilet-nearness.js';

export class CurrentPlaceIndex implements ImmediatePlaceLookup {
  private index: PlaceIndex | null = null;
  /** Places in the index and how long its last build took, for the start-up log. */
  size = 0;
  buildMs = 0;

  constructor(private readonly dbPath: string) {}

  /** Rebuilds from the source database; with no database the lookup finds nothing (GeoNames needs a source too). */
  rebuild(toilets: ToiletPoints): void {
    const started = performance.now();
    if (!existsSync(this.dbPath)) {
      this.index = null;
      this.size = 0;
      return;
    }
    const db = new Database(this.dbPath, { readonly: true, fileMustExist: true });
    try {
      this.index = loadPlaceIndex(db, { toilets });
    } finally {
      db.close();
    }
    this.size = this.index.size;
    this.buildMs = Math.round(performance.now() - started);
  }

  find(query: PlaceQuery): PlaceMatch | null {
    return this.index === null ? null : this.index.find(query);
  }
}
