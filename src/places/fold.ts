// The one normal form that place names and queries pass through before they are compared: case, accents,
// scripts and punctuation folded away, so "Bahnhofstraße" and "BAHNHOFSTRASSE" are the same word. Folded
// into bytes (every folded character is one ASCII letter or digit): building the place index folds every
// name of a million places, and strings per step were most of its cost and garbage.
import anyAscii from 'any-ascii';

/** anyAscii's answer for each code point asked about: transliterating a name a character at a time makes no string of the whole. */
const transliterations = new Map<number, string>();

function transliteration(codePoint: number): string {
  let ascii = transliterations.get(codePoint);
  if (ascii === undefined) transliterations.set(codePoint, (ascii = anyAscii(String.fromCodePoint(codePoint))));
  return ascii;
}

/** Abbreviations that have one meaning wherever they occur, written out in full (all three letters long). */
const EXPANSIONS = [
  ['str', 'strasse'],
  ['bhf', 'bahnhof'],
  ['hbf', 'hauptbahnhof'],
].map(([word, full]) => [asciiBytes(word), asciiBytes(full)]);

/**
 * German street words written apart or together ("Liechtensteiner Straße", "Landstrasse") are joined to
 * the word before, so either spelling gives the same token.
 */
const JOINED_SUFFIXES = ['strasse', 'gasse'].map(asciiBytes);
const STR = asciiBytes('str');
const ASSE = asciiBytes('asse');

function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * The tokens of a name as matching compares them: any script transliterated (ß → ss, ø → o, æ → ae,
 * Вадуц → vaduts), lower-case ASCII letters and digits, every run of other characters a word break;
 * unambiguous abbreviations written out ("str." → "strasse", also at the end of a word: "Bahnhofstr." →
 * "bahnhofstrasse"), German street words joined to the word before, duplicates dropped. Token i of the
 * last scan is bytes[starts[i] .. ends[i]); a scan overwrites the last one.
 */
export class TokenScanner {
  bytes = new Uint8Array(256);
  starts: number[] = [];
  ends: number[] = [];
  count = 0;

  /** Where the next word is written: the end of the last token kept. */
  private at = 0;
  /** The end of the word being read. */
  private end = 0;

  scan(text: string): number {
    this.count = 0;
    this.at = 0;
    this.end = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        this.read(c);
        continue;
      }
      // Code point by code point, as anyAscii reads (a lone surrogate is one of its own).
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
        i++;
      }
      const ascii = transliteration(c);
      for (let j = 0; j < ascii.length; j++) this.read(ascii.charCodeAt(j));
    }
    this.read(0);
    return this.count;
  }

  /** The next character of the name, transliterated: a letter or digit of a word, or a break. */
  private read(c: number): void {
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      // Room for the word's expansion too ("hbf" → "hauptbahnhof", "…str" → "…strasse").
      if (this.end + 16 > this.bytes.length) {
        const grown = new Uint8Array(2 * this.bytes.length);
        grown.set(this.bytes);
        this.bytes = grown;
      }
      this.bytes[this.end++] = c;
      return;
    }
    if (this.end > this.at) this.end = this.keep(this.at, this.end);
    this.at = this.end;
  }

  /** The tokens of the last scan as strings. */
  tokens(): string[] {
    return Array.from({ length: this.count }, (_, i) => String.fromCharCode(...this.bytes.subarray(this.starts[i], this.ends[i])));
  }

  /** Writes out, joins and keeps (unless a duplicate) the word bytes[start..end); returns where the next word goes. */
  private keep(start: number, end: number): number {
    const expansion = end - start === 3 ? this.expansionOf(start) : null;
    if (expansion !== null) end = this.write(start, expansion);
    else if (end - start > 3 && this.endsWith(start, end, STR)) end = this.write(end, ASSE);
    // The word follows the last token kept directly, so joining is taking that token's start.
    if (this.count > 0 && this.isJoinedSuffix(start, end)) start = this.starts[--this.count];
    for (let t = 0; t < this.count; t++) if (this.equal(this.starts[t], this.ends[t], start, end)) return start;
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
    return end;
  }

  // Indexed loops, not find() or for…of: a scan runs for every name of a million places, and those
  // allocated ~150 bytes a name.
  private expansionOf(start: number): Uint8Array | null {
    for (let i = 0; i < EXPANSIONS.length; i++) if (this.equal(start, start + 3, 0, 3, EXPANSIONS[i][0])) return EXPANSIONS[i][1];
    return null;
  }

  private isJoinedSuffix(start: number, end: number): boolean {
    for (let i = 0; i < JOINED_SUFFIXES.length; i++) if (this.equal(start, end, 0, JOINED_SUFFIXES[i].length, JOINED_SUFFIXES[i])) return true;
    return false;
  }

  private write(at: number, text: Uint8Array): number {
    this.bytes.set(text, at);
    return at + text.length;
  }

  private endsWith(start: number, end: number, suffix: Uint8Array): boolean {
    return end - start >= suffix.length && this.equal(end - suffix.length, end, 0, suffix.length, suffix);
  }

  private equal(aStart: number, aEnd: number, bStart: number, bEnd: number, b: Uint8Array = this.bytes): boolean {
    if (aEnd - aStart !== bEnd - bStart) return false;
    for (let i = 0; i < aEnd - aStart; i++) if (this.bytes[aStart + i] !== b[bStart + i]) return false;
    return true;
  }
}

const scanner = new TokenScanner();

/** The tokens of a name as strings (see TokenScanner). */
export function nameTokens(text: string): string[] {
  scanner.scan(text);
  return scanner.tokens();
}
