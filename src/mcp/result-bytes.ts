// A read tool's JSON-RPC answer written as bytes, exactly as the SDK would serialise it, straight from
// the read's ASCII answer (src/api/reads.ts) without parsing it: the answer appears twice, as the text
// of the first content item (a JSON string of it: each quote and backslash escaped, a byte-local rule)
// and as structuredContent (JSON.stringify of its parse: the same text with its \uXXXX escapes undone,
// since the reads write JSON.stringify output with every character beyond U+007F escaped, see
// src/rules/ascii-json.ts, and numbers as String() does, see src/rules/json-bytes.ts). One pass over the
// bytes for each copy, into one buffer reused by the thread: no strings, no objects, nothing for the
// garbage collector (docs/PERFORMANCE.md has what it saves). test/mcp/result-bytes.test.ts holds both
// copies equal to JSON.stringify over generated texts; test/mcp/fast-path.test.ts the whole answer to
// the SDK's.
//
// While marking, the writer records where pieces begin (for src/rules/gzip-bytes.ts, which looks for
// repeats only there): the answer's own piece starts, mapped into both copies, with each constant
// fragment's copy as it appears there (made once per fragment), so the gzip writer can pack it.
import type { Pieces } from '../rules/json-bytes.js';

/** By byte: its JSON string form when that is not the byte itself (quote, backslash, controls; latin1 above 0x7f as UTF-8). */
const STRING_ESCAPES: (Uint8Array | null)[] = Array.from({ length: 256 }, (_, byte) => {
  const written = Buffer.from(JSON.stringify(String.fromCharCode(byte)).slice(1, -1));
  return written.length === 1 && written[0] === byte ? null : Uint8Array.from(written);
});
const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
/** Escape runs met before and what JSON.stringify writes for them (the © of every attribution, names' letters). */
const unescaped = new Map<string, Buffer>();
const MAX_REMEMBERED = 4096;
/** Fragments' copies in each form, made once (fragments are long-lived constants; null: no copy fits). */
const stringForms = new WeakMap<Uint8Array, Uint8Array>();
const parsedForms = new WeakMap<Uint8Array, Uint8Array | null>();


export class ResultBytes {
  private out = Buffer.allocUnsafeSlow(1 << 16);
  length = 0;
  private marking = false;
  private starts = new Int32Array(1024);
  private readonly sources: (Uint8Array | null)[] = [];
  private markCount = 0;

  /** Starts a new answer; `marking`: record its pieces (see pieces()). */
  reset(marking: boolean): void {
    this.length = 0;
    this.markCount = 0;
    this.marking = marking;
  }

  /** The pieces of the answer so far (marking only). */
  pieces(): Pieces {
    return { starts: this.starts, count: this.markCount, sources: this.sources };
  }

  /** The answer so far, not copied: valid until the next reset. */
  view(): Buffer {
    return this.out.subarray(0, this.length);
  }

  /** Bytes as they are (a constant fragment: a piece the gzip writer may pack). */
  bytes(bytes: Uint8Array, constant = true): void {
    this.mark(constant ? bytes : null);
    this.reserve(bytes.length);
    this.out.set(bytes, this.length);
    this.length += bytes.length;
  }

  /**
   * What JSON.stringify writes between the quotes for `plain` read as latin1 (the reads' answers are
   * ASCII): quotes and backslashes escaped. With the answer's `pieces`, each constant fragment is copied
   * in its escaped form, made once (they hold ~85 % of a nearest answer's bytes and ~90 % of its quotes),
   * and only the rest is escaped byte by byte; while marking, the pieces are mapped here.
   */
  stringOf(plain: Uint8Array, pieces: Pieces | null): void {
    this.reserve(plain.length * 6);
    if (pieces === null || pieces.count === 0) {
      this.mark(null);
      this.length = escapeInto(this.out, this.length, plain, 0, plain.length);
      return;
    }
    const { starts, count, sources } = pieces;
    const out = this.out;
    const words = wordsOf(plain);
    const outWords = wordsOf(out);
    if (starts[0] > 0) this.mark(null);
    let at = escapeInto(out, this.length, plain, 0, starts[0], words, outWords);
    for (let m = 0; m < count; m++) {
      const source = sources[m];
      const end = m + 1 < count ? starts[m + 1] : plain.length;
      let from = starts[m];
      this.length = at;
      if (source === null) {
        this.mark(null);
      } else {
        const form = stringFormOf(source);
        this.mark(form);
        if (form.length <= 8) for (let k = 0; k < form.length; k++) out[at++] = form[k];
        else {
          out.set(form, at);
          at += form.length;
        }
        from += source.length;
      }
      if (from < end) at = escapeInto(out, at, plain, from, end, words, outWords);
    }
    this.length = at;
  }

