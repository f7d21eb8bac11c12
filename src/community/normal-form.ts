// One normal form per voted fact (spec, correctToilet value table), so that equal values count as equal:
// a vote, a moderator's lock and the source value that counts as one vote all pass through here.
//   fee_amount      "0.50 EUR" → "0.5 EUR": the mapping's formatFeeAmount (importer/mapping README, decision 32)
//   gender          any order, repeats → "unisex,female,male" order, each once
//   enum facts      lower case ("Yes" → "yes"); currency codes upper case
//   opening_hours   spacing only: one space after ';', none around ',' and '-', ' || ', no trailing ';'
//                   (quoted comments untouched); the value must be valid opening_hours syntax
//   name, operator  Unicode NFC, surrounding white space trimmed, inner runs of white space made one space
import { ACCESS, CHANGING_TABLE, GENDER, WHEELCHAIR, type FactAttribute, type ToiletFacts } from '../rules/facts.js';
import { formatFeeAmount, sourceVotes } from '../rules/votes.js';
import { checkHours } from '../hours/index.js';

export type Normalized = { ok: true; value: string } | { ok: false; reason: string };

const ENUMS: Record<'access' | 'fee' | 'wheelchair' | 'changing_table' | 'existence', readonly string[]> = {
  access: ACCESS.filter((value) => value !== 'unknown'),
  fee: ['free', 'paid'],
  wheelchair: WHEELCHAIR.filter((value) => value !== 'unknown'),
  changing_table: CHANGING_TABLE.filter((value) => value !== 'unknown'),
  existence: ['yes', 'gone'],
};

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const AMOUNT = /^\s*(0|[1-9][0-9]*)(?:[.,]([0-9]+))?\s*([A-Za-z]{3})\s*$/;
/** Hours syntax does not depend on where it is checked, only holiday calendars do (checkHours then says holidaysUnresolved). */
const ANYWHERE = { lat: 0, lon: 0, country: null, timeZone: 'UTC' };

export function normalizeVote(attribute: FactAttribute, raw: string): Normalized {
  // Every fact named, no default: a new fact does not compile until it has a normal form here.
  switch (attribute) {
    case 'access':
    case 'fee':
    case 'wheelchair':
    case 'changing_table':
    case 'existence': {
      const allowed = ENUMS[attribute];
      const value = raw.trim().toLowerCase();
      return allowed.includes(value) ? { ok: true, value } : { ok: false, reason: `must be one of ${allowed.join(', ')}` };
    }
    case 'fee_amount': {
      const match = AMOUNT.exec(raw);
      const currency = match?.[3].toUpperCase();
      if (!match || !CURRENCIES.has(currency!)) return { ok: false, reason: 'must be an amount and an ISO 4217 currency code, e.g. 0.50 EUR' };
      return { ok: true, value: formatFeeAmount(Number(`${match[1]}.${match[2] ?? '0'}`), currency!) };
    }
    case 'gender': {
      const items = raw.split(',').map((item) => item.trim().toLowerCase());
      if (items.some((item) => !(GENDER as readonly string[]).includes(item))) return { ok: false, reason: `must be ${GENDER.join(', ')}, several separated by commas` };
      return { ok: true, value: GENDER.filter((g) => items.includes(g)).join(',') };
    }
    case 'opening_hours': {
      const value = hoursSpacing(raw);
      const check = checkHours(value, ANYWHERE);
      return check.ok ? { ok: true, value } : { ok: false, reason: `is not opening_hours syntax (${check.reason})` };
    }
    case 'name':
    case 'operator': {
      const value = raw.normalize('NFC').trim().replace(/\s+/g, ' ');
      return value === '' ? { ok: false, reason: 'must not be empty' } : { ok: true, value };
    }
  }
}

/** The source values that count as one vote each (importer/mapping sourceVotes), in normal form. */
export function sourceVotesOf(facts: ToiletFacts): Partial<Record<FactAttribute, string>> {
  const votes: Partial<Record<FactAttribute, string>> = {};
  for (const [attribute, raw] of Object.entries(sourceVotes(facts, false)) as [FactAttribute, string][]) {
    const normal = normalizeVote(attribute, raw);
    // a source value outside the vote forms (e.g. hours the checker reads differently) still counts, as it is
    votes[attribute] = normal.ok ? normal.value : raw;
  }
  return votes;
}

function hoursSpacing(raw: string): string {
  return raw
    .split(/("[^"]*")/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(/\s+/g, ' ').replace(/\s*\|\|\s*/g, ' || ').replace(/\s*;\s*/g, '; ').replace(/\s*,\s*/g, ',').replace(/\s*-\s*/g, '-'),
    )
    .join('')
    .trim()
    .replace(/(;\s*)+$/, '');
}
