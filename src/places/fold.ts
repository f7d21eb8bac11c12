// The one normal form that place names and queries pass through before they are compared: case, accents,
// scripts and punctuation folded away, so "Bahnhofstraße" and "BAHNHOFSTRASSE" are the same word. Folded
// into bytes (every folded character is one ASCII letter or digit): building the place index folds every
// name of a million places, and strings per step were most of its cost and garbage.
import anyAscii from 'any-ascii';

const NON_ASCII = /[^\x00-\x7f]/;

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

  scan(text: string): number {
    const ascii = NON_ASCII.test(text) ? anyAscii(text) : text;
    // A word grows by at most its expansion ("hbf" → "hauptbahnhof"): four times its length and a little.
    if (this.bytes.length < 4 * ascii.length + 16) this.bytes = new Uint8Array(8 * ascii.length + 16);
    const bytes = this.bytes;
    this.count = 0;
    let at = 0; // the end of the last token kept, where the next word is written
    let end = 0;
    for (let i = 0; i <= ascii.length; i++) {
      let c = i < ascii.length ? ascii.charCodeAt(i) : 0;
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
        bytes[end++] = c;
        continue;
      }
      if (end > at) end = this.keep(at, end);
      at = end;
    }
    return this.count;
  }

  /** The tokens of the last scan as strings. */
  tokens(): string[] {
    return Array.from({ length: this.count }, (_, i) => String.fromCharCode(...this.bytes.subarray(this.starts[i], this.ends[i])));
  }

  /** Writes out, joins and keeps (unless a duplicate) the word bytes[start..end); returns where the next word goes. */
  private keep(start: number, end: number): number {
    const expansion = end - start === 3 ? EXPANSIONS.find(([word]) => this.equal(start, end, 0, 3, word)) : undefined;
    if (expansion) end = this.write(start, expansion[1]);
    else if (end - start > 3 && this.endsWith(start, end, STR)) end = this.write(end, ASSE);
    // The word follows the last token kept directly, so joining is taking that token's start.
    if (this.count > 0 && this.isJoinedSuffix(start, end)) start = this.starts[--this.count];
    for (let t = 0; t < this.count; t++) if (this.equal(this.starts[t], this.ends[t], start, end)) return start;
    this.starts[this.count] = start;
    this.ends[this.count++] = end;
    return end;
  }

  private isJoinedSuffix(start: number, end: number): boolean {
    for (const suffix of JOINED_SUFFIXES) if (this.equal(start, end, 0, suffix.length, suffix)) return true;
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
