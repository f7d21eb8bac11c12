// Keeps the served overlays current with the overlay store's change log: this process's own writes (each
// write applies the log before it answers), what another process (the moderation command) or, with
// DATABASE_URL, another replica committed, noticed by a poll every second and, on PostgreSQL, at once by
// its NOTIFY; and the turn of the UTC day, which moves the 12- and 24-month count windows. Polls run one
// after the other, so each sees what committed before it began. The purge of old rows is a job of the
// cluster's worker (overlay-cleanup.ts), not of every replica's watcher.
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Logger } from '../log.js';
import type { OverlayStore } from './store.js';
import { utcDay } from './days.js';

/** Another process's change shows within about this long (a NOTIFY makes it sooner). */
export const POLL_INTERVAL_MS = 1000;

export class OverlayWatcher {
  private seq = 0;
  private day = '';
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private polls: Promise<void>;
  private readonly waiting = new Set<{ seq: number; resolve(): void }>();

  constructor(
    private readonly store: OverlayStore,
    private readonly catalog: ToiletCatalog,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    // what the store's readable rows hold now, the next full load reads; the log is applied from there on
    this.polls = store.lastChange().then((seq) => void (this.seq = seq), (error) => this.failed('reading the change log', error));
  }

  start(): void {
    this.day = utcDay(this.now());
    this.store.onChange(() => void this.poll(true));
    this.timer = setInterval(() => void this.poll(), POLL_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Applies what changed since the last poll; resolves once it is applied (a failure is logged and retried
   * from the same point by the next poll). `look`: read the log even when the store's cheap evidence says
   * nothing changed (this process's own writes, which SQLite's data_version does not count).
   */
  poll(look = false): Promise<void> {
    this.polls = this.polls.then(() => this.pollOnce(look));
    return this.polls;
  }

  /** Resolves once this server applied the change numbered `seq` (and every one before it). */
  seen(seq: number): Promise<void> {
    if (seq <= this.seq) return Promise.resolve();
    return new Promise((resolve) => this.waiting.add({ seq, resolve }));
  }

  /** The number of the last change applied. */
  get lastSeen(): number {
    return this.seq;
  }

  /** Stops polling; resolves once the poll under way (if any) ended. */
  stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopped = true;
    return this.polls;
  }

  private async pollOnce(look: boolean): Promise<void> {
    if (this.stopped) return;
    try {
      const nowMs = this.now();
      const day = utcDay(nowMs);
      if (day !== this.day) {
        this.day = day;
        this.catalog.refreshOverlays(null);
      }
      const changes = await this.store.changesSince(this.seq, look);
      if (changes === null) return;
      if (changes.communityToilets) {
        // new rows for the static spatial indexes: a new snapshot (rare: a moderator approved a submission)
        const report = this.catalog.load();
        this.log.info('community toilets changed: data reloaded', { toilets: report.toilets, load_ms: report.loadMs });
      } else if (changes.toiletIds.size > 0) {
        this.catalog.refreshOverlays(changes.toiletIds);
      }
      // only once applied: a failed poll is retried from the same point
      this.seq = changes.seq;
      for (const waiter of this.waiting) {
        if (waiter.seq > this.seq) continue;
        this.waiting.delete(waiter);
        waiter.resolve();
      }
    } catch (error) {
      this.failed('overlay refresh', error);
    }
  }

  private failed(what: string, error: unknown): void {
    this.log.error(`${what} failed; will retry`, { error: (error as Error).stack ?? String(error) });
  }
}
