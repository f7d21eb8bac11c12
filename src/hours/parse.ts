// From a tag value and a place to a library object that evaluates it, or the reason it cannot.

import { subdivisionAt } from '../geo/where.js';
import { CANONICAL_REGION, mayUseHolidays, unresolvedHolidays, withoutHolidays } from './holidays.js';
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
// shared per value and holiday region. Values with sun times depend on the coordinates: they are shared
// within a 0.1° cell, where sunrise moves by less than half a minute.
const shared = new Map<string, ParseResult>();
const SHARED_LIMIT = 50_000;

export function parseForPlace(input: string, place: HoursPlace): ParseResult {
  const value = input.trim();
  const region = holidayRegion(value, place);
  const cell = usesSunTimes(value) ? `@${Math.round(place.lat * 10)},${Math.round(place.lon * 10)}` : '';
  const key = `${region.country}/${region.subdivision}${cell}/${value}`;
  let result = shared.get(key);
  if (result === undefined) {
    if (shared.size >= SHARED_LIMIT) shared.clear();
    result = parseAt(value, place, region);
    shared.set(key, result);
  }
  return result;
}

function parseAt(value: string, place: HoursPlace, region: HolidayRegion): ParseResult {
  const libraryPlaceHere = libraryPlace(place.lat, place.lon, region);
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

/** The holiday region matters only to values that may name holidays; others share one null region. */
function holidayRegion(value: string, place: HoursPlace): HolidayRegion {
  if (place.country === null || !mayUseHolidays(value)) return { country: null, subdivision: null };
  const country = place.country.toUpperCase();
  const subdivision = subdivisionAt(place.lat, place.lon);
  return { country, subdivision: subdivision !== null && subdivision.startsWith(country + '-') ? subdivision : null };
}
