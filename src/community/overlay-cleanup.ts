// The overlay's daily clean-up (a background job, src/feature.ts): the store's purge of what has served its
// time (per-address-per-day records, used human-check tokens, votes and changes past their windows, decided
// reports and submissions), when the job starts and after each turn of the UTC day. With DATABASE_URL it
// deletes shared rows, so it runs on the cluster's worker only (src/cluster/worker.ts); the count windows
// each replica serves move at the turn of the day by its own watcher (live.ts), purged or not.
import type { BackgroundJob } from '../feature.js';
import type { Logger } from '../log.js';
import type { OverlayStore } from './store.js';
import { utcDay } from './days.js';

/** How often the job looks whether the UTC day turned. */
const CHECK_EVERY_MS = 60_000;

export class OverlayCleanup implements BackgroundJob {
  readonly name = 'overlay-cleanup';
  readonly runsOn = 'cluster-worker';
  /** The UTC day of the last purge that succeeded ('' before the first). */
  private purgedDay = '';
  private timer: NodeJS.Timeout | null = null;
  private purging: Promise<void> | null = null;

  constructor(
    private readonly store: OverlayStore,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.purgedDay = '';
    this.check();
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Stops looking; resolves once a purge under way ended. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.purging;
  }

  private check(): void {
    const nowMs = this.now();
    const day = utcDay(nowMs);
    if (day === this.purgedDay || this.purging !== null) return;
    this.purging = this.store
      .purge(nowMs)
      .then(
        () => void (this.purgedDay = day),
        (error: unknown) => this.log.error('the daily purge failed; will retry', { error: (error as Error).stack ?? String(error) }),
      )
      .finally(() => (this.purging = null));
  }
}
