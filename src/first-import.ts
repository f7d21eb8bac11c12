// What `npm start` imports before it serves, if anything: TOILETS_EXTRACT when the source database is
// missing, empty, unreadable, from an older layout or still the demo data; with no TOILETS_EXTRACT, the
// built-in demo extract (data/demo/) when there is no source database at all, or when the demo data in
// it is from an older layout. An operator's own data is never replaced by the demo. With the demo data
// comes its basemap (installDemoTiles).
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { isReadableLayout, missingParts, readMeta, SOURCE_SCHEMA_VERSION } from './source/schema.js';

/** The demo extract shipped with the service (ODbL, credited in data/demo/README.md). */
export const DEMO_EXTRACT = fileURLToPath(new URL('../../data/demo/monaco-2020-07-19.osm.pbf', import.meta.url));
/** The demo extract's basemap (tilemaker, as `npm run import -- --tiles` builds it; data/demo/README.md). */
export const DEMO_TILES = fileURLToPath(new URL('../../data/demo/monaco-2020-07-19.mbtiles', import.meta.url));
/** The region the demo data covers, as /status and the log name it. */
export const DEMO_REGION = 'Monaco';

export interface FirstImport {
  /** A path or URL. */
  extract: string;
  demo: boolean;
  /** Why, for the log line. */
  reason: string;
}

/**
 * Refuses a TOILETS_DB whose folder does not exist (a mistyped path must not start an empty server), then
 * says what to import before serving, or null.
 */
export function firstImport(toiletsDb: string, toiletsExtract: string | null): FirstImport | null {
  const folder = dirname(resolve(toiletsDb));
  if (!existsSync(folder)) throw new Error(`TOILETS_DB=${toiletsDb}: the folder ${folder} does not exist; create it (mkdir -p ${folder}) or correct TOILETS_DB`);
  const state = sourceState(toiletsDb);
  if (toiletsExtract !== null) {
    const reason = state.kind === 'current' ? (state.demo ? 'the source database holds the demo data' : null) : state.reason;
    return reason === null ? null : { extract: toiletsExtract, demo: false, reason };
  }
  if (state.kind === 'missing' || (state.kind === 'outdated' && state.demo)) {
    if (!existsSync(DEMO_EXTRACT)) return null; // the server then says how to import, as with no data
    return { extract: DEMO_EXTRACT, demo: true, reason: `${state.reason} and no TOILETS_EXTRACT` };
  }
  return null;
}

/**
 * Puts the demo's basemap at TILES_DB when the demo data is served and there is no tiles file yet, so a
 * first `npm start` shows a real map; true when it did. An operator's tiles file is never replaced, and the
 * server shows the demo's tiles only with the demo data (src/tiles/tile-source.ts).
 */
export function installDemoTiles(tilesDb: string): boolean {
  if (existsSync(tilesDb) || !existsSync(DEMO_TILES)) return false;
  // under a temporary name, then renamed: the tiles' watcher never sees half a file
  mkdirSync(dirname(resolve(tilesDb)), { recursive: true });
  const partial = `${tilesDb}.demo-partial`;
  copyFileSync(DEMO_TILES, partial);
  renameSync(partial, tilesDb);
  return true;
}

type SourceState =
  | { kind: 'missing' | 'unreadable' | 'empty'; reason: string; demo: false }
  | { kind: 'outdated'; reason: string; demo: boolean }
  | { kind: 'current'; demo: boolean };

function sourceState(path: string): SourceState {
  if (!existsSync(path)) return { kind: 'missing', reason: 'no toilets yet', demo: false };
  try {
    const db = new Database(path, { readonly: true });
    try {
      const meta = readMeta(db);
      const demo = meta.demo === 'true';
      const version = meta.schema_version;
      if (!isReadableLayout(version)) return { kind: 'outdated', reason: `the source database has layout version ${version ?? 'none'}, this server reads ${SOURCE_SCHEMA_VERSION}`, demo };
      // The demo data is ours and small: brought to the current layout at once. An operator's own data of a
      // layout this release still reads is served as it is until the next import (the log says what it lacks).
      const missing = missingParts(meta);
      if (demo && missing.length > 0) return { kind: 'outdated', reason: `the demo data has layout version ${version}, without ${missing.join(', ')}`, demo };
      const toilets = (db.prepare('SELECT count(*) AS n FROM toilets').get() as { n: number }).n;
      return toilets > 0 ? { kind: 'current', demo } : { kind: 'empty', reason: 'no toilets yet', demo: false };
    } finally {
      db.close();
    }
  } catch {
    return { kind: 'unreadable', reason: 'the source database cannot be read', demo: false };
  }
}
