// Assembles business claims and partner listings for the server (app.ts): the tables (in the accounts
// database), the overlay that adds the partner object to every answer, the routes, and what keeps the
// served listings current without a request:
// - commits of other processes (the moderation command approving a claim or setting a plan; with the
//   accounts in PostgreSQL another replica's claim, decision or plan), noticed by the store's data version
//   (the file's data_version, PostgreSQL's count of partner writes) and applied to the toilets whose partner
//   object changed; the answers read the showing listings from memory (PostgreSQL: the store's copy);
// - the end of 12-hour closures (recorded with their event; the answers needed no write): a background job
//   (src/cluster/worker.ts), in PostgreSQL on the cluster's worker only, so one replica records each end;
// - the toilets themselves: after every load (all listings) and overlay change (the listings on the
//   toilets it re-read, so a contribution costs no read of every listing), a listing whose toilet moved
//   id is carried to the new id, and one whose toilet was marked gone or left the map (or came back) is
//   marked so, with an event for the owner;
// - the erasure of decided claims' contact details after 90 days (hourly);
// - the Plus listings' figures, counted by every thread and folded into the database (figures.ts).
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Limits } from '../api/limits.js';
import type { SessionReader } from '../api/guards.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { OverlaySource } from '../toilets/overlay.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Accounts } from '../accounts/accounts.js';
import type { DeletionHook } from '../accounts/deletion.js';
import type { SnapshotHolder } from '../toilets/snapshot.js';
import type { ListingWithClaim, ToiletState } from './store.js';
import { SqlitePartnerStore } from './sqlite-store.js';
import { PostgresPartnerStore } from './postgres-store.js';
import type { BackgroundJob } from '../feature.js';
import { PartnerOverlay } from './overlay.js';
import type { PartnerContext } from './context.js';
import { PartnerClaims } from './claims.js';
import { PartnerPlans } from './plans.js';
import { PartnerProfiles } from './profile.js';
import { registerPartnerRoutes } from './routes.js';
import { FIGURES_FOLD_MS, ListingFigures } from './figures.js';
import type { ListingCounters } from '../toilets/listing-counters.js';

/** Another process's (replica's) commit shows within about this long, and a closure's end is recorded as late. */
export const PARTNER_POLL_MS = 1000;
/** Contact details of a decided claim are kept this long after the decision (docs/PRIVACY.md). */
export const CONTACT_RETENTION_MS = 90 * 24 * 3_600_000;
const ERASE_EVERY_MS = 3_600_000;

export interface PartnersServeDeps {
  limits: Limits;
  problems: Problems;
  sessions: SessionReader;
}

