// Doc §2.5: amount and currency from a `charge` (or an amount misplaced in `fee`).

import { currencyOfCountry, currencyToken, minorDigits, resolveToken, tokenDivisor } from '../../src/rules/currency.js';
import { normaliseEnum } from './tags.js';

export interface Charge {
  /** >= 0, rounded to the currency's minor unit; 0 means free. */
  amount: number;
  /** ISO 4217, or null when the text names none we can resolve at this country. */
  currency: string | null;
  /** The currency came from the country for a bare number (lowers confidence). */
  currencyInferred: boolean;
}

/** Old-proposal conditions in front of an amount: "May-Oct 1.50 EUR", "Mo-Fr 08:00-18:00 0.50 EUR". */
const CONDITION_PREFIX =
  /^(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mo|tu|we|th|fr|sa|su|ph|sh)(?=[\s,:–-]|$)|\d{1,2}:\d{2}|[\s,–-])+/;
const CONDITION_WORD = /[a-z:]/;
/** "/person", "per visit": the unit an amount is for. */
const PER_UNIT = /\s*(?:\/|\bper\b)\s*(.*)$/;
/** Units that count as the normal price of one visit (doc §2.5 step 5); other units drop the item. */
const VISIT_UNITS = new Set(['person', 'persons', 'people', 'pers', 'pp', 'use', 'usage', 'visit', 'entry', 'adult', 'adults', 'time']);
/** Words that mean an amount of 0. */
const FREE_WORDS = new Set(['free', 'gratis', 'kostenlos', 'gratuit', 'gratuito', 'zdarma']);
const NUMBER = String.raw`(\d+(?:[.,]\d+)*|[.,]\d+)`;
/** [words] number [words] [- [words] number [words]]: words are currency symbols, codes or minor units. */
const AMOUNT = new RegExp(String.raw`^([^\d]*?)\s*${NUMBER}\s*([^\d]*?)(?:\s*[-–]\s*([^\d]*?)\s*${NUMBER}\s*([^\d]*?))?$`);

/** True when the text is only weekdays, months and times, i.e. a time range written into `fee`. */
export function isConditionOnly(normalised: string): boolean {
  const match = CONDITION_PREFIX.exec(normalised);
  return match !== null && match[0].length === normalised.length && CONDITION_WORD.test(normalised);
}

interface Denomination {
  currency: string | null;
  divisor: number;
}

function denominationOf(side: string | undefined, country: string | null): Denomination | null | undefined {
  const word = side?.trim() ?? '';
  if (word === '') return null;
  const token = currencyToken(word);
  return token === undefined ? undefined : { currency: resolveToken(token, country), divisor: tokenDivisor(token) };
}

/**
 * The currency words around one number: null when there are none, undefined when a word names no
 * currency (the item is garbage) or the two sides disagree ("$1 EUR").
 */
function denomination(before: string | undefined, after: string | undefined, country: string | null): Denomination | null | undefined {
  const left = denominationOf(before, country);
  const right = denominationOf(after, country);
  if (left === undefined || right === undefined) return undefined;
  if (left === null || right === null) return left ?? right;
  return left.currency === right.currency && left.divisor === right.divisor ? left : undefined;
}

/**
 * Reads "1.000,50", "0,50", "1,000,000". One separator is a decimal mark, except that three digits after
 * it in a currency without minor units (JPY, HUF, ISK …) make it a thousands separator.
 */
function parseNumber(text: string, zeroDecimals: boolean): number {
  const lastDot = text.lastIndexOf('.');
  const lastComma = text.lastIndexOf(',');
  if (lastDot < 0 && lastComma < 0) return Number(text);
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    if (text.indexOf(decimal) !== text.lastIndexOf(decimal)) return Number.NaN;
    return Number(text.replaceAll(decimal === '.' ? ',' : '.', '').replace(',', '.'));
  }
  const separator = lastDot >= 0 ? '.' : ',';
  const last = Math.max(lastDot, lastComma);
  if (text.indexOf(separator) !== last) return Number(text.replaceAll(separator, ''));
  const thousands = zeroDecimals && text.length - last - 1 === 3;
  return Number(thousands ? text.replace(separator, '') : text.replace(',', '.'));
}