  /**
   * JSON.stringify(JSON.parse(text)) for the reads' ASCII answer `plain`, as UTF-8: the text with each run
   * of \uXXXX escapes written as JSON.stringify writes its characters. `pieces`: as for stringOf.
   */
  parsedOf(plain: Buffer, pieces: Pieces | null): void {
    this.reserve(plain.length);
    const base = this.length;
    if (!this.marking || pieces === null || pieces.count === 0) this.mark(null);
    let copied = 0;
    let from = 0;
    // each rewritten run: where it was, where it ends, and how much longer it made the copy
    let runs: number[] | null = null;
    for (let slash = plain.indexOf(BACKSLASH); slash >= 0; slash = from >= plain.length ? -1 : plain.indexOf(BACKSLASH, from)) {
      if (plain[slash + 1] !== LETTER_U) {
        from = slash + 2; // an escape JSON.stringify writes as it is (\" \\ \n ...)
        continue;
      }
      let end = slash;
      while (plain[end] === BACKSLASH && plain[end + 1] === LETTER_U) end += 6;
      const written = unescapedRun(plain, slash, end);
      this.copy(plain, copied, slash);
      this.reserve(written.length);
      this.out.set(written, this.length);
      this.length += written.length;
      if (this.marking) (runs ??= []).push(slash, end, written.length - (end - slash));
      copied = from = end;
    }
    this.copy(plain, copied, plain.length);
    if (this.marking && pieces !== null && pieces.count > 0) this.markParsed(base, pieces, runs ?? []);
  }

  /** The answer's pieces as parsedOf copied them: a start inside a rewritten run moves to the run's start. */
  private markParsed(base: number, pieces: Pieces, runs: readonly number[]): void {
    const { starts, count, sources } = pieces;
    let run = 0;
    let shift = 0;
    for (let m = 0; m < count; m++) {
      const start = starts[m];
      while (run < runs.length && runs[run + 1] <= start) {
        shift += runs[run + 2];
        run += 3;
      }
      const inside = run < runs.length && runs[run] < start;
      const source = sources[m];
      // a fragment's own copy fits where no run reaches into it (a run inside it is in its copy too)
      const end = start + (source?.length ?? 0);
      const fits = source !== null && !inside && (run >= runs.length || runs[run] >= end || fullyInside(runs, run, start, end));
      this.markAt(base + (inside ? runs[run] : start) + shift, fits ? parsedFormOf(source) : null);
    }
  }

  private copy(plain: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.reserve(to - from);
    this.length += plain.copy(this.out, this.length, from, to);
  }

  private mark(source: Uint8Array | null): void {
    if (this.marking) this.markAt(this.length, source);
  }

  private markAt(at: number, source: Uint8Array | null): void {
    if (this.markCount === this.starts.length) {
      const grown = new Int32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.sources[this.markCount] = source;
    this.starts[this.markCount++] = at;
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.out.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.length + extra, this.out.length * 2));
    grown.set(this.out.subarray(0, this.length));
    this.out = grown;
  }
}

/** Bytes a JSON string holds as themselves: ASCII but quote, backslash and controls. */
const PLAIN_RANGE_LOW = 0x20;
const PLAIN_RANGE_HIGH = 0x7f;
const QUOTES = 0x22222222;
const BACKSLASHES = 0x5c5c5c5c;
const ONES = 0x01010101;
const HIGHS = 0x80808080;

