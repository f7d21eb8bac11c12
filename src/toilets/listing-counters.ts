// How often each Plus listing's toilet was shown in an answer and opened, counted on every server thread
// into one SharedArrayBuffer: two Int32 counters per listing, at the counter number the main thread gave
// the listing (ListingFigures in src/partners/figures.ts) and that travels with its partner object in the
// overlay data (PartnerListing.counter). A read adds with Atomics.add (no lock, no allocation, no lookup);
// the main thread takes the counts with Atomics.exchange, so none is counted twice or lost between takes.
// Numbers are never given twice in a process's life, so a read thread still showing a listing's old
// overlay counts for the right listing. Aggregates only: no request, address or person is recorded.

/** Listings a process can count for in its life (2 × 4 bytes each; untouched pages cost no memory). */
export const LISTING_COUNTER_CAPACITY = 1 << 16;

/** Which counter of a listing a read adds to. */
export const ListingCount = {
  /** The partner object was in a nearest or area answer (REST, MCP, the finder page). */
  Shown: 0,
  /** The toilet was opened: getToilet (REST, MCP) or its page /t/<id>. */
  Opened: 1,
} as const;
export type ListingCount = (typeof ListingCount)[keyof typeof ListingCount];

export class ListingCounters {
  readonly counts: Int32Array;

  /** Counters over shared memory: a new block (the main thread), or the main thread's (a read thread). */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(LISTING_COUNTER_CAPACITY * 2 * Int32Array.BYTES_PER_ELEMENT)) {
    this.counts = new Int32Array(buffer);
  }

  get capacity(): number {
    return this.counts.length >> 1;
  }

  /** Counts one showing or opening of the listing with this counter number (-1: not counted). */
  add(counter: number, what: ListingCount): void {
    if (counter >= 0) Atomics.add(this.counts, 2 * counter + what, 1);
  }

  /** The counts since the last take, leaving them in place. */
  peek(counter: number, what: ListingCount): number {
    return Atomics.load(this.counts, 2 * counter + what);
  }

  /** Takes the counts since the last take, setting them to 0 in the same step. */
  take(counter: number, what: ListingCount): number {
    return Atomics.exchange(this.counts, 2 * counter + what, 0);
  }

  /** Puts taken counts back (their write failed): the next take has them again. */
  restore(counter: number, what: ListingCount, count: number): void {
    if (count !== 0) Atomics.add(this.counts, 2 * counter + what, count);
  }
}
