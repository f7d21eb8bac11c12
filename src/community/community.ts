// Assembles contributions for the server (app.ts): the overlay database and its OverlaySource, the
// contribution routes, the watcher of other processes' changes, the OSM note outbox. Moderation
// (src/moderation) and the open data dumps (src/dumps) use the same overlay database through `store`.
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Limits } from '../api/limits.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { OverlayStore } from './store.js';
import { storageTrouble } from '../storage/errors.js';
import { CommunityOverlay } from './overlay-source.js';
import { accountPerson, anonymousPerson, Pseudonyms } from './pseudonyms.js';
import { Contributions } from './contributions.js';
import { createHumanCheck, type HumanCheck } from './human-check.js';
import type { HumanCheckPass, SessionReader } from '../api/guards.js';
import { registerContributionRoutes } from './routes.js';
import { OverlayWatcher } from './live.js';
import { OsmNoteSender } from './osm-notes.js';

export interface CommunityServeDeps {
  catalog: ToiletCatalog;
  limits: Limits;
  problems: Problems;
  /** Signed-in contributors need no human check and are counted per account. */
  sessions: SessionReader;
  /** The server key (server-key.ts), as src/stores.ts read it. */
  serverKey: Buffer;
}

export class Community {
  /** Its name and what it stands on, for the start and close order (src/feature.ts). */
  readonly name = 'community';
  readonly needs: readonly string[] = [];
  readonly store: OverlayStore;
  /** The overlay the catalog merges into every answer. */
  readonly overlay: CommunityOverlay;
  /** The human check of the site's pages (set by serve); createAccount needs it too. */
  humanCheck: HumanCheck | null = null;
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

  /** The server key file without DATABASE_URL (server-key.ts): beside the overlay database, never inside it. */
  static keyFile(config: Config): string {
    return `${config.overlayDb}.key`;
  }

  serve(server: HttpServer, deps: CommunityServeDeps): void {
    const { config, store, log, now } = this;
    const { serverKey: key, ...routeDeps } = deps;
    const pseudonyms = new Pseudonyms(store, key);
    const contributions = new Contributions(store, pseudonyms, deps.catalog, now);
    const humanCheck = createHumanCheck(config.humanCheck, key);
    this.humanCheck = humanCheck;
    registerContributionRoutes(server, { config, ...routeDeps, contributions, humanCheck, pseudonyms, now });
    this.watcher = new OverlayWatcher(store, deps.catalog, log, now);
    if (config.osmNotesApi) this.notes = new OsmNoteSender(store, config.osmNotesApi, `PublicToiletFinder (+${config.baseUrl})`, now, log);
  }

  /**
   * Why the overlay database cannot take a write now (disk full, read-only, locked, failing), or null when a
   * one-row write just committed. Throws a fault that is not storage trouble.
   */
  writeTrouble(): string | null {
    try {
      this.store.probeWrite(this.now());
      return null;
    } catch (error) {
      const trouble = storageTrouble(error);
      if (trouble === null) throw error;
      return trouble;
    }
  }

  /** Marks a human-check token used, once: false when it was used before (accounts' createAccount). */
  spend(pass: HumanCheckPass): boolean {
    const { store } = this;
    return store.transaction(() => {
      if (store.tokenUsed(pass.key)) return false;
      store.useToken(pass.key, pass.expiresAtMs);
      return true;
    });
  }

  /**
   * What deleting an account does to its contributions (a deletion hook, app.ts): its ratings and votes
   * stay, under one random pseudonym of the device-id form, so every count stays right and nothing links
   * them to the account any more. Submissions and reports never recorded who sent them.
   */
  forgetAccount(accountId: string): void {
    this.store.reassignPerson(accountPerson(accountId), anonymousPerson());
  }

  /** The OSM note outbox, when OSM_NOTES_API is set. */
  get osmNotes(): OsmNoteSender | null {
    return this.notes;
  }

  start(): void {
    this.watcher?.start();
    this.notes?.start();
  }

  /** Applies committed changes now (the watcher does this every second); `ownWrite`: this process's (live.ts). */
  poll(ownWrite = false): void {
    this.watcher?.poll(ownWrite);
  }

  close(): void {
    this.watcher?.stop();
    this.notes?.stop();
    this.store.close();
  }
}
