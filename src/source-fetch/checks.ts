// What a fetched file must pass before it is renamed over the one in service, beyond its checksum (which
// proves it is the file the job published, not that the job published a file this release serves): the
// source database opens as SQLite, holds an import's meta and tables, and has a layout this release reads
// (a job already on a newer release publishes a newer layout: refused, the replica keeps its data); the tiles
// file opens as vector MBTiles, as TileSource would open it. Each throws saying why, for the log and /status.
import Database from 'better-sqlite3';
import { isReadableLayout, readableLayouts, readMeta, type ImportMeta } from '../source/schema.js';
import { MbTiles } from '../tiles/mbtiles.js';

/** Tables every import writes (src/source/schema.ts, the column store, the place index). */
const SOURCE_TABLES = ['meta', 'toilets', 'places', 'id_moves', 'toilet_columns', 'place_index'];

export function checkSourceDatabase(path: string): void {
  let meta: Partial<ImportMeta>;
  let tables: Set<string>;
  const db = openReadOnly(path);
  try {
    meta = readMeta(db);
    tables = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]));
  } catch (error) {
    throw new Error(`it is not a SQLite database (${(error as Error).message})`);
  } finally {
    db.close();
  }
  const version = meta.schema_version;
  if (version === undefined || meta.imported_at === undefined) throw new Error('it is not a source database an import wrote (its meta has no schema_version or imported_at): publish the TOILETS_DB that `npm run import` writes');
  if (!isReadableLayout(version)) {
    throw new Error(`it has source schema version ${version}, this release reads ${readableLayouts()}: publish an import made by a release that writes one of those, or upgrade this replica`);
  }
  const missing = SOURCE_TABLES.filter((name) => !tables.has(name));
  if (missing.length > 0) throw new Error(`it lacks the table${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: it is not a whole import`);
}

export function checkTilesFile(path: string): void {
  let tiles: MbTiles;
  try {
    tiles = MbTiles.open(path, '');
  } catch (error) {
    throw new Error(`it is not a vector MBTiles file the server can serve (${(error as Error).message})`);
  }
  tiles.close();
}

function openReadOnly(path: string): Database.Database {
  try {
    return new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`it is not a SQLite database (${(error as Error).message})`);
  }
}
