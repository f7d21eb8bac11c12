// The overview documents of the data in use, made when first asked after each data version and overlay
// change (the catalog tells of both) and kept until the next: the levels (clusters.ts) as JSON, the
// places document (the coverage, its name and its settlements, for a map without basemap tiles), and the
// titles of unnamed toilets (titles.ts, from the source database, once per data version).
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { bodyEtag } from '../http/etag.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import { buildLevels, MAX_ZOOM } from './clusters.js';
import { buildTitles } from './titles.js';
import type { SiteTitle } from '../rules/site-title.js';

/** Settlements the places document lists, the most important first: enough to name a region's map. */
const PLACE_LIMIT = 400;

export interface OverviewDocument {
  body: Buffer;
  etag: string;
}

function document(value: unknown): OverviewDocument {
  const body = Buffer.from(JSON.stringify(value));
  return { body, etag: bodyEtag(body) };
}

export class Overview {
  private levels: OverviewDocument[] | null = null;
  private placesDocument: OverviewDocument | null = null;
  private titleMap: Map<string, SiteTitle> | null = null;
  /** How long the last build of the levels took (bench/, the log). */
  lastBuildMs = 0;

  constructor(
    private readonly catalog: ToiletCatalog,
    private readonly dbPath: string,
  ) {
    catalog.onChange(() => {
      this.levels = this.placesDocument = this.titleMap = null;
    });
    // a toilet marked gone (or back) changes the counts, nothing else here
    catalog.onOverlayChange(() => (this.levels = null));
  }

  /** The level of `zoom` (0..MAX_ZOOM). */
  level(zoom: number): OverviewDocument {
    if (this.levels === null) {
      const started = performance.now();
      const { table } = this.catalog.snapshot;
      this.levels = buildLevels(table).map((cells, z) => document({ zoom: z, max_zoom: MAX_ZOOM, toilets: cells.reduce((n, cell) => n + cell[2], 0), cells }));
      this.lastBuildMs = performance.now() - started;
    }
    return this.levels[zoom];
  }

  /** The coverage (its name and bounds, null without data) and its settlements as [lon, lat, name]. */
  places(): OverviewDocument {
    this.placesDocument ??= document({ coverage: this.catalog.snapshot.info.coverage, places: this.read((db) => settlements(db), []) });
    return this.placesDocument;
  }

  /** The site's title of each of these toilets that has one (unnamed toilets only). */
  titles(ids: readonly string[]): Record<string, SiteTitle> {
    this.titleMap ??= this.read((db) => buildTitles(db), new Map());
    const found: Record<string, SiteTitle> = {};
    for (const id of ids) {
      const title = this.titleMap.get(id);
      if (title !== undefined) found[id] = title;
    }
    return found;
  }

  /** One title (the toilet page), or null. */
  title(id: string): SiteTitle | null {
    return this.titles([id])[id] ?? null;
  }

  private read<T>(use: (db: Database.Database) => T, without: T): T {
    if (!existsSync(this.dbPath)) return without;
    const db = new Database(this.dbPath, { readonly: true, fileMustExist: true });
    try {
      return use(db);
    } finally {
      db.close();
    }
  }
}

function settlements(db: Database.Database): [number, number, string][] {
  const rows = db.prepare('SELECT name, lat, lon FROM places WHERE kind = ? ORDER BY importance DESC LIMIT ?').all('settlement', PLACE_LIMIT) as { name: string; lat: number; lon: number }[];
  return rows.map((row) => [Number(row.lon.toFixed(4)), Number(row.lat.toFixed(4)), row.name]);
}
