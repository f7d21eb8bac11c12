// From a tag value and a place to a library object that evaluates it, or the reason it cannot.

import { subdivisionAt } from '../geo/where.js';
import { CANONICAL_REGION, lacksCalendar, mayUseHolidays, namedHolidays, unresolvedHolidays, withoutHolidays, type HolidayKind } from './holidays.js';
import {
  canonicalRules,
  guessedWordMessage,
  libraryPlace,
  oneLine,
  parseWithLibrary,
  usesSunTimes,
  type HolidayRegion,
  type OpeningHours,
} from './library.js';

/** Where a toilet is: the coordinates (sun times), country (holidays) and IANA zone (local time). */
export interface HoursPlace {
  lat: number;
  lon: number;
  country: string | null;
  timeZone: string;
}

export interface ParsedHours {
  /** The value the library evaluates: the trimmed input, or its rewrite without unresolvable holidays. */
  value: string;
  region: HolidayRegion;
  parsed: OpeningHours;
  /** A PH/SH calendar named by the value is unknown for the region and was treated as matching no day. */
  holidaysUnresolved: boolean;
  /** Indexes of rules with an open end (`18:00+`): the library calls those times 'unknown'; we call them open. */
  openEndRules: ReadonlySet<number>;
}

/** An open end: `+` right after a time, e.g. `18:00+` or `10:00-sunset+`. */
const OPEN_END = /[^\s,]\+(?=[\s,]|$)/;

export function parsedHours(
  value: string,
  region: HolidayRegion,
  parsed: OpeningHours,
  holidaysUnresolved: boolean,
): ParsedHours {
  const openEndRules = new Set<number>();
  if (value.includes('+')) {
    canonicalRules(parsed).rules.forEach((rule, index) => {
      const commentAt = rule.indexOf('"');
      if (OPEN_END.test(commentAt === -1 ? rule : rule.slice(0, commentAt))) openEndRules.add(index);
    });
  }
  return { value, region, parsed, holidaysUnresolved, openEndRules };
}

type ParseResult = ParsedHours | { reason: string };

// Most values repeat across toilets (24/7, Mo-Su 08:00-20:00 …) and a parse costs ~0.3 ms, so results are
// shared per value and holiday region. That holds for values with sun times too: their parse here gives the
// rules and whether the value is valid, both the same everywhere, so it is made at SUN_CHECK_PLACE (below);
// the clock times of their sun events come from parses at the toilet's place, made when evaluating
// (compiled-hours.ts).
const shared = new Map<string, ParseResult>();
const SHARED_LIMIT = 50_000;
const SUN_CHECK_PLACE = { lat: 0, lon: 0 };

export function parseForPlace(input: string, place: HoursPlace): ParseResult {
  const value = input.trim();
  const region = holidayRegion(value, place);
  const key = `${region.country}/${region.subdivision}/${value}`;
  let result = shared.get(key);
  if (result === undefined) {
    if (shared.size >= SHARED_LIMIT) shared.clear();
    result = parseAt(value, usesSunTimes(value) ? { ...place, ...SUN_CHECK_PLACE } : place, region);
    shared.set(key, result);
  }
  return result;
}

export type HoursCheck = { ok: true; holidaysUnresolved: boolean } | { ok: false; reason: string };

// Import checks one value per toilet and most values repeat. A check depends on the value and its holiday
// region only, except through sun times: the library's check evaluates the value from the current moment at
// the place, which fails wherever a sun event does not happen that day (polar day or night, and days on which
// the event crosses midnight UTC). That is not a property of the syntax, so sun-time values are checked (and
// parsed, see parseForPlace) at one fixed place where every sun event happens every day, and answers are
// shared per value and region.
const checks = new Map<string, HoursCheck>();

export function checkForPlace(input: string, place: HoursPlace): HoursCheck {
  const value = input.trim();
  const region = holidayRegion(value, place);
  const key = `${region.country}/${region.subdivision}/${value}`;
  let check = checks.get(key);
  if (check === undefined) {
    check = checkWithItsCalendars(value, place, region) ?? checkOf(parseForPlace(value, place));
    if (checks.size >= SHARED_LIMIT) checks.clear();
    checks.set(key, check);
  }
  return check;
}

function checkOf(parsed: ParseResult): HoursCheck {
  return Object.freeze('reason' in parsed ? { ok: false, reason: parsed.reason } : { ok: true, holidaysUnresolved: parsed.holidaysUnresolved });
}

const VALID_WITH_CALENDARS: HoursCheck = Object.freeze({ ok: true, holidaysUnresolved: false });

/**
 * The check of a value naming public holidays in a region that has their calendar: the library reads it there
 * as where every calendar exists, so the value's canonical parse answers without a parse for the region. An
 * import meets each such value in hundreds of regions, and a parse costs ~0.3–1 ms. Null when that does not
 * hold or is not known: no country, sun times, a canonical parse that fails or guesses words, a calendar the
 * region lacks (then the value is rewritten, see knownRewrite), or school holidays, which the library lists
 * per year: a region can have them, but not for this year, which only a parse of the value itself shows.
 */
function checkWithItsCalendars(value: string, place: HoursPlace, region: HolidayRegion): HoursCheck | null {
  if (region.country === null || usesSunTimes(value)) return null;
  const named = holidaysNamedBy(value, place);
  if (named === null || named.includes('SH')) return null;
  for (const kind of named) if (lacksCalendar(region, kind)) return null;
  return VALID_WITH_CALENDARS;
}

