// The one normal form that place names and queries pass through before they are compared: case, accents,
// scripts and punctuation folded away, so "Bahnhofstraße" and "BAHNHOFSTRASSE" are the same word.
import anyAscii from 'any-ascii';

const NON_ASCII = /[^\x00-\x7f]/;
const NOT_ALPHANUMERIC = /[^a-z0-9]+/g;

/** Abbreviations that have one meaning wherever they occur, written out in full. */
const EXPANSIONS = new Map([
  ['str', 'strasse'],
  ['bhf', 'bahnhof'],
  ['hbf', 'hauptbahnhof'],
]);

/**
 * German street words written apart or together ("Liechtensteiner Straße", "Landstrasse") are joined to
 * the word before, so either spelling gives the same token.
 */
const JOINED_SUFFIXES = new Set(['strasse', 'gasse']);

/**
 * Lower-case ASCII words separated by single spaces: any script transliterated (ß → ss, ø → o, æ → ae,
 * Вадуц → vaduts), every run of punctuation or space one space, no space at either end.
 */
export function foldName(text: string): string {
  const ascii = NON_ASCII.test(text) ? anyAscii(text) : text;
  return ascii.toLowerCase().replace(NOT_ALPHANUMERIC, ' ').trim();
}

/**
 * The words of a name as matching compares them: folded, unambiguous abbreviations written out
 * ("str." → "strasse", also at the end of a word: "Bahnhofstr." → "bahnhofstrasse"), German street words
 * joined to the word before, duplicates dropped.
 */
export function nameTokens(text: string): string[] {
  const folded = foldName(text);
  const tokens: string[] = [];
  if (folded === '') return tokens;
  for (const word of folded.split(' ')) {
    let token = EXPANSIONS.get(word) ?? (word.length > 3 && word.endsWith('str') ? `${word}asse` : word);
    if (JOINED_SUFFIXES.has(token) && tokens.length > 0) {
      token = tokens.pop() + token;
    }
    if (!tokens.includes(token)) tokens.push(token);
  }
  return tokens;
}
