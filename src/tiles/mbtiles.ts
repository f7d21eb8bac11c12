// One MBTiles file (github.com/mapbox/mbtiles-spec, 1.3) as the tiles routes need it: a tile by its XYZ
// address, and the TileJSON document built once from the file's metadata. tilemaker writes rows in the
// TMS scheme (row 0 at the south), so the XYZ y is flipped; its tiles are stored gzipped.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { asciiJson } from '../rules/ascii-json.js';

/** The ODbL credit, as HTML for the map's attribution control (TileJSON `attribution`). */
export const TILES_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap contributors</a>, ODbL';
/** Web Mercator's latitude limit: bounds of a file that names none. */
const WORLD: readonly number[] = [-180, -85.0511, 180, 85.0511];

/** The metadata row that marks the demo data's basemap. */
export const DEMO_MARK = 'toilet_finder_demo';

export class MbTilesError extends Error {}

/** A tile as stored: its bytes, and whether they are gzipped (tilemaker's are). */
export interface StoredTile {
  data: Buffer;
  gzipped: boolean;
}

export class MbTiles {
  /** The TileJSON 3.0.0 document, as bytes, and its ETag. */
  readonly tileJson: Buffer;
  readonly tileJsonEtag: string;
  readonly minZoom: number;
  readonly maxZoom: number;
  /** The demo data's basemap (data/demo/, metadata `toilet_finder_demo`): a map of the demo region only. */
  readonly demo: boolean;
  private readonly tileQuery: Database.Statement<[number, number, number], { tile_data: Buffer }>;

  private constructor(
    private readonly db: Database.Database,
    tilesUrl: string,
  ) {
    const meta = new Map((db.prepare('SELECT name, value FROM metadata').all() as { name: string; value: string }[]).map((row) => [row.name, row.value]));
    if (meta.get('format') !== 'pbf') throw new MbTilesError(`it holds ${meta.get('format') ?? 'tiles of no stated format'}, not vector tiles (format pbf); build it with \`npm run import -- --tiles\``);
    this.demo = meta.get(DEMO_MARK) === 'true';
    this.minZoom = zoomOf(meta.get('minzoom'), 0);
    this.maxZoom = zoomOf(meta.get('maxzoom'), 14);
    const bounds = numbers(meta.get('bounds'), 4) ?? WORLD;
    const center = numbers(meta.get('center'), 3) ?? [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, Math.min(this.maxZoom, Math.max(this.minZoom, 10))];
    let vectorLayers: unknown = [];
    try {
      vectorLayers = (JSON.parse(meta.get('json') ?? '{}') as { vector_layers?: unknown }).vector_layers ?? [];
    } catch {
      throw new MbTilesError('its metadata row "json" is not JSON (it should list vector_layers)');
    }
    const document = {
      tilejson: '3.0.0',
      name: meta.get('name') ?? 'OpenStreetMap',
      description: meta.get('description') ?? '',
      version: meta.get('version') ?? '1.0.0',
      attribution: TILES_ATTRIBUTION,
      scheme: 'xyz',
      tiles: [tilesUrl],
      minzoom: this.minZoom,
      maxzoom: this.maxZoom,
      bounds,
      center,
      vector_layers: vectorLayers,
    };
    this.tileJson = Buffer.from(asciiJson(document), 'latin1');
    this.tileJsonEtag = contentTag(this.tileJson);
    this.tileQuery = db.prepare('SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?');
  }

  /** Opens the file read-only; throws MbTilesError (or SQLite's error) when it is not a vector MBTiles file. */
  static open(path: string, tilesUrl: string): MbTiles {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return new MbTiles(db, tilesUrl);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The tile at XYZ address z/x/y, or null when the file has none there. */
  tile(z: number, x: number, y: number): StoredTile | null {
    const row = this.tileQuery.get(z, x, 2 ** z - 1 - y);
    if (row === undefined) return null;
    const data = row.tile_data;
    return { data, gzipped: data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b };
  }

  close(): void {
    this.db.close();
  }
}

/** A strong ETag naming these bytes (a tile unchanged by a new import keeps its tag). */
export function contentTag(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
}

function zoomOf(value: string | undefined, fallback: number): number {
  const zoom = Number(value);
  return value !== undefined && Number.isInteger(zoom) && zoom >= 0 && zoom <= 30 ? zoom : fallback;
}

/** "7.40,43.72,7.44,43.75" → its `count` numbers, or null when it is not that. */
function numbers(value: string | undefined, count: number): number[] | null {
  const parts = value?.split(',').map(Number);
  return parts?.length === count && parts.every(Number.isFinite) ? parts : null;
}