const namedByValue = new Map<string, HolidayKind[] | null>();

/** The holiday kinds a value names, from its canonical parse; null when that parse fails or guesses. */
function holidaysNamedBy(value: string, place: HoursPlace): HolidayKind[] | null {
  let named = namedByValue.get(value);
  if (named === undefined) {
    const canonical = canonicalParse(value, place);
    try {
      named = canonical === null ? null : namedHolidays(canonical);
    } catch {
      named = null; // the library could not print its rules: the value takes the parse per region
    }
    if (namedByValue.size >= SHARED_LIMIT) namedByValue.clear();
    namedByValue.set(value, named);
  }
  return named;
}

function parseAt(value: string, place: HoursPlace, region: HolidayRegion): ParseResult {
  const libraryPlaceHere = libraryPlace(place.lat, place.lon, region);
  const rewritten = knownRewrite(value, place, region);
  if (rewritten !== null) {
    const parsed = rewrittenParse(rewritten, libraryPlaceHere);
    return parsed instanceof Error ? { reason: oneLine(parsed.message) } : parsedHours(rewritten, region, parsed, true);
  }
  try {
    const parsed = parseWithLibrary(value, libraryPlaceHere);
    const guess = guessedWordMessage(parsed);
    return guess === null ? parsedHours(value, region, parsed, false) : { reason: guess };
  } catch (error) {
    const unresolved = unresolvedHolidays(region);
    if (unresolved.size === 0) return { reason: oneLine(error) };
    // Parse where every calendar exists to learn the rules, then drop the unresolvable holidays.
    try {
      const canonical = parseWithLibrary(value, libraryPlace(place.lat, place.lon, CANONICAL_REGION));
      const guess = guessedWordMessage(canonical);
      if (guess !== null) return { reason: guess };
      const rewritten = withoutHolidays(canonical, unresolved);
      if (rewritten === null) return { reason: oneLine(error) };
      return parsedHours(rewritten, region, parseWithLibrary(rewritten, libraryPlaceHere), true);
    } catch (canonicalError) {
      return { reason: oneLine(canonicalError) };
    }
  }
}

// The fallback above costs three parses per value and region, and most regions lack some calendar. The library
// looks a holiday calendar up for every PH/SH selector as it parses, and throws when the region lacks it (which
// is how unresolvedHolidays probes), so a value whose canonical rules name a calendar the region lacks is
// refused there for certain: such values go straight to their rewrite, and the canonical parse and the rewrite
// are shared per value. Values the library reads only by guessing words are left to the fallback (the region's
// languages may read them differently), as are sun-time values (their canonical parse depends on the place).
const canonicalByValue = new Map<string, OpeningHours | null>();
const rewrites = new Map<string, string | null>();

// A rewrite that names no calendar at all parses the same in every region: one parse per rewrite.
const parsesOfRewrites = new Map<string, OpeningHours | Error>();

function rewrittenParse(rewritten: string, place: ReturnType<typeof libraryPlace>): OpeningHours | Error {
  const shared = !mayUseHolidays(rewritten);
  let parsed = shared ? parsesOfRewrites.get(rewritten) : undefined;
  if (parsed === undefined) {
    try {
      parsed = parseWithLibrary(rewritten, place);
    } catch (error) {
      parsed = new Error(oneLine(error));
    }
    if (shared) {
      if (parsesOfRewrites.size >= SHARED_LIMIT) parsesOfRewrites.clear();
      parsesOfRewrites.set(rewritten, parsed);
    }
  }
  return parsed;
}

/** The value parsed where every calendar exists (shared per value; sun-time values excepted by callers), or null when it fails or guesses words. */
function canonicalParse(value: string, place: HoursPlace): OpeningHours | null {
  let canonical = canonicalByValue.get(value);
  if (canonical === undefined) {
    try {
      canonical = parseWithLibrary(value, libraryPlace(place.lat, place.lon, CANONICAL_REGION));
      if (guessedWordMessage(canonical) !== null) canonical = null;
    } catch {
      canonical = null;
    }
    if (canonicalByValue.size >= SHARED_LIMIT) canonicalByValue.clear();
    canonicalByValue.set(value, canonical);
  }
  return canonical;
}

/** The rewrite of `value` without the calendars `region` lacks, when the library certainly refuses `value` there. */
function knownRewrite(value: string, place: HoursPlace, region: HolidayRegion): string | null {
  if (region.country === null || usesSunTimes(value)) return null;
  // Only the calendars the value names matter, so only those are probed in the region.
  const lacking = holidaysNamedBy(value, place)?.filter((kind) => lacksCalendar(region, kind)) ?? [];
  if (lacking.length === 0) return null;
  const key = `${lacking.join(',')}/${value}`;
  let rewritten = rewrites.get(key);
  if (rewritten === undefined) {
    try {
      rewritten = withoutHolidays(canonicalParse(value, place)!, new Set(lacking));
    } catch {
      rewritten = null;
    }
    if (rewrites.size >= SHARED_LIMIT) rewrites.clear();
    rewrites.set(key, rewritten);
  }
  return rewritten;
}

/** The holiday region matters only to values that may name holidays; others share one null region. */
function holidayRegion(value: string, place: HoursPlace): HolidayRegion {
  if (place.country === null || !mayUseHolidays(value)) return { country: null, subdivision: null };
  const country = place.country.toUpperCase();
  const subdivision = subdivisionAt(place.lat, place.lon);
  return { country, subdivision: subdivision !== null && subdivision.startsWith(country + '-') ? subdivision : null };
}
