// Dates, clock times, distances, walking times, amounts and week days in the page's language, all through
// Intl (no hand-made formats): shared by the server-rendered pages and the front end. Times the API gives
// are already the toilet's local time ("18:00" in closes_at), so they are formatted as wall-clock values in
// UTC, never shifted into the reader's time zone.
import { LOCALES, type Language } from './catalogue.js';

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>(key: string, make: () => T): T {
  let format = cache.get(key) as T | undefined;
  if (format === undefined) cache.set(key, (format = make()));
  return format;
}

/** "1 December 2026", "1 décembre 2026", … (a date of the API, in UTC). */
export function longDate(lang: Language, iso: string): string {
  return cached(`date:${lang}`, () => new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'long', timeZone: 'UTC' })).format(new Date(iso));
}

/** "December 2026" from "2026-12". */
export function monthYear(lang: Language, yearMonth: string): string {
  return cached(`month:${lang}`, () => new Intl.DateTimeFormat(LOCALES[lang], { month: 'long', year: 'numeric', timeZone: 'UTC' })).format(new Date(`${yearMonth}-01T00:00:00Z`));
}

/** A wall-clock time "HH:MM" (00:00 to 24:00) as the language writes it: "18:00", "24:00". */
export function clockTime(lang: Language, hhmm: string): string {
  const [hours, minutes] = hhmm.split(':').map(Number);
  const endOfDay = hours === 24;
  const format = cached(`clock:${lang}:${endOfDay}`, () =>
    new Intl.DateTimeFormat(LOCALES[lang], { hour: '2-digit', minute: '2-digit', timeZone: 'UTC', hourCycle: endOfDay ? 'h24' : 'h23' }));
  return format.format(Date.UTC(2024, 0, 1, endOfDay ? 0 : hours, minutes));
}

/** The time of closes_at ("2026-12-01T18:00:00+01:00", the toilet's local time) as the language writes it. */
export function closingTime(lang: Language, closesAt: string): string {
  const hhmm = /T(\d{2}:\d{2})/.exec(closesAt)?.[1];
  return hhmm === undefined ? closesAt : clockTime(lang, hhmm);
}

/** "350 m", "1.3 km", "1,3 km". */
export function distance(lang: Language, meters: number): string {
  if (meters < 1000) return cached(`m:${lang}`, () => new Intl.NumberFormat(LOCALES[lang], { style: 'unit', unit: 'meter', maximumFractionDigits: 0 })).format(meters);
  return cached(`km:${lang}`, () => new Intl.NumberFormat(LOCALES[lang], { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 })).format(meters / 1000);
}

/** "5 minutes", "1 minute", "5 Minuten" (the unit's plural by Intl). */
export function walkingTime(lang: Language, minutes: number): string {
  return cached(`min:${lang}`, () => new Intl.NumberFormat(LOCALES[lang], { style: 'unit', unit: 'minute', unitDisplay: 'long' })).format(minutes);
}

/** "€0.50", "0,50 €"; an unknown currency code as "0.50 XYZ"; no currency: the number alone. */
export function amount(lang: Language, value: number, currency: string | null): string {
  const digits = Number.isInteger(value) ? 0 : 2;
  if (currency !== null && /^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency, minimumFractionDigits: digits }).format(value);
    } catch {
      // not a currency Intl knows: the number and the code as given
    }
  }
  const number = cached(`amount:${lang}:${digits}`, () => new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: digits })).format(value);
  return currency ? `${number} ${currency}` : number;
}

/** A number with at most `digits` decimals ("4.5", "4,5"). */
export function decimal(lang: Language, value: number, digits = 1): string {
  return cached(`dec:${lang}:${digits}`, () => new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: digits })).format(value);
}

/** The name of a weekday, 0 = Monday, starting with a capital letter as a table's row heading. */
export function weekdayName(lang: Language, day: number): string {
  const name = cached(`weekday:${lang}`, () => new Intl.DateTimeFormat(LOCALES[lang], { weekday: 'long', timeZone: 'UTC' })).format(Date.UTC(2024, 0, 1 + day));
  return name.charAt(0).toLocaleUpperCase(LOCALES[lang]) + name.slice(1);
}

/**
 * Opening spans ["08:00–12:00", "14:00–18:00"] as the language lists them: "08:00–12:00 et 14:00–18:00"
 * (word joiners beside each dash, so a narrow table breaks a line between spans, never inside one).
 */
export function spanList(lang: Language, spans: string[]): string {
  const written = spans.map((span) => span.split('–').map((time) => clockTime(lang, time)).join('\u2060–\u2060'));
  return cached(`list:${lang}`, () => new Intl.ListFormat(LOCALES[lang], { type: 'unit', style: 'short' })).format(written);
}
