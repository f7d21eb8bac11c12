// From the words of a query to what the index compares: for each word, the token ids it may match
// (itself, its synonyms and, on the second pass, indexed words one letter away), whether a place must
// match it, and the kind of place it asks for.
import { isOptionalWord, kindAskedBy, synonymsOf } from './vocabulary.js';
import type { TokenLexicon } from './token-lexicon.js';

/** Words shorter than this are never matched with a misspelling. */
const FUZZY_MIN_LENGTH = 5;
/** Nor are longer ones: the variants of a word grow with the square of its length. */
const FUZZY_MAX_LENGTH = 40;
const ALPHABET = Uint8Array.from('abcdefghijklmnopqrstuvwxyz0123456789', (c) => c.charCodeAt(0));

export interface QueryPlan {
  count: number;
  /** Per word: a place must match it, in its name or in its city or country. */
  required: boolean[];
  /** Per word: the kind code it asks for, or -1. */
  kind: number[];
  /** Alternatives of word i are altIds[altStarts[i]] .. altIds[altStarts[i + 1] - 1]. */
  altStarts: Int32Array;
  altIds: Int32Array;
  /** 1 where the alternative is a misspelling of the word. */
  altFuzzy: Uint8Array;
  /** The fewest misspelt words any match has. */
  unavoidableFuzzy: number;
}

/**
 * The plan for distinct folded query words, or null when a required word matches no indexed token (so no
 * place can match). With `fuzzy`, a word that may be misspelt (mayBeMisspelt) and that no indexed name
 * has matches tokens one edit away instead; a word that is indexed is taken as meant.
 */
export function planQuery(words: readonly string[], lexicon: TokenLexicon, fuzzy: boolean): QueryPlan | null {
  const allOptional = words.every(isOptionalWord);
  const required = words.map((word) => allOptional || !isOptionalWord(word));
  const ids: number[] = [];
  const fuzzyFlags: number[] = [];
  const altStarts = new Int32Array(words.length + 1);
  let onlyMisspelt = 0;
  for (let i = 0; i < words.length; i++) {
    const first = ids.length;
    const addId = (id: number, isFuzzy: number) => {
      if (id < 0) return;
      for (let a = first; a < ids.length; a++) if (ids[a] === id) return;
      ids.push(id);
      fuzzyFlags.push(isFuzzy);
    };
    addId(lexicon.idOf(words[i]), 0);
    for (const synonym of synonymsOf(words[i])) addId(lexicon.idOf(synonym), 0);
    if (fuzzy && ids.length === first && mayBeMisspelt(words[i])) {
      forEachEdit(words[i], (variant, length) => addId(lexicon.idOfBytes(variant, length), 1));
    }
    if (required[i] && ids.length === first) return null;
    if (required[i] && !fuzzyFlags.slice(first).includes(0)) onlyMisspelt++;
    altStarts[i + 1] = ids.length;
  }
  return {
    count: words.length,
    required,
    kind: words.map(kindAskedBy),
    altStarts,
    altIds: Int32Array.from(ids),
    altFuzzy: Uint8Array.from(fuzzyFlags),
    // On the second pass every match has a misspelling: one without would have been found on the first.
    unavoidableFuzzy: fuzzy ? Math.max(1, onlyMisspelt) : 0,
  };
}

/** Whether a word is long enough, and short enough, to be looked up with one letter wrong. */
export function mayBeMisspelt(word: string): boolean {
  return word.length >= FUZZY_MIN_LENGTH && word.length <= FUZZY_MAX_LENGTH;
}

/**
 * Visits, as bytes in a reused buffer, every string one deletion, insertion, substitution or swap of
 * neighbours away from an ASCII word (some more than once, never the word itself).
 */
export function forEachEdit(word: string, visit: (variant: Uint8Array, length: number) => void): void {
  const n = word.length;
  const source = Uint8Array.from(word, (c) => c.charCodeAt(0));
  const buffer = new Uint8Array(n + 1);
  for (let i = 0; i < n; i++) {
    // Deletion of letter i.
    buffer.set(source.subarray(0, i));
    buffer.set(source.subarray(i + 1), i);
    visit(buffer, n - 1);
    // Substitution of letter i, and swap with the next.
    buffer.set(source);
    for (let c = 0; c < ALPHABET.length; c++) {
      if (ALPHABET[c] === source[i]) continue;
      buffer[i] = ALPHABET[c];
      visit(buffer, n);
    }
    if (i < n - 1) {
      buffer[i] = source[i + 1];
      buffer[i + 1] = source[i];
      visit(buffer, n);
    }
  }
  for (let i = 0; i <= n; i++) {
    // Insertion before letter i.
    buffer.set(source.subarray(0, i));
    buffer.set(source.subarray(i), i + 1);
    for (let c = 0; c < ALPHABET.length; c++) {
      buffer[i] = ALPHABET[c];
      visit(buffer, n + 1);
    }
  }
}