export class Partners {
  /** Its name and what it stands on, for the start and close order (src/feature.ts). */
  readonly name = 'partners';
  readonly needs: readonly string[] = ['accounts', 'community'];
  /** A deleted account's pending claims are rejected and their contact details erased (src/feature.ts). */
  readonly accountDeletion: DeletionHook = { name: 'partner claims', erase: (accountId) => this.claims.forgetAccount(accountId) };
  /** The partner tables, where the accounts are (billing's transactions include them). */
  readonly store: SqlitePartnerStore | PostgresPartnerStore;
  /** The overlay the catalog merges into every answer: the community's, with the partner objects. */
  readonly overlay: PartnerOverlay;
  readonly context: PartnerContext;
  readonly claims: PartnerClaims;
  /** The plan seam billing calls (plans.ts). */
  readonly plans: PartnerPlans;
  readonly profiles: PartnerProfiles;
  /** The Plus listings' monthly figures (figures.ts). */
  readonly figures: ListingFigures;
  /** The recording of the ends of 12-hour closures. */
  readonly jobs: readonly BackgroundJob[];
  private catalog: ToiletCatalog | null = null;
  /** The data version the showing listings were last compared at; null: compare at the next poll. */
  private version: number | null = null;
  private shown = new Map<string, string>();
  /** A following of every listing failed: the next change follows them all again. */
  private followAllNext = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly config: Config,
    accounts: Accounts,
    community: OverlaySource,
    private readonly log: Logger,
    private readonly now: () => number,
    /** Every thread's counters of the Plus listings' figures (shared memory). */
    counters: ListingCounters,
  ) {
    const { engine } = accounts;
    // PostgreSQL's showing copy is read at start(): until then the catalog's first load shows no partner
    this.store = engine.kind === 'sqlite' ? new SqlitePartnerStore(engine.file, engine.events) : new PostgresPartnerStore(engine.db, engine.events);
    const figures = (this.figures = new ListingFigures(this.store, counters, log, now));
    this.overlay = new PartnerOverlay(community, this.store.showing, (listing) => figures.counterOf(listing));
    const toilets: SnapshotHolder = {
      get snapshot() {
        return catalogOf().snapshot;
      },
    };
    const catalogOf = () => {
      if (this.catalog === null) throw new Error('partners need the catalog: call attach(catalog) first');
      return this.catalog;
    };
    this.context = { store: this.store, now, toilets, changed: (ids) => this.catalog?.refreshOverlays(ids), figures };
    this.claims = new PartnerClaims(this.context);
    this.plans = new PartnerPlans(this.context);
    this.profiles = new PartnerProfiles(this.context);
    // over shared tables one replica records each end; over a file of its own, every replica its own
    this.jobs = [new ClosureEnds(this.profiles, log, engine.kind === 'postgres' ? 'cluster-worker' : 'every-replica')];
  }

  /** The catalog whose toilets the listings are on (made with this.overlay). */
  attach(catalog: ToiletCatalog): void {
    this.catalog = catalog;
    catalog.onChange(() => void this.followToilets(null));
    catalog.onOverlayChange((change) => void this.followToilets(change.all ? null : change.entries.map(([id]) => id)));
  }

  serve(server: HttpServer, deps: PartnersServeDeps): void {
    const { config, now, context, claims, profiles } = this;
    registerPartnerRoutes(server, { config, ...deps, now, context, claims, profiles });
  }

  start(): void {
    this.shown = keyed(this.store.showing.all()); // what the catalog merged when it loaded
    void this.poll();
    this.timers = [
      setInterval(() => void this.poll(), PARTNER_POLL_MS),
      setInterval(() => void this.eraseOldContacts(), ERASE_EVERY_MS),
      setInterval(() => void this.figures.fold(), FIGURES_FOLD_MS),
    ];
    for (const timer of this.timers) timer.unref();
    void this.eraseOldContacts();
  }

  /**
   * Applies other processes' (replicas') commits to the answers; the timer calls it, tests at the moment they
   * choose. It reads only the data version (PostgreSQL: and the showing copy when it moved), never per request.
   */
  async poll(): Promise<void> {
    try {
      const version = await this.store.dataVersion();
      if (version === this.version) return;
      // the showing listings the overlay reads (the file, or the copy dataVersion just read again)
      const shown = keyed(this.store.showing.all());
      const changed = new Set<string>();
      for (const [listing, key] of shown) if (this.shown.get(listing) !== key) changed.add(JSON.parse(key).toilet);
      for (const [listing, key] of this.shown) if (!shown.has(listing)) changed.add(JSON.parse(key).toilet);
      if (changed.size > 0) this.catalog?.refreshOverlays(changed);
      this.shown = shown;
      this.version = version;
    } catch (error) {
      this.log.error('partner listings refresh failed; will retry', { error: (error as Error).stack ?? String(error) });
    }
  }

  /**
   * Carries listings to their toilet's new id after an import's id move, and records a toilet that was
   * marked gone, left the map or came back, each with `partner.profile.updated` for the owner. The answers
   * need none of it (the overlay follows moves and hidden toilets show nothing); the dashboard and the
   * owner's events do. `ids`: the toilets whose overlay changed (current ids; the listings may be stored
   * under an id they moved from), or null after a load, when any toilet may have moved, gone or returned.
   */
  private async followToilets(ids: readonly string[] | null): Promise<void> {
    const snapshot = this.catalog?.snapshot;
    if (snapshot === undefined || snapshot.table.count === 0) return; // nothing loaded: every toilet would seem to have vanished
    const all = ids === null || this.followAllNext;
    if (!all && ids.length === 0) return;
    try {
      const nowMs = this.now();
      // one transaction: the listings read are the listings changed, whatever another request does meanwhile
      const followed = await this.store.transaction(function* (tables) {
        const listings = all ? yield* tables.activeListings() : yield* tables.activeListingsOn(ids.flatMap((id) => snapshot.aliases(id)));
        let count = 0;
        for (const listing of listings) {
          const current = snapshot.currentId(listing.toilet_id);
          const state: ToiletState = current === null ? 'vanished' : snapshot.rowOf(current) < 0 ? 'gone' : 'present';
          const moved = current !== null && current !== listing.toilet_id;
          if (state === listing.toilet_state && !moved) continue;
          count++;
          if (moved) yield* tables.moveToilet(listing.toilet_id, current, nowMs);
          if (state !== listing.toilet_state) yield* tables.setToiletState(listing.id, state, nowMs);
          if (listing.account_id === null) continue;
          const changed = [...(moved ? ['toilet_id'] : []), ...(state !== listing.toilet_state ? ['toilet_state'] : [])];
          const data = { changed, by: 'map_data', toilet_state: state, ...(moved ? { old_toilet_id: listing.toilet_id } : {}) };
          yield* tables.appendEvent({ account: listing.account_id, type: 'partner.profile.updated', listing: listing.id, toilet: current ?? listing.toilet_id, data });
        }
        return count;
      });
      this.followAllNext = false;
      if (followed === 0) return;
      this.log.info('partner listings followed their toilets', { listings: followed });
    } catch (error) {
      this.followAllNext = true;
      this.log.error('partner listings could not follow their toilets; will retry at the next change', { error: (error as Error).stack ?? String(error) });
    }
  }

  private async eraseOldContacts(): Promise<void> {
    try {
      const before = this.now() - CONTACT_RETENTION_MS;
      const erased = await this.store.transaction((tables) => tables.eraseDecidedContacts(before));
      if (erased > 0) this.log.info('contact details of decided claims erased', { claims: erased });
    } catch (error) {
      this.log.error('erasing old claim contact details failed; trying again in an hour', { error: String(error) });
    }
  }

  /** Stops the timers and folds the last figures (call after every thread stopped answering). */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.figures.fold();
  }
}

/** Every showing listing by id, with what its answers show (to tell which changed). */
function keyed(showing: readonly ListingWithClaim[]): Map<string, string> {
  return new Map(showing.map((l) => [l.id, JSON.stringify({ toilet: l.toilet_id, name: l.name, tier: l.plan_tier, conditions: l.conditions, hours: l.opening_hours, closed: l.closed_until })]));
}

/** Records the closures whose 12 hours are over, with their events (profile.ts), every PARTNER_POLL_MS. */
class ClosureEnds implements BackgroundJob {
  readonly name = 'partner-closures';
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly profiles: PartnerProfiles,
    private readonly log: Logger,
    readonly runsOn: BackgroundJob['runsOn'],
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.run(), PARTNER_POLL_MS).unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private run(): Promise<void> {
    this.running = this.profiles.endClosures().then(
      () => undefined,
      (error: unknown) => this.log.error('recording the ends of closures failed; will retry', { error: (error as Error).stack ?? String(error) }),
    );
    return this.running;
  }
}
