// opening_hours at the toilet's local time: validation at import, compiled evaluation on the read path.
//
// Semantics (spec "Toilet result item", docs/osm-toilet-tags.md §2.6):
// - open_now: true/false from the library at the toilet's local time; 'unknown' when the library says
//   unknown or the value is only a comment. An open end (`18:00+`) counts as open.
// - closes_at: set only while open, when the next state change (searched 8 days ahead) is to closed.
//   null when that change is to 'unknown' (we do not know the closing time; this includes the end of an
//   open end, which the library only guesses), and when nothing closes within 8 days (24/7).
//   Changes from open to open with another comment are not changes.
// - PH/SH: calendars come from the country and (where country-coder knows one) the ISO 3166-2 subdivision
//   at the coordinates. A calendar the library lacks (e.g. PH in Liechtenstein or Andorra, SH past its
//   listed years) matches no day: `Mo-Fr 08:00-18:00; PH off` there behaves like `Mo-Fr 08:00-18:00`.
// - Importing this module sets the process zone to UTC (see process-zone.ts); answers are the same
//   whatever TZ the server was started with.

import { CompiledHours } from './compiled-hours.js';
import { checkForPlace, parseForPlace, type HoursCheck, type HoursPlace, type ParsedHours } from './parse.js';
import { usesSunTimes } from './library.js';

export { CompiledHours, type HoursState } from './compiled-hours.js';
export type { HoursCheck, HoursPlace } from './parse.js';
export { requireUtcProcessZone } from './process-zone.js';

/**
 * Validates OSM opening_hours syntax for this place. ok=false when the library cannot parse the value or
 * reads it only by guessing from free words ("daylight hours", localised day names); reason is the
 * library's message on one line. Formatting warnings (`8-18`, a trailing `;`) do not fail.
 * holidaysUnresolved: the value names a PH/SH calendar the library lacks for this region (treated as
 * matching no day); the importer records it as QualityFlag.HolidaysUnresolved. Answers are shared per value
 * and holiday region (frozen objects); sun-time values are checked as syntax, at a place where the sun rises
 * and sets every day (see parse.ts).
 */
export function checkHours(value: string, place: HoursPlace): HoursCheck {
  return checkForPlace(value, place);
}

/**
 * Toilets whose hours parse to the same rules in the same zone share one CompiledHours, and so its memoised
 * state; with sun times, those in the same 0.1° cell (where sunrise moves by less than half a minute), and
 * the sun is the one at the cell's centre, so that every toilet there gets the same times whichever came first.
 */
const compiledByParse = new WeakMap<ParsedHours, Map<string, CompiledHours>>();
const SUN_CELLS_PER_DEGREE = 10;

/**
 * A value compiled for stateAt() at a place, or null when checkHours says ok=false. A sun-time value where
 * the sun does not rise or set that day (polar day or night) answers 'unknown' then (see compiled-hours.ts).
 * Throws RangeError for a time zone Intl does not know.
 */
export function compileHours(value: string, place: HoursPlace): CompiledHours | null {
  const parsed = parseForPlace(value, place);
  if ('reason' in parsed) return null;
  let byZone = compiledByParse.get(parsed);
  if (byZone === undefined) compiledByParse.set(parsed, (byZone = new Map()));
  const sun = usesSunTimes(parsed.value);
  const [latCell, lonCell] = sun ? [Math.round(place.lat * SUN_CELLS_PER_DEGREE), Math.round(place.lon * SUN_CELLS_PER_DEGREE)] : [0, 0];
  const key = sun ? `${place.timeZone}@${latCell},${lonCell}` : place.timeZone;
  let compiled = byZone.get(key);
  if (compiled === undefined) {
    const evaluatedAt = sun ? { ...place, lat: latCell / SUN_CELLS_PER_DEGREE, lon: lonCell / SUN_CELLS_PER_DEGREE } : place;
    byZone.set(key, (compiled = new CompiledHours(parsed, evaluatedAt)));
  }
  return compiled;
}
