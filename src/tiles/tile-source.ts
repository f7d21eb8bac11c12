// The tiles file in use, replaced without a restart: the import renames a new MBTiles file over the old one,
// and the folder is watched as the catalog watches the source database (SIGHUP reloads too). A file that
// cannot be opened, or that has gone, is logged and the tiles already in use stay in service, as the
// catalog does with toilet data; until a file is first opened there are no tiles (the routes answer 404).
// The demo data's basemap counts as no tiles once other data is served.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileStamp, ReplacedFileWatch } from '../storage/replaced-file.js';
import type { Logger } from '../log.js';
import { MbTiles } from './mbtiles.js';

export class TileSource {
  /** Its name and what it stands on, for the start and close order (src/feature.ts). */
  readonly name = 'tiles';
  readonly needs: readonly string[] = [];
  private inUse: MbTiles | null = null;
  private stamp = '';
  private watcher: ReplacedFileWatch | null = null;
  readonly path: string;

  /**
   * `tilesUrl`: the `tiles` URL template of the TileJSON document; `servesDemo`: whether the data in use is
   * the demo data, whose basemap (data/demo/) is served only with it, never under an operator's region.
   */
  constructor(
    path: string,
    private readonly tilesUrl: string,
    private readonly log: Logger,
    private readonly servesDemo: () => boolean = () => false,
  ) {
    this.path = resolve(path);
  }

  /** The tiles in use, or null when there is no tiles file (or only the demo's, under other data). */
  get current(): MbTiles | null {
    return this.inUse?.demo && !this.servesDemo() ? null : this.inUse;
  }

  /** Opens the file if there is one, then watches for a new one. */
  start(): void {
    this.reload('start');
    mkdirSync(dirname(this.path), { recursive: true });
    this.watcher = new ReplacedFileWatch(this.path, () => this.reload('file changed'));
  }

  /** Opens the file again unless it is unchanged; logs the outcome instead of throwing. */
  reload(reason: string): void {
    const stamp = fileStamp(this.path);
    if (stamp === this.stamp && reason !== 'SIGHUP') return;
    if (stamp === '') {
      if (this.inUse !== null) this.log.error('the tiles file is gone; still serving the previous tiles until an import writes a new one', { reason, path: this.path });
      return;
    }
    let next: MbTiles;
    try {
      next = MbTiles.open(this.path, this.tilesUrl);
    } catch (error) {
      const keeping = this.inUse === null ? 'no tiles are served until `npm run import -- --tiles` writes a good one' : 'still serving the previous tiles';
      this.log.error(`the tiles file cannot be read (${(error as Error).message}); ${keeping}`, { reason, path: this.path });
      return;
    }
    const previous = this.inUse;
    this.inUse = next;
    this.stamp = stamp;
    previous?.close();
    this.log.info('tiles loaded', { reason, path: this.path, minzoom: next.minZoom, maxzoom: next.maxZoom });
  }

  close(): void {
    this.watcher?.close();
    this.inUse?.close();
    this.inUse = null;
  }
}
