// The source database: what `npm run import` writes and the server loads. It is replaced as a whole on
// every import (written beside the live file, then renamed over it), so nothing here may be edited in
// place: community and partner data live in the separate overlay database, keyed by toilet id.
import Database from 'better-sqlite3';
import { TOILET_COLUMNS_DDL } from './columns.js';
import { PLACE_INDEX_DDL } from '../places/stored.js';
import type { SourcePart } from '../rules/details.js';

/**
 * Bump when the layout changes; the server refuses a database of a version it cannot read and says to re-import.
 * 4: meta holds the coverage (region name and bounds) and whether the data is the built-in demo.
 * 5: each toilet's details (toilets.details, the column store's details blobs).
 */
export const SOURCE_SCHEMA_VERSION = 5;

/**
 * Older layouts this release still serves, and what each lacks: a file the previous release wrote is served
 * without those parts until the next import writes the current layout (the server says so in its log and
 * /status), rather than refusing to start.
 */
export const READABLE_OLDER_LAYOUTS: Readonly<Record<string, readonly SourcePart[]>> = { '4': ['details'] };

/** What a source database of this meta lacks that a re-import adds (nothing for the current layout). */
export function missingParts(meta: Partial<ImportMeta>): readonly SourcePart[] {
  return meta.schema_version === undefined ? [] : (READABLE_OLDER_LAYOUTS[meta.schema_version] ?? []);
}

/** Whether this release reads a source database of that layout version (the current or a readable older one). */
export function isReadableLayout(version: string | undefined): boolean {
  return version === String(SOURCE_SCHEMA_VERSION) || (version !== undefined && Object.hasOwn(READABLE_OLDER_LAYOUTS, version));
}

export const SOURCE_DDL = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- One row per toilet record. Enum columns hold the spec's values; gender is a comma list in spec order.
CREATE TABLE toilets (
  id             TEXT NOT NULL UNIQUE,   -- n<id>, w<id>, r<id>
  kind           TEXT NOT NULL,          -- 'toilet' (amenity=toilets) or 'host_toilet' (toilets=yes on another feature)
  lat            REAL NOT NULL,
  lon            REAL NOT NULL,
  name           TEXT,
  operator       TEXT,
  access         TEXT NOT NULL,
  access_rule    TEXT NOT NULL,
  scheme_name    TEXT,
  fee_required   INTEGER,                -- 1, 0 or NULL (unknown)
  fee_amount     REAL,
  fee_currency   TEXT,
  opening_hours  TEXT,                   -- valid opening_hours syntax only
  wheelchair     TEXT NOT NULL,
  changing_table TEXT NOT NULL,
  gender         TEXT NOT NULL,
  checked        TEXT,                   -- YYYY-MM of the latest check date on the object
  quality        INTEGER NOT NULL,       -- QualityFlag bits (src/rules/facts.ts)
  last_edited    INTEGER,                -- epoch seconds of the object's last edit, when the extract has it
  time_zone      TEXT NOT NULL,          -- IANA zone of the position, resolved at import
  country        TEXT,                   -- ISO 3166-1 alpha-2, resolved at import where the mapping needed it
  tags           TEXT NOT NULL,          -- raw OSM tags as JSON, so a mapping fix needs no re-download
  details        TEXT                    -- the details (src/rules/details.ts) as JSON, NULL when the tags give none
);

-- Places for the place lookup (findToiletsNear?place=...).
CREATE TABLE places (
  id         TEXT NOT NULL,              -- OSM object id (n/w/r) or, for streets, the id of one of their ways
  kind       TEXT NOT NULL,              -- settlement | station | street | landmark
  subkind    TEXT NOT NULL,              -- the OSM value that made it a place (city, village, station, residential, museum ...)
  name       TEXT NOT NULL,
  alt_names  TEXT,                       -- other names, one per line (name:*, alt_name, official_name, short_name, loc_name, old_name)
  lat        REAL NOT NULL,
  lon        REAL NOT NULL,
  importance REAL NOT NULL,              -- 0..1, larger is more important (kind, population, wikidata)
  city       TEXT,                       -- name of the settlement it belongs to; NULL for a settlement that is a city itself
  country    TEXT                        -- ISO 3166-1 alpha-2
);

-- When a mapper redraws a toilet (node <-> outline) its id changes. Overlay rows keyed by the old id follow
-- the toilet through this table; rows are carried forward from import to import.
CREATE TABLE id_moves (
  old_id   TEXT PRIMARY KEY,
  new_id   TEXT NOT NULL,
  moved_at TEXT NOT NULL                 -- ISO time of the import that saw the move
);
${TOILET_COLUMNS_DDL}${PLACE_INDEX_DDL}`;

/** The area an import's data covers (importer/coverage.ts): west, south, east, north in degrees. */
export interface Coverage {
  name: string;
  bounds: [number, number, number, number];
  /** Where the bounds come from: the extract header's bbox, or the extent of the toilets and places found. */
  from: 'header' | 'data';
}

/** Keys of the meta table. */
export interface ImportMeta {
  schema_version: string;
  /** The extract's file name (a URL's last path segment): never a folder. */
  source_file: string;
  /** The URL the extract was downloaded from, when it was. */
  source_url: string | null;
  /** ISO time of the OSM replication timestamp in the PBF header (the data's age), when present. */
  replication_timestamp: string | null;
  writing_program: string | null;
  imported_at: string;
  /** JSON of the import summary counts. */
  counts: string;
  /** JSON of the Coverage, when the import found anything to cover. */
  coverage: string | null;
  /** 'true' when the data is the built-in demo extract (npm start with no data), else 'false'. */
  demo: string;
}

/** How many places the import found (its summary in `counts`), 0 when not recorded. */
export function placesOf(meta: Partial<ImportMeta>): number {
  try {
    const counts = JSON.parse(meta.counts ?? '{}') as { places?: Record<string, number> };
    return Object.values(counts.places ?? {}).reduce((sum, n) => sum + n, 0);
  } catch {
    return 0;
  }
}

/** The coverage a meta table records, or null (none recorded, or not readable). */
export function coverageOf(meta: Partial<ImportMeta>): Coverage | null {
  if (meta.coverage === undefined || meta.coverage === null) return null;
  try {
    const parsed = JSON.parse(meta.coverage) as Coverage;
    const sane = typeof parsed.name === 'string' && Array.isArray(parsed.bounds) && parsed.bounds.length === 4 && parsed.bounds.every(Number.isFinite);
    return sane ? parsed : null;
  } catch {
    return null;
  }
}

export function openSourceDatabase(path: string): Database.Database {
  let db: Database.Database | null = null;
  let version: string | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    version = readMeta(db).schema_version;
  } catch (error) {
    db?.close();
    throw new Error(`cannot read the source database ${path}: ${(error as Error).message}; run \`npm run import\` to write it again`, { cause: error });
  }
  if (!isReadableLayout(version)) {
    db.close();
    throw new Error(`${path} has source schema version ${version ?? 'none'}, this server reads ${readableLayouts()}: run \`npm run import\` again`);
  }
  return db;
}

/** The layout versions this release reads, for messages ("4 and 5"). */
export function readableLayouts(): string {
  return [...Object.keys(READABLE_OLDER_LAYOUTS), String(SOURCE_SCHEMA_VERSION)].join(' and ');
}

export function readMeta(db: Database.Database): Partial<ImportMeta> {
  const hasMeta = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'`).get();
  if (!hasMeta) return {};
  const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