/**
 * Writes plain[from, to) escaped as a JSON string's content into out at `at`; returns the end. Four bytes
 * at a time where none of them is a quote or a backslash (a word test; a third faster than byte by byte
 * on nearest answers, which have a quote every ~9 bytes), and only ASCII text is taken four at a time.
 */
function escapeInto(out: Buffer, at: number, plain: Uint8Array, from: number, to: number, words = wordsOf(plain), outWords = wordsOf(out)): number {
  let i = from;
  for (; i + 4 <= to; i += 4) {
    const word = words.getUint32(i, true);
    const quotes = word ^ QUOTES;
    const backslashes = word ^ BACKSLASHES;
    // a zero byte in either means a quote or backslash; a high bit or a byte below 0x20 (controls) a byte to look at
    if (((((quotes - ONES) & ~quotes) | ((backslashes - ONES) & ~backslashes) | word | (word - 0x20202020)) & HIGHS) === 0) {
      outWords.setUint32(at, word, true);
      at += 4;
      continue;
    }
    at = escapeBytes(out, at, plain, i, i + 4);
  }
  return escapeBytes(out, at, plain, i, to);
}

function escapeBytes(out: Uint8Array, at: number, plain: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const byte = plain[i];
    if (byte >= PLAIN_RANGE_LOW && byte <= PLAIN_RANGE_HIGH && byte !== 0x22 && byte !== 0x5c) {
      out[at++] = byte;
      continue;
    }
    const escape = STRING_ESCAPES[byte]!;
    for (let k = 0; k < escape.length; k++) out[at++] = escape[k];
  }
  return at;
}

/** A DataView of `bytes` (made per call: cheaper than looking for a kept one). */
function wordsOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether the runs from `run` on that start before `end` all lie inside [start, end). */
function fullyInside(runs: readonly number[], run: number, start: number, end: number): boolean {
  for (let r = run; r < runs.length && runs[r] < end; r += 3) if (runs[r] < start || runs[r + 1] > end) return false;
  return true;
}

/** What JSON.stringify writes for the characters of the escapes plain[from, to). */
function unescapedRun(plain: Buffer, from: number, to: number): Buffer {
  const escapes = plain.toString('latin1', from, to);
  let written = unescaped.get(escapes);
  if (written === undefined) {
    // JSON.stringify writes the characters themselves, except controls and lone surrogates (lower-case escapes)
    written = Buffer.from(JSON.stringify(JSON.parse(`"${escapes}"`)).slice(1, -1));
    if (unescaped.size >= MAX_REMEMBERED) unescaped.clear();
    unescaped.set(escapes, written);
  }
  return written;
}

function stringFormOf(fragment: Uint8Array): Uint8Array {
  let form = stringForms.get(fragment);
  if (form === undefined) {
    const out = Buffer.alloc(fragment.length * 6);
    form = Uint8Array.from(out.subarray(0, escapeInto(out, 0, fragment, 0, fragment.length)));
    stringForms.set(fragment, form);
  }
  return form;
}

/**
 * A fragment's parsedOf copy, the same wherever it stands: null when it holds a surrogate's escape (one
 * half of a pair may stand in the next piece) or ends inside an escape.
 */
function parsedFormOf(fragment: Uint8Array): Uint8Array | null {
  let form = parsedForms.get(fragment);
  if (form === undefined) {
    const text = Buffer.from(fragment.buffer, fragment.byteOffset, fragment.length).toString('latin1');
    if (/\\u[dD][89a-fA-F]/.test(text) || /\\(u[0-9a-fA-F]{0,3})?$/.test(text.replace(/\\\\/g, ''))) form = null;
    else {
      const writer = new ResultBytes();
      writer.reset(false);
      writer.parsedOf(Buffer.from(fragment.buffer, fragment.byteOffset, fragment.length), null);
      form = Uint8Array.from(writer.view());
    }
    parsedForms.set(fragment, form);
  }
  return form;
}