interface Item extends Charge {
  conditional: boolean;
}

/** One `;` item; null when it is garbage or priced per a unit other than a visit. */
function parseItem(item: string, country: string | null): Item | null {
  if (FREE_WORDS.has(item)) return { amount: 0, currency: null, currencyInferred: false, conditional: false };
  let text = item;
  let conditional = false;
  const at = text.indexOf('@');
  if (at >= 0) {
    text = text.slice(0, at);
    conditional = true;
  } else {
    const prefix = CONDITION_PREFIX.exec(text)?.[0];
    if (prefix !== undefined && CONDITION_WORD.test(prefix) && currencyToken(prefix.trim()) === undefined) {
      text = text.slice(prefix.length);
      conditional = true;
    }
  }
  const unit = PER_UNIT.exec(text);
  if (unit !== null) {
    if (!VISIT_UNITS.has(unit[1].trim())) return null;
    text = text.slice(0, unit.index);
  }
  const parts = AMOUNT.exec(text.trim());
  if (parts === null) return null;
  const first = denomination(parts[1], parts[3], country);
  const ranged = parts[5] !== undefined;
  const second = ranged ? denomination(parts[4], parts[6], country) : null;
  if (first === undefined || second === undefined) return null;
  if (first !== null && second !== null && first.currency !== second.currency) return null;
  const named = first ?? second;
  const bare = named === null;
  const currency = bare ? currencyOfCountry(country) : named.currency;
  const zeroDecimals = currency !== null && minorDigits(currency) === 0;
  // In "0.50-1.00 EUR" the words after the range apply to both numbers.
  let amount = parseNumber(parts[2], zeroDecimals) / ((first ?? second)?.divisor ?? 1);
  if (ranged) amount = Math.min(amount, parseNumber(parts[5], zeroDecimals) / ((second ?? first)?.divisor ?? 1));
  if (Number.isNaN(amount)) return null;
  // A bare 0 is free whatever the country; it needs no currency.
  if (bare) return amount === 0 ? { amount, currency: null, currencyInferred: false, conditional } : { amount, currency, currencyInferred: currency !== null, conditional };
  return { amount, currency, currencyInferred: false, conditional };
}

/** Round half up to the minor unit; the epsilon keeps "1.005" (binary 1.00499…) from rounding down. */
function round(amount: number, currency: string | null): number {
  if (currency === null) return amount;
  const factor = 10 ** minorDigits(currency);
  return Math.round(amount * factor * (1 + Number.EPSILON)) / factor;
}

/**
 * Doc §2.5: parses a charge such as "0.50 EUR", "EUR 0.50", "€0,50", "50p", "2 zł", "0.50-1.00 EUR",
 * "0.50 EUR/person; 0.20 EUR/child", "May-Oct 1.50 EUR". `country` (ISO 3166-1 alpha-2) resolves `$`,
 * `kr`, cents and bare numbers. Several items: unconditional ones first, then the lowest amount; a
 * currency only when all of them share it. Null when nothing parses.
 */
export function parseCharge(value: string, country: string | null): Charge | null {
  const normalised = normaliseEnum(value);
  const items = normalised.includes(';') ? normalised.split(';') : [normalised];
  let best: Item | null = null;
  let sharedCurrency = true;
  let inferred = false;
  for (const raw of items) {
    const item = parseItem(raw.trim(), country);
    if (item === null) continue;
    // Unconditional items replace conditional ones; within one kind, the lowest amount wins.
    if (best === null || (best.conditional && !item.conditional)) {
      best = item;
      sharedCurrency = true;
      inferred = item.currencyInferred;
      continue;
    }
    if (item.conditional && !best.conditional) continue;
    sharedCurrency &&= item.currency === best.currency;
    inferred ||= item.currencyInferred;
    if (item.amount < best.amount) best = item;
  }
  if (best === null) return null;
  const currency = sharedCurrency ? best.currency : null;
  return { amount: round(best.amount, currency), currency, currencyInferred: currency !== null && inferred };
}
