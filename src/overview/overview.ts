// The overview documents of the data in use: the levels' tiles (clusters.ts) as JSON, built at each load
// and again when an overlay change marks a toilet gone or back (the catalog tells of both); the places
// document (the coverage, its name and its settlements, for a map without basemap tiles) and the titles
// of unnamed toilets (titles.ts), both read from the source database when first asked after a load.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { bodyEtag } from '../http/etag.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import { buildLevels, hiddenKey } from './clusters.js';
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

/** A tile with no toilet: the same small answer everywhere. */
const EMPTY_TILE = Buffer.from('{"cells":[]}');

export class Overview {
  /** Per level, the JSON of each tile by `x/y`. */
  private levels: Map<string, Buffer>[] | null = null;
  /** The rows marked gone when the levels were built: an overlay change that keeps them keeps the levels. */
  private levelsHidden = '';
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
      // right after the load, not within it: the start-up and a reload's swap do not wait for the levels
      // (~2.5 s of CPU for a million toilets); a tile asked before then builds them at once
      setImmediate(() => {
        if (this.levels === null) this.build();
      });
    });
    // a toilet marked gone (or back) changes the counts; votes, ratings and listings do not
    catalog.onOverlayChange(() => {
      if (hiddenKey(this.catalog.snapshot.table) !== this.levelsHidden) this.build();
    });
  }

  /** Builds the levels of the data in use now (after each load, so the first map view need not wait for it). */
  build(): void {
    const started = performance.now();
    const { table } = this.catalog.snapshot;
    this.levelsHidden = hiddenKey(table);
    this.levels = buildLevels(table).map((tiles) => new Map([...tiles].map(([key, cells]) => [key, Buffer.from(JSON.stringify({ cells }))])));
    this.lastBuildMs = performance.now() - started;
  }

  /** The tile x/y of level `zoom` (0..MAX_ZOOM): its cells as {cells: [[lon, lat, count], …]}. */
  tile(zoom: number, x: number, y: number): OverviewDocument {
    if (this.levels === null) this.build();
    const body = this.levels![zoom].get(`${x}/${y}`) ?? EMPTY_TILE;
    return { body, etag: bodyEtag(body) };
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
