// Evaluates one parsed opening_hours value at the toilet's local time, whatever the server's zone.
//
// The library evaluates Dates in the process zone, which requireUtcProcessZone() fixes to UTC. We hand it
// "wall-clock" Dates: the instant shifted by the toilet zone's UTC offset, so that the Date's UTC fields
// read as the toilet's local date and time. Its answers are wall times, which we turn back into instants.
// Within a stretch of constant offset this is exact; states are therefore never reused across an offset
// change (validUntil stops there), which also re-evaluates a wall-clock hour that a backward change repeats.
//
// Sun times: in the wall-clock frame the toilet behaves as if it stood on the meridian where UTC is its
// local time, i.e. its longitude minus 15° per hour of offset. The library then computes sunrise at the
// shifted longitude, whose UTC time is the toilet's local sunrise (to within seconds of declination drift).

import { withoutHolidays } from './holidays.js';
import { libraryPlace, parseWithLibrary, quietly, usesSunTimes, type OpeningHours } from './library.js';
import { parsedHours, type HoursPlace, type ParsedHours } from './parse.js';
import { requireUtcProcessZone } from './process-zone.js';
import { zoneClock, type ZoneClock } from './zone-clock.js';

export interface HoursState {
  readonly open_now: boolean | 'unknown';
  /** Next change from open to closed: local ISO 8601 date-time with offset; null unless open with a known closing. */
  readonly closes_at: string | null;
  /** Epoch ms until which this state stays true (next change, offset change, or at most a day ahead). */
  readonly validUntil: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A state is reused at most this long, so that long-running processes follow date-bound rules. */
const MAX_VALIDITY_MS = DAY_MS;
/** How far ahead the next change (and so closes_at) is searched: 8 days cover any weekly schedule. */
const LOOKAHEAD_MS = 8 * DAY_MS;
/** After a failed evaluation (e.g. `sunrise` in polar night), answer 'unknown' for this long, then retry. */
const RETRY_AFTER_ERROR_MS = HOUR_MS;
/** The sun crosses 15° of longitude per hour. */
const OFFSET_MS_PER_DEGREE = HOUR_MS / 15;

/**
 * Library objects of sun-time values at their shifted longitudes, least recently used first. One costs
 * ~20 KB and a parse ~0.1 ms, and a value needs it only when its memoised state runs out (at its next
 * sunrise or sunset, at the latest within a day): keeping one per toilet cell forever made a server
 * that had shown every toilet of the world ~75 MB larger per thread, for parses saved a few times a day.
 */
const sunLibraries = new Map<string, OpeningHours>();
const SUN_LIBRARY_LIMIT = 256;

export class CompiledHours {
  readonly #clock: ZoneClock;
  readonly #place: HoursPlace;
  #hours: ParsedHours;
  #usesSunTimes: boolean;
  #state: HoursState | undefined;
  #stateSince = 0;

  constructor(parsed: ParsedHours, place: HoursPlace) {
    this.#clock = zoneClock(place.timeZone);
    this.#place = place;
    this.#hours = parsed;
    this.#usesSunTimes = usesSunTimes(parsed.value);
  }

  /** The state at an instant; the same object is returned while nowMs stays within its validity. */
  stateAt(nowMs: number): HoursState {
    const cached = this.#state;
    if (cached !== undefined && nowMs >= this.#stateSince && nowMs < cached.validUntil) return cached;
    const state = this.#evaluate(nowMs);
    this.#state = state;
    this.#stateSince = nowMs;
    return state;
  }

  #libraryAt(offsetMs: number): OpeningHours {
    if (!this.#usesSunTimes) return this.#hours.parsed;
    const { value, region } = this.#hours;
    const lat = this.#place.lat;
    const lon = this.#place.lon - offsetMs / OFFSET_MS_PER_DEGREE;
    const key = `${lat},${lon}/${region.country}/${region.subdivision}/${value}`;
    let library = sunLibraries.get(key);
    if (library === undefined) {
      library = parseWithLibrary(value, libraryPlace(lat, lon, region));
      if (sunLibraries.size >= SUN_LIBRARY_LIMIT) sunLibraries.delete(sunLibraries.keys().next().value!);
    } else {
      sunLibraries.delete(key);
    }
    sunLibraries.set(key, library); // last: the most recently used
    return library;
  }

  #evaluate(nowMs: number): HoursState {
    requireUtcProcessZone(); // cheap; repairs a TZ someone changed after import
    try {
      return quietly(() => this.#evaluateWithLibrary(nowMs));
    } catch {
      if (this.#dropSchoolHolidays()) return this.#evaluate(nowMs);
      return { open_now: 'unknown', closes_at: null, validUntil: nowMs + RETRY_AFTER_ERROR_MS };
    }
  }

  /**
   * School holiday data covers listed years only; past them the library throws. Then SH is treated like
   * an unresolvable calendar (holidays.ts). Returns false when there was no SH to drop.
   */
  #dropSchoolHolidays(): boolean {
    const { region, parsed } = this.#hours;
    const rewritten = withoutHolidays(parsed, new Set(['SH']));
    if (rewritten === null) return false;
    try {
      const place = libraryPlace(this.#place.lat, this.#place.lon, region);
      this.#hours = parsedHours(rewritten, region, parseWithLibrary(rewritten, place), true);
    } catch {
      return false; // not expected: the rewrite only removes selectors; keep answering 'unknown' then
    }
    return true;
  }

  #evaluateWithLibrary(nowMs: number): HoursState {
    const clock = this.#clock;
    const offset = clock.offsetAt(nowMs);
    const wall = new Date(nowMs + offset);
    const library = this.#libraryAt(offset);
    const [open, , unknown, , ruleIndex] = library.getStatePair(wall);
    const nextChange = library.getNextChange(wall, new Date(wall.getTime() + LOOKAHEAD_MS));

    const horizon = nowMs + MAX_VALIDITY_MS;
    let validUntil = clock.nextOffsetChange(nowMs, horizon) ?? horizon;
    if (nextChange !== undefined) validUntil = Math.min(validUntil, nextChange.getTime() - offset);

    if (unknown) {
      const openEnded = ruleIndex !== undefined && this.#hours.openEndRules.has(ruleIndex);
      return { open_now: openEnded ? true : 'unknown', closes_at: null, validUntil };
    }
    if (!open) return { open_now: false, closes_at: null, validUntil };
    return { open_now: true, closes_at: this.#closingAt(library, nextChange, nowMs), validUntil };
  }

  /**
   * closes_at while open: the next change must be to closed. A change to 'unknown' (including an open
   * end, whose closing the library only guesses) gives null: we do not know when it closes.
   */
  #closingAt(library: OpeningHours, nextChange: Date | undefined, nowMs: number): string | null {
    if (nextChange === undefined) return null;
    const [openThen, , unknownThen] = library.getStatePair(nextChange);
    if (openThen || unknownThen) return null;
    return this.#clock.localIso(this.#clock.instantOfWall(nextChange.getTime(), nowMs));
  }
}
