// The overview documents of the data in use: the levels' tiles (clusters.ts) as JSON, built at each load
// and again when an overlay change marks a toilet gone or back (the catalog tells of both), from
// OVERVIEW_THREAD_FROM toilets on a thread of their own so that the main thread goes on answering (a
// tile asked meanwhile waits for them; ~0.3 s of CPU at a million toilets, bench:overview); the places
// document (the coverage, its name and its settlements, for a map without basemap tiles) and the titles
// of unnamed toilets (titles.ts), both read from the source database when first asked after a load.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { bodyEtag } from '../http/etag.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import { Trait, type ToiletTable } from '../toilets/table.js';
import { buildLevels, tileBody, type EncodedLevel, type OverviewInput } from './clusters.js';
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
/** From this many toilets the levels are built on a thread: below, they take less than starting one. */
export const OVERVIEW_THREAD_FROM = 100_000;
const BUILD_THREAD = new URL('./build-thread.js', import.meta.url);

/** The rows marked gone, ascending: the levels change only when they do. */
function hiddenRows(table: Pick<ToiletTable, 'count' | 'traits'>): Int32Array {
  const rows: number[] = [];
  for (let row = 0; row < table.count; row++) if (table.traits[row] & Trait.Hidden) rows.push(row);
  return Int32Array.from(rows);
}

const sameRows = (a: Int32Array, b: Int32Array) => a.length === b.length && a.every((row, i) => row === b[i]);

/** The levels built on a thread of their own; rejected when the thread fails (then they are built here). */
export function buildOnThread(input: OverviewInput): Promise<EncodedLevel[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BUILD_THREAD, { workerData: input });
    worker.once('message', (levels: { tiles: Uint32Array; offsets: Uint32Array; body: Uint8Array }[]) => {
      resolve(levels.map(({ tiles, offsets, body }) => ({ tiles, offsets, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) })));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the overview's build thread ended with code ${code}`)));
  });
}

export class Overview {
  /** Per level, the JSON of its tiles; null until built for the data in use. */
  private levels: EncodedLevel[] | null = null;
  /** The build under way on its thread, which tiles asked meanwhile wait for. */
  private building: Promise<EncodedLevel[]> | null = null;
  /** Counts builds: one that a newer build overtook does not replace its levels. */
  private generation = 0;
  /** The rows marked gone when the levels were built: an overlay change that keeps them keeps the levels. */
  private levelsHidden: Int32Array = new Int32Array(0);
  private placesDocument: OverviewDocument | null = null;
  private titleMap: Map<string, SiteTitle> | null = null;
  /** How long the last build of the levels took (bench/, the log). */
  lastBuildMs = 0;

  constructor(
    private readonly catalog: ToiletCatalog,
    private readonly dbPath: string,
    private readonly threadFrom = OVERVIEW_THREAD_FROM,
  ) {
    catalog.onChange(() => {
      this.levels = this.building = this.placesDocument = this.titleMap = null;
      this.generation++;
      // right after the load, not within it: the start-up and a reload's swap do not wait for the levels;
      // a tile asked before then starts them at once
      setImmediate(() => {
        if (this.levels === null && this.building === null) void this.build();
      });
    });
    // a toilet marked gone (or back) changes the counts; votes, ratings and listings do not
    catalog.onOverlayChange(() => {
      if (sameRows(hiddenRows(this.catalog.snapshot.table), this.levelsHidden)) return;
      this.levels = null; // the next tile waits for the counts without it
      void this.build();
    });
  }

  /** Builds the levels of the data in use now: here below `threadFrom` toilets, else on a thread of their own. */
  build(): Promise<EncodedLevel[]> {
    const started = performance.now();
    const { table } = this.catalog.snapshot;
    const input: OverviewInput = { count: table.count, lat: table.lat, lon: table.lon, hidden: hiddenRows(table) };
    this.levelsHidden = input.hidden;
    const generation = ++this.generation;
    const done = (levels: EncodedLevel[]) => {
      if (generation === this.generation) {
        this.levels = levels;
        this.building = null;
        this.lastBuildMs = performance.now() - started;
      }
      return levels;
    };
    if (table.count < this.threadFrom) return Promise.resolve(done(buildLevels(input)));
    // a thread that cannot be had or fails: built here, slower for the others but never missing
    this.building = buildOnThread(input).catch(() => buildLevels(input)).then(done);
    return this.building;
  }

  /** The tile x/y of level `zoom` (0..MAX_ZOOM): its cells as {cells: [[lon, lat, count], …]}; later while the levels build. */
  tile(zoom: number, x: number, y: number): OverviewDocument | Promise<OverviewDocument> {
    const answer = (levels: EncodedLevel[]) => {
      const body = tileBody(levels[zoom], zoom, x, y) ?? EMPTY_TILE;
      return { body, etag: bodyEtag(body) };
    };
    if (this.levels !== null) return answer(this.levels);
    return (this.building ?? this.build()).then(answer);
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
