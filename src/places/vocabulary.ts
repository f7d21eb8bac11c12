// Words of a query that mean something besides a name: abbreviations with more than one reading, words
// that ask for a kind of place ("station Monaco"), and filler people type around a name. All in folded form.
import { KIND_CODE, type PlaceKindCode } from '../rules/place-class.js';

/**
 * Each group lists spellings that may stand for one another. A word in several groups ("st": street,
 * saint, sankt) may stand for any of them; the groups apply to the query only, names are indexed as written.
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['st', 'street'],
  ['st', 'saint'],
  ['st', 'sankt'],
  ['ste', 'sainte'],
  ['rd', 'road'],
  ['av', 'ave', 'avenue'],
  ['av', 'avda', 'avenida'],
  ['bd', 'bvd', 'blvd', 'boulevard'],
  ['sq', 'square'],
  ['pl', 'place'],
  ['pl', 'platz'],
  ['r', 'rua'],
  ['pca', 'praca'],
  ['mt', 'mount'],
  ['dr', 'doctor'],
];

const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  for (const word of group) {
    const others = SYNONYMS.get(word) ?? [];
    for (const other of group) if (other !== word && !others.includes(other)) others.push(other);
    SYNONYMS.set(word, others);
  }
}

/** Other spellings a query word may stand for (empty when it has none). */
export function synonymsOf(token: string): readonly string[] {
  return SYNONYMS.get(token) ?? [];
}

/** Words that ask for a station or stop. Optional: they need not be part of the name. */
const STATION_WORDS = [
  'station', 'bahnhof', 'gare', 'estacao', 'estacion', 'estacio', 'stazione', 'railway', 'train', 'metro',
  'subway', 'tram', 'bus', 'stop', 'haltestelle',
];

/** Words around a name that say nothing about the place. Optional, and unmatched ones cost nothing. */
const FILLER_WORDS = ['near', 'in', 'at', 'the', 'around', 'by', 'bei', 'toilet', 'toilets', 'wc', 'restroom', 'restrooms', 'public'];

const KIND_WORDS = new Map<string, PlaceKindCode>(STATION_WORDS.map((word) => [word, KIND_CODE.station]));
const FILLERS = new Set(FILLER_WORDS);

/** The kind of place a query word asks for, or -1. */
export function kindAskedBy(token: string): PlaceKindCode | -1 {
  return KIND_WORDS.get(token) ?? -1;
}

/** True for a word the query may carry without any place matching it. */
export function isOptionalWord(token: string): boolean {
  return FILLERS.has(token) || KIND_WORDS.has(token);
}
