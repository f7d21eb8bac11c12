// Assembles contributions for the server (app.ts): the overlay store (the SQLite file OVERLAY_DB, or the
// PostgreSQL store src/stores.ts opened) and its OverlaySource, the contribution routes, the watcher of the
// change log, and its background jobs: the OSM note outbox and the daily clean-up. Moderation (src/moderation) and the open data dumps (src/dumps) use the
// same overlay store through `store`.
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Limits } from '../api/limits.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { OverlayStore } from './store.js';
import { SqliteOverlayStore } from './sqlite-store.js';
import { storageTrouble } from '../storage/errors.js';
import { CommunityOverlay } from './overlay-source.js';
import { accountPerson, anonymousPerson, Pseudonyms } from './pseudonyms.js';
import { Contributions } from './contributions.js';
import { createHumanCheck, type HumanCheck } from './human-check.js';
import type { HumanCheckPass, SessionReader } from '../api/guards.js';
import { registerContributionRoutes } from './routes.js';
import { OverlayWatcher } from './live.js';
import { OsmNoteSender } from './osm-notes.js';
import { OverlayCleanup } from './overlay-cleanup.js';
import type { DeletionHook } from '../accounts/deletion.js';
import type { BackgroundJob } from '../feature.js';

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
  /** A deleted account's contributions stay, under a pseudonym linked to nothing (src/feature.ts). */
  readonly accountDeletion: DeletionHook = { name: 'contributions', erase: (accountId) => this.forgetAccount(accountId) };
  readonly store: OverlayStore;
  /** The overlay the catalog merges into every answer. */
  readonly overlay: CommunityOverlay;
  /** The human check of the site's pages (set by serve); createAccount needs it too. */
  humanCheck: HumanCheck | null = null;
  private watcher: OverlayWatcher | null = null;
  private notes: OsmNoteSender | null = null;
  private readonly cleanup: OverlayCleanup;

  /** `store`: the overlay store to use (src/stores.ts: PostgreSQL's with DATABASE_URL); default OVERLAY_DB's. */
  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly now: () => number,
    store?: OverlayStore,
  ) {
    this.store = store ?? new SqliteOverlayStore(config.overlayDb);
    this.overlay = new CommunityOverlay(this.store, now);
    this.cleanup = new OverlayCleanup(this.store, now, log);
  }

  /** The server key file without DATABASE_URL (server-key.ts): beside the overlay database, never inside it. */
  static keyFile(config: Config): string {
    return `${config.overlayDb}.key`;
  }

  serve(server: HttpServer, deps: CommunityServeDeps): void {
    const { config, store, log, now } = this;
    const { serverKey: key, ...routeDeps } = deps;
    const watcher = new OverlayWatcher(store, deps.catalog, log, now);
    this.watcher = watcher;
    const pseudonyms = new Pseudonyms(store, key);
    const contributions = new Contributions(store, pseudonyms, deps.catalog, now, () => watcher.poll(true));
    const humanCheck = createHumanCheck(config.humanCheck, key);
    this.humanCheck = humanCheck;
    registerContributionRoutes(server, { config, ...routeDeps, contributions, humanCheck, pseudonyms, now });
    if (config.osmNotesApi) this.notes = new OsmNoteSender(store, config.osmNotesApi, `PublicToiletFinder (+${config.baseUrl})`, now, log);
  }

  /**
   * Why the overlay store cannot take a write now (disk full, read-only, locked, failing, PostgreSQL out of
   * reach), or null when a one-row write just committed. Rejects with a fault that is not storage trouble.
   */
  async writeTrouble(): Promise<string | null> {
    try {
      await this.store.probeWrite(this.now());
      return null;
    } catch (error) {
      const trouble = storageTrouble(error);
      if (trouble === null) throw error;
      return trouble;
    }
  }

  /** Marks a human-check token used, once: false when it was used before, on any replica (accounts' createAccount). */
  spend(pass: HumanCheckPass): Promise<boolean> {
    return this.store.transaction((tx) => tx.useToken(pass.key, pass.expiresAtMs));
  }

  /**
   * What deleting an account does to its contributions (a deletion hook, app.ts): its ratings and votes
   * stay, under one random pseudonym of the device-id form, so every count stays right and nothing links
   * them to the account any more. Submissions and reports never recorded who sent them.
   */
  forgetAccount(accountId: string): Promise<void> {
    return this.store.reassignPerson(accountPerson(accountId), anonymousPerson());
  }

  /** The OSM note outbox, when OSM_NOTES_API is set. */
  get osmNotes(): OsmNoteSender | null {
    return this.notes;
  }

  /** The watcher, on every replica; the jobs are src/cluster/worker.ts's to start. */
  start(): void {
    this.watcher?.start();
  }

  /** Its background jobs over the overlay store (shared with DATABASE_URL): the worker's only (src/feature.ts). */
  get jobs(): readonly BackgroundJob[] {
    return [this.cleanup, ...(this.notes ? [this.notes] : [])];
  }

  /** Applies committed changes now (the watcher does every second and on NOTIFY); `look`: read the log whatever the store's cheap evidence says (live.ts). */
  async poll(look = false): Promise<void> {
    await this.watcher?.poll(look);
  }

  /** Resolves once this server applied the change numbered `seq` of the change log (tests of replicas wait for it). */
  seen(seq: number): Promise<void> {
    return this.watcher?.seen(seq) ?? Promise.reject(new Error('the community is not served: no change log is applied'));
  }

  async close(): Promise<void> {
    this.notes?.stop();
    await this.watcher?.stop();
    await this.store.close();
  }
}
