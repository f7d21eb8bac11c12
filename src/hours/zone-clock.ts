// UTC offsets and local wall clocks of an IANA zone, from Intl (one cached formatter per zone).
// "Wall time" below means epoch milliseconds whose UTC fields read as the zone's local date and time.

const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;
const DAY_MS = 86_400_000;

// Intl's 'longOffset' name: "GMT" for zero, else "GMT+05:30" (seconds only for historic mean times).
const OFFSET_NAME = /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/;

export class ZoneClock {
  readonly #offsetFormat: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    this.#offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  }

  /** Milliseconds to add to an instant to get the zone's wall time at that instant. */
  offsetAt(instantMs: number): number {
    const name = OFFSET_NAME.exec(this.#offsetFormat.format(instantMs));
    if (name === null) throw new Error(`unexpected offset name for ${this.timeZone}`);
    if (name[1] === undefined) return 0;
    const magnitude = Number(name[2]) * 60 * MINUTE_MS + Number(name[3]) * MINUTE_MS + Number(name[4] ?? 0) * SECOND_MS;
    return name[1] === '-' ? -magnitude : magnitude;
  }

  /**
   * First instant in (fromMs, toMs] whose offset differs from the offset at fromMs, or undefined.
   * Assumes at most one change in the window (true of every real zone for windows of a day).
   */
  nextOffsetChange(fromMs: number, toMs: number): number | undefined {
    const offset = this.offsetAt(fromMs);
    if (this.offsetAt(toMs) === offset) return undefined;
    // Zone transitions fall on whole seconds: bisect on a whole-second grid.
    let before = fromMs - (fromMs % SECOND_MS);
    let after = toMs;
    while (after - before > SECOND_MS) {
      const middle = before + Math.floor((after - before) / (2 * SECOND_MS)) * SECOND_MS;
      if (this.offsetAt(middle) === offset) before = middle;
      else after = middle;
    }
    return after;
  }

  /**
   * The first instant at or after notBeforeMs when the zone's clock reaches wallMs. A wall time repeated
   * by a backward change resolves to its first occurrence not before notBeforeMs; a wall time skipped by
   * a forward change resolves to the moment of the jump (when the clock passes it).
   */
  instantOfWall(wallMs: number, notBeforeMs: number): number {
    // At most one change lies within a day of the wall time: the offsets a day before and after bracket it.
    const earlierOffset = this.offsetAt(wallMs - DAY_MS);
    const laterOffset = this.offsetAt(wallMs + DAY_MS);
    // Candidate instants in time order (the larger offset reaches the wall time first); keep real ones.
    const candidates = [Math.max(earlierOffset, laterOffset), Math.min(earlierOffset, laterOffset)]
      .map((offset) => ({ offset, instant: wallMs - offset }))
      .filter(({ offset, instant }) => this.offsetAt(instant) === offset);
    if (candidates.length > 0) {
      return (candidates.find(({ instant }) => instant >= notBeforeMs) ?? candidates[candidates.length - 1]).instant;
    }
    // Skipped wall time: the clock jumps over it at the change between the two candidate instants.
    const start = wallMs - laterOffset;
    return this.nextOffsetChange(start, wallMs - earlierOffset) ?? start;
  }

  /** ISO 8601 local date-time with seconds and the zone's UTC offset, e.g. 2026-11-22T18:00:00+01:00. */
  localIso(instantMs: number): string {
    const offset = this.offsetAt(instantMs);
    const local = new Date(instantMs + offset).toISOString().slice(0, 19);
    const minutes = Math.abs(offset) / MINUTE_MS;
    const sign = offset < 0 ? '-' : '+';
    return `${local}${sign}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
  }
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

const clocks = new Map<string, ZoneClock>();

/** The shared clock for a zone; throws RangeError for a zone Intl does not know. */
export function zoneClock(timeZone: string): ZoneClock {
  let clock = clocks.get(timeZone);
  if (clock === undefined) {
    clock = new ZoneClock(timeZone);
    clocks.set(timeZone, clock);
  }
  return clock;
}
