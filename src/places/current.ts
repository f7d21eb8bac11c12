// The place index of the source database in use: read from the database (the importer stores it built,
// see stored.ts) whenever the catalog swaps in new data, then swapped in one assignment, like the toilet
// snapshot.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { readPlaceIndex } from './stored.js';
import type { PlaceIndex } from './place-index.js';
import type { ImmediatePlaceLookup } from './service.js';
import type { PlaceMatch, PlaceQuery } from './lookup.js';

export class CurrentPlaceIndex implements ImmediatePlaceLookup {
  private index: PlaceIndex | null = null;
  /** Places in the index and how long its last load took, for the start-up log. */
  size = 0;
  loadMs = 0;

  constructor(private readonly dbPath: string) {}

  /** Reloads from the source database; with no database the lookup finds nothing. */
  rebuild(): void {
    const started = performance.now();
    if (!existsSync(this.dbPath)) {
      this.index = null;
      this.size = 0;
      return;
    }
    const db = new Database(this.dbPath, { readonly: true, fileMustExist: true });
    try {
      this.index = readPlaceIndex(db);
    } finally {
      db.close();
    }
    this.size = this.index.size;
    this.loadMs = Math.round(performance.now() - started);
  }

  find(query: PlaceQuery): PlaceMatch | null {
    return this.index === null ? null : this.index.find(query);
  }
}
