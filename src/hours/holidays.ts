// Public (PH) and school (SH) holidays. The library only knows holiday calendars for some countries
// (no PH for Liechtenstein or Andorra, SH only for listed years) and refuses any value that names a
// calendar it lacks. Our rule: a holiday calendar we cannot resolve matches no day, so `Mo-Fr 08:00-18:00;
// PH off` there behaves like `Mo-Fr 08:00-18:00`, `Sa,PH 10:00-12:00` like `Sa 10:00-12:00`, and a rule
// that applies only on such holidays (`PH off`, `PH Mo-Fr 10:00-12:00`) is dropped.

import type { nominatim_object } from 'opening_hours';
import { canonicalRules, libraryPlace, parseWithLibrary, type HolidayRegion, type OpeningHours } from './library.js';

export type HolidayKind = 'PH' | 'SH';

const HOLIDAY_KINDS: readonly HolidayKind[] = ['PH', 'SH'];

/** Austria has country-wide PH and SH data: used only to obtain the library's canonical rules of a value. */
export const CANONICAL_REGION: HolidayRegion = { country: 'AT', subdivision: null };

/** Cheap pre-check: whether a value may name a holiday calendar at all. */
export function mayUseHolidays(value: string): boolean {
  return /PH|SH/i.test(value);
}

const unresolvedByRegion = new Map<string, ReadonlySet<HolidayKind>>();
const lackedByRegion = new Map<string, boolean>();

/** Holiday kinds the library has no calendar for in this region (probed once per region and kind). */
export function unresolvedHolidays(region: HolidayRegion): ReadonlySet<HolidayKind> {
  const key = `${region.country}/${region.subdivision}`;
  let unresolved = unresolvedByRegion.get(key);
  if (unresolved === undefined) {
    unresolved = new Set(HOLIDAY_KINDS.filter((kind) => lacksCalendar(region, kind)));
    unresolvedByRegion.set(key, unresolved);
  }
  return unresolved;
}

/** Whether the library has no calendar of this kind for the region: one parse per region and kind. */
export function lacksCalendar(region: HolidayRegion, kind: HolidayKind): boolean {
  const key = `${kind}/${region.country}/${region.subdivision}`;
  let lacks = lackedByRegion.get(key);
  if (lacks === undefined) {
    lacks = !parses(`${kind} off`, libraryPlace(0, 0, region));
    lackedByRegion.set(key, lacks);
  }
  return lacks;
}

/** The holiday kinds a parsed value names (in the library's canonical rules). */
export function namedHolidays(parsed: OpeningHours): HolidayKind[] {
  return HOLIDAY_KINDS.filter((kind) => withoutHolidays(parsed, new Set([kind])) !== null);
}

function parses(value: string, place: nominatim_object): boolean {
  try {
    parseWithLibrary(value, place);
    return true;
  } catch {
    return false;
  }
}

/**
 * Rewrites a parsed value so that the given holiday kinds match no day (see the module comment).
 * Works on the library's canonical form, where a rule reads `[selectors] [state] ["comment"]`, day lists
 * are comma-joined without spaces (`Sa,Su,PH`) and a holiday may carry an offset (`PH -1 day`).
 * Returns `off` when no rule is left (every rule applied only on those holidays), and null when the value
 * names none of those kinds.
 */
export function withoutHolidays(parsed: OpeningHours, kinds: ReadonlySet<HolidayKind>): string | null {
  const { rules, separators } = canonicalRules(parsed);
  const kind = `(?:${[...kinds].join('|')})(?: [+-]\\d+ days?)?`;
  const listedAfterAnother = new RegExp(`,${kind}(?=[ ,]|$)`, 'g');
  const listedBeforeAnother = new RegExp(`(^| )${kind},`, 'g');
  const alone = new RegExp(`(?:^| )${kind}(?= |$)`);
  let kept = '';
  let changed = false;
  rules.forEach((rule, index) => {
    const commentAt = rule.indexOf('"');
    const selectors = commentAt === -1 ? rule : rule.slice(0, commentAt);
    const remaining = selectors.replace(listedAfterAnother, '').replace(listedBeforeAnother, '$1');
    if (remaining !== selectors) changed = true;
    if (alone.test(remaining)) {
      changed = true;
      return;
    }
    const rewritten = remaining + (commentAt === -1 ? '' : rule.slice(commentAt));
    kept += kept === '' ? rewritten : separators[index - 1] + rewritten;
  });
  if (!changed) return null;
  return kept === '' ? 'off' : kept;
}
