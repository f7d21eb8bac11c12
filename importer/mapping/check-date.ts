// Doc §3.2: provenance.checked, the latest survey/check date on the object as YYYY-MM.

import type { Tags } from './tags.js';

/** Check keys besides `check_date`, `check_date:<key>` and `<key>:check_date`. */
const CHECK_KEYS = new Set(['check_date', 'survey:date', 'survey_date', 'last_checked', 'lastcheck', 'checked_exists:date']);
const TOILETS_PREFIX = 'toilets:';

function isCheckKey(key: string): boolean {
  return CHECK_KEYS.has(key) || key.startsWith('check_date:') || key.endsWith(':check_date');
}

/** A check that is about a host's toilets: `toilets:check_date`, `check_date:toilets`, `toilets:wheelchair:check_date` … */
function isToiletCheckKey(key: string): boolean {
  return (
    (key.startsWith(TOILETS_PREFIX) && isCheckKey(key.slice(TOILETS_PREFIX.length))) ||
    key === 'check_date:toilets' ||
    key.startsWith('check_date:toilets:')
  );
}

const ISO_DATE = /^(\d{4})[-/.](\d{1,2})(?:[-/.](\d{1,2}))?(?:[t ].*)?$/;
const DOTTED_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
const SLASHED_DATE = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/;
const MONTH_YEAR = /^(\d{1,2})[./](\d{4})$/;
/** Before OpenStreetMap existed: not a survey of this object. */
const FIRST_YEAR = 2004;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** YYYYMMDD as a number (DD = 00 for month-only dates), or 0 when invalid. */
function dateNumber(year: number, month: number, day: number): number {
  if (year < FIRST_YEAR || month < 1 || month > 12 || day < 0 || day > daysInMonth(year, month)) return 0;
  return year * 10000 + month * 100 + day;
}

/**
 * One date item: YYYY-MM-DD, YYYY-MM, YYYY-MM-DDThh:mm…, DD.MM.YYYY, MM/YYYY, and DD/MM/YYYY or
 * MM/DD/YYYY when one part is above 12 or both are equal. A year alone has no month: 0.
 */
function parseDateItem(item: string): number {
  let m = ISO_DATE.exec(item);
  if (m !== null) return m[3] === undefined ? dateNumber(+m[1], +m[2], 0) : dateNumber(+m[1], +m[2], +m[3] || -1);
  m = DOTTED_DATE.exec(item);
  if (m !== null) return dateNumber(+m[3], +m[2], +m[1] || -1);
  m = SLASHED_DATE.exec(item);
  if (m !== null) {
    const a = +m[1];
    const b = +m[2];
    if (a > 12 || a === b) return dateNumber(+m[3], b, a || -1);
    if (b > 12) return dateNumber(+m[3], a, b);
    return 0;
  }
  m = MONTH_YEAR.exec(item);
  return m === null ? 0 : dateNumber(+m[2], +m[1], 0);
}

/** Latest valid date of a value (a `;` list takes its latest item) not after `limit`, or 0. */
function latestOfValue(value: string, limit: number): number {
  let latest = 0;
  for (const raw of value.includes(';') ? value.split(';') : [value]) {
    const date = parseDateItem(raw.trim().toLowerCase());
    if (date > latest && date <= limit) latest = date;
  }
  return latest;
}

function latestCheck(tags: Tags, limit: number, keyFilter: (key: string) => boolean): number {
  let latest = 0;
  const keys = Object.keys(tags); // fewer steps than for…in on the dictionary-mode objects the importer passes
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (!keyFilter(key)) continue;
    const date = latestOfValue(tags[key], limit);
    if (date > latest) latest = date;
  }
  return latest;
}

// One import uses one extract date: remember its YYYYMMDD instead of building a Date per toilet.
let lastExtractDate: number | null = null;
let lastLimit = Number.MAX_SAFE_INTEGER;

function extractLimit(extractDate: number | null): number {
  if (extractDate === null) return Number.MAX_SAFE_INTEGER;
  if (extractDate !== lastExtractDate) {
    const d = new Date(extractDate);
    lastLimit = d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
    lastExtractDate = extractDate;
  }
  return lastLimit;
}

/** Every check key has one of these in its name (CHECK_KEYS, `check_date:*`, `*:check_date`). */
const CHECK_KEY_PART = /check|date/;

/**
 * Doc §3.2: the latest valid check date as YYYY-MM, or null. Dates after `extractDate` (epoch ms) or
 * before 2004 are rejected. For a host toilet pass the host's tags as `hostTags` (for a `toilets=yes`
 * host that is the same object as `tags`): then only toilet-specific checks in `tags` count, and the
 * host's own checks are the fallback. `source:date` and edit timestamps are never checks. `tagsJson`, the
 * JSON text of `tags` when the caller has it, saves the walk over the keys of the ~80% of toilets that have
 * no check key: a JSON text in which neither part of a check key's name appears holds no check key.
 */
export function checkedMonth(tags: Tags, extractDate: number | null, hostTags?: Tags, tagsJson?: string): string | null {
  if (tagsJson !== undefined && (hostTags === undefined || hostTags === tags) && !CHECK_KEY_PART.test(tagsJson)) return null;
  const limit = extractLimit(extractDate);
  let latest: number;
  if (hostTags === undefined) latest = latestCheck(tags, limit, isCheckKey);
  else {
    latest = latestCheck(tags, limit, isToiletCheckKey);
    if (latest === 0) latest = latestCheck(hostTags, limit, isCheckKey);
  }
  if (latest === 0) return null;
  const month = Math.floor(latest / 100) % 100;
  return `${Math.floor(latest / 10000)}-${month < 10 ? '0' : ''}${month}`;
}
