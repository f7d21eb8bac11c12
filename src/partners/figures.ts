// The Plus tier's monthly figures: per listing, how often its toilet was shown in answers (nearest, area,
// MCP find_toilets_near, the finder page) and opened (getToilet, MCP get_toilet, the toilet's page). Every
// server thread counts into shared counters (src/toilets/listing-counters.ts) at the counter number this
// module gives a Plus listing when its partner object is made (the overlay carries it); the main thread
// folds the counts into the accounts database every FIGURES_FOLD_MS and at shutdown, into the UTC month of
// the fold. A counter is taken with Atomics.exchange and put back if the write fails, so no count is
// added twice or dropped; a crash loses at most the counts since the last fold. Aggregates only.
import type { Logger } from '../log.js';
import { ListingCount, type ListingCounters } from '../toilets/listing-counters.js';
import type { ListingWithClaim, PartnerStore, PartnerTables } from './store.js';
import type { Step } from '../storage/steps.js';

/** How often the counts are written to the accounts database (and at shutdown). */
export const FIGURES_FOLD_MS = 5 * 60_000;
/** The months a listing's figures cover: the current one and the 12 before it. */
export const FIGURE_MONTHS = 13;

export interface FigureMonth {
  /** 'YYYY-MM', UTC. */
  month: string;
  shown: number;
  opened: number;
}

/** 'YYYY-MM' of an instant, in UTC. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

export class ListingFigures {
  /** Listing id → its counter number, given once per process life (never reused: a read thread may still count on an old overlay). */
  private readonly numbers = new Map<string, number>();
  private readonly listings: string[] = [];
  private warnedFull = false;

  constructor(
    private readonly store: PartnerStore,
    readonly counters: ListingCounters,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  /** The counter number reads count a showing listing at: Plus listings only, else -1. */
  counterOf(listing: ListingWithClaim): number {
    if (listing.plan_tier !== 'plus') return -1;
    const known = this.numbers.get(listing.id);
    if (known !== undefined) return known;
    if (this.listings.length >= this.counters.capacity) {
      if (!this.warnedFull) this.log.error('partner figures: every counter of this process is taken; new Plus listings are counted after a restart', { capacity: this.counters.capacity });
      this.warnedFull = true;
      return -1;
    }
    const number = this.listings.length;
    this.listings.push(listing.id);
    this.numbers.set(listing.id, number);
    return number;
  }

  /** Writes the counts since the last fold into the month of now (UTC); the timer and shutdown call it. Counts not written are put back. */
  async fold(): Promise<void> {
    const month = monthOf(this.now());
    const taken: [number, number, number][] = [];
    for (let number = 0; number < this.listings.length; number++) {
      const shown = this.counters.take(number, ListingCount.Shown);
      const opened = this.counters.take(number, ListingCount.Opened);
      if (shown !== 0 || opened !== 0) taken.push([number, shown, opened]);
    }
    if (taken.length === 0) return;
    const listings = this.listings;
    try {
      await this.store.transaction(function* (tables) {
        for (const [number, shown, opened] of taken) yield* tables.addFigures(listings[number], month, shown, opened);
      });
    } catch (error) {
      for (const [number, shown, opened] of taken) {
        this.counters.restore(number, ListingCount.Shown, shown);
        this.counters.restore(number, ListingCount.Opened, opened);
      }
      this.log.error('partner figures could not be written; kept for the next fold', { error: String(error) });
    }
  }

  /** The listing's figures for the current UTC month and the 12 before it, newest first; the current month includes the counts not yet folded. */
  *months(tables: PartnerTables, listingId: string): Step<FigureMonth[]> {
    const nowMs = this.now();
    const keys: string[] = [];
    const date = new Date(nowMs);
    for (let back = 0; back < FIGURE_MONTHS; back++) keys.push(monthOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1)));
    const stored = new Map((yield* tables.figuresSince(listingId, keys[keys.length - 1])).map((row) => [row.month, row]));
    const figures = keys.map((month) => ({ month, shown: stored.get(month)?.shown ?? 0, opened: stored.get(month)?.opened ?? 0 }));
    const number = this.numbers.get(listingId);
    if (number !== undefined) {
      figures[0].shown += this.counters.peek(number, ListingCount.Shown);
      figures[0].opened += this.counters.peek(number, ListingCount.Opened);
    }
    return figures;
  }
}
