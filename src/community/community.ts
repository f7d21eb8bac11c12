// Assembles contributions, moderation support and open data for the server (app.ts): the overlay
// database and its OverlaySource, the routes, the watcher of other processes' changes, the OSM note outbox.
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Limits } from '../api/limits.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { OverlayStore } from './store.js';
import { CommunityOverlay } from './overlay-source.js';
import { Pseudonyms, serverKey } from './pseudonyms.js';
import { Contributions } from './contributions.js';
import { createHumanCheck } from './human-check.js';
import { registerContributionRoutes } from './routes.js';
import { registerDumpRoutes } from './dump-routes.js';
import { OverlayWatcher } from './live.js';
import { OsmNoteSender } from './osm-notes.js';
import { writeFirstDump } from './first-dump.js';

export interface CommunityServeDeps {
  catalog: ToiletCatalog;
  limits: Limits;
  problems: Problems;
}

export class Community {
  readonly store: OverlayStore;
  /** The overlay the catalog merges into every answer. */
  readonly overlay: CommunityOverlay;
  private watcher: OverlayWatcher | null = null;
  private notes: OsmNoteSender | null = null;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    this.store = new OverlayStore(config.overlayDb);
    this.overlay = new CommunityOverlay(this.store, now);
  }

  /** The server key file (see pseudonyms.ts): beside the overlay database, never inside it. */
  static keyFile(config: Config): string {
    return `${config.overlayDb}.key`;
  }

  serve(server: HttpServer, deps: CommunityServeDeps): void {
    const { config, store, log, now } = this;
    const key = serverKey(Community.keyFile(config));
    const pseudonyms = new Pseudonyms(store, key);
    const contributions = new Contributions(store, pseudonyms, deps.catalog, now);
    const humanCheck = createHumanCheck(config.humanCheck, key);
    registerContributionRoutes(server, { config, ...deps, contributions, humanCheck, pseudonyms, now });
    registerDumpRoutes(server, { config, limits: deps.limits, problems: deps.problems, now });
    this.watcher = new OverlayWatcher(store, deps.catalog, log, now);
    if (config.osmNotesApi) this.notes = new OsmNoteSender(store, config.osmNotesApi, `PublicToiletFinder (+${config.baseUrl})`, now, log);
  }

  /** Writes the open data dump in the background when DUMP_DIR has none yet (first-dump.ts). */
  writeFirstDump(catalog: ToiletCatalog): void {
    writeFirstDump(catalog, this.config, this.log, this.now);
  }

  /** The OSM note outbox, when OSM_NOTES_API is set. */
  get osmNotes(): OsmNoteSender | null {
    return this.notes;
  }

  start(): void {
    this.watcher?.start();
    this.notes?.start();
  }

  /** Applies other processes' committed changes now (the watcher does this every second). */
  poll(): void {
    this.watcher?.poll();
  }

  close(): void {
    this.watcher?.stop();
    this.notes?.stop();
    this.store.close();
  }
}
