// Keeps the served overlays current with what this process cannot see happen: writes another process
// commits to the overlay database (the moderation command), noticed through SQLite's data_version and the
// change log; and the turn of the UTC day, which moves the 12- and 24-month count windows and ends the
// per-address-per-day records.
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Logger } from '../log.js';
import type { OverlayStore } from './store.js';
import { utcDay } from './days.js';

/** A moderator's action shows within about this long. */
export const POLL_INTERVAL_MS = 1000;

export class OverlayWatcher {
  private version: number;
  private seq: number;
  private day = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: OverlayStore,
    private readonly catalog: ToiletCatalog,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    // whatever is committed now, the next full load reads
    this.version = store.dataVersion();
    this.seq = store.lastChange();
  }

  start(): void {
    this.day = utcDay(this.now());
    this.store.purge(this.now());
    this.timer = setInterval(() => this.poll(), POLL_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Applies what changed since the last poll; called by the timer, by tests at the moment they choose, and
   * with `ownWrite` after this process's own moderator action (the site's queue), which data_version, counting
   * only other connections' commits, does not show.
   */
  poll(ownWrite = false): void {
    try {
      const nowMs = this.now();
      const day = utcDay(nowMs);
      if (day !== this.day) {
        this.day = day;
        this.store.purge(nowMs);
        this.catalog.refreshOverlays(null);
      }
      const version = this.store.dataVersion();
      if (version === this.version && !ownWrite) return;
      const changes = this.store.changesSince(this.seq);
      if (changes.communityToilets) {
        // new rows for the static spatial indexes: a new snapshot (rare: a moderator approved a submission)
        const report = this.catalog.load();
        this.log.info('community toilets changed: data reloaded', { toilets: report.toilets, load_ms: report.loadMs });
      } else if (changes.toiletIds.size > 0) {
        this.catalog.refreshOverlays(changes.toiletIds);
      }
      // only once applied: a failed poll is retried from the same point
      this.version = version;
      this.seq = changes.seq;
    } catch (error) {
      this.log.error('overlay refresh failed; will retry', { error: (error as Error).stack ?? String(error) });
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
