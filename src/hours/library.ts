// Thin boundary around the opening_hours library: how it wants its place, how it reports problems.

import OpeningHours, { type nominatim_object, type optional_conf } from 'opening_hours';
import { requireUtcProcessZone } from './process-zone.js';

requireUtcProcessZone();

export type { OpeningHours };

/** Region whose holiday calendars apply: ISO 3166-1 alpha-2 country and optional ISO 3166-2 subdivision. */
export interface HolidayRegion {
  country: string | null;
  subdivision: string | null;
}

/**
 * The library wants a Nominatim reverse-geocoding result. Nominatim's JSON carries lat/lon as strings and
 * the library only reads them when they are strings (its index.d.ts says number). The subdivision goes in
 * Nominatim's ISO3166-2-lvl4 field, which the library matches against the state codes of its holiday data.
 */
interface NominatimPlace {
  lat: string;
  lon: string;
  address: { country_code?: string; 'ISO3166-2-lvl4'?: string };
}

export function libraryPlace(lat: number, lon: number, region: HolidayRegion): nominatim_object {
  const address: NominatimPlace['address'] = {};
  if (region.country !== null) address.country_code = region.country.toLowerCase();
  if (region.subdivision !== null) address['ISO3166-2-lvl4'] = region.subdivision;
  const place: NominatimPlace = { lat: String(lat), lon: String(lon), address };
  return place as unknown as nominatim_object;
}

/**
 * Runs library code with console.error muted: the library logs every "no holiday data" message right
 * before throwing it, and we catch and handle each of those throws.
 */
export function quietly<T>(run: () => T): T {
  const log = console.error;
  console.error = () => {};
  try {
    return run();
  } finally {
    console.error = log;
  }
}

/** Parses a value for a place; throws the library's message (a string) when it cannot. */
export function parseWithLibrary(value: string, place: nominatim_object): OpeningHours {
  return quietly(() => new OpeningHours(value, place, OPTIONS));
}

// tag_key selects time-range mode and the opening_hours checks; English messages become `reason`.
const OPTIONS: optional_conf = {
  tag_key: 'opening_hours',
  locale: 'en',
  mode: undefined,
  map_value: undefined,
  warnings_severity: undefined,
};

// Warnings that mean the library guessed tokens from free words ("daylight" → sunrise-sunset, "Segunda" →
// Mo, "feiertags" → PH). The value is then not opening_hours syntax but text the library reinterpreted.
const GUESSED_WORDS = new Set(['word_error_correction', 'ambiguous_word']);

/** The library's message for the first guessed word in a parsed value, or null when it guessed none. */
export function guessedWordMessage(parsed: OpeningHours): string | null {
  const guess = parsed.getStructuredWarnings().find((warning) => GUESSED_WORDS.has(warning.type));
  return guess === undefined ? null : oneLine(guess.message);
}

/** Whether a value names sun times, whose clock times depend on the coordinates. */
export function usesSunTimes(value: string): boolean {
  return /sunrise|sunset|dawn|dusk/i.test(value);
}

/** One-line text of anything the library (or JS) threw. */
export function oneLine(thrown: unknown): string {
  const text = thrown instanceof Error ? thrown.message : String(thrown);
  return text.replace(/\s+/g, ' ').trim();
}

/** The library's canonical text of each rule and the separators between them (`; `, `, `, ` || `). */
export function canonicalRules(parsed: OpeningHours): { rules: string[]; separators: string[] } {
  const whole = parsed.prettifyValue();
  const rules: string[] = [];
  const separators: string[] = [];
  let end = 0;
  // prettifyValue({rule_index}) prints one rule; past the last rule it prints ''.
  for (let index = 0; end < whole.length; index++) {
    const rule = parsed.prettifyValue({ rule_index: index });
    if (rule === '') break;
    const start = whole.indexOf(rule, end);
    if (index > 0) separators.push(whole.slice(end, start));
    rules.push(rule);
    end = start + rule.length;
  }
  return { rules, separators };
}
