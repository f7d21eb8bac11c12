// An answer assembled as bytes: prepared ASCII fragments and slices of the column store's item text are
// copied into one growing buffer, and only numbers and the few per-request texts are written fresh. This
// skips what a string answer costs on the way out (V8 flattening the pieces, then UTF-8 encoding them),
// about half the CPU of a nearest request. Answers are ASCII only (see asciiJson), so bytes are characters.

/** A constant fragment as bytes (it must be ASCII). */
export function fragment(text: string): Uint8Array {
  if (!/^[\x00-\x7f]*$/.test(text)) throw new RangeError(`fragment is not ASCII: ${text.slice(0, 40)}`);
  return Buffer.from(text, 'latin1');
}

const MAX_FRACTION_DIGITS = 12;
const POWERS_OF_TEN = Array.from({ length: MAX_FRACTION_DIGITS + 1 }, (_, i) => 10 ** i);

/** Whether the decimal of `digits` fraction digits nearest to `magnitude` reads as it (a division of exact integers rounds correctly). */
function readsAs(magnitude: number, digits: number): boolean {
  const scale = POWERS_OF_TEN[digits];
  return Math.round(magnitude * scale) / scale === magnitude;
}

/**
 * An answer's pieces: their starts (the first `count`, ascending), the constant fragment at each, if any,
 * and, where a slice of a longer text was copied (range()), that text and the slice's bounds in it.
 */
export interface Pieces {
  readonly starts: Int32Array;
  readonly count: number;
  readonly sources: readonly (Uint8Array | null)[];
  readonly slices?: Slices;
}

/** By piece: the text range() copied from (null: not a slice) and the slice's start and end in it. */
export interface Slices {
  readonly texts: readonly (Uint8Array | null)[];
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

const NO_STARTS = new Int32Array(0);

export class JsonBytes {
  private out = Buffer.allocUnsafeSlow(1 << 16);
  /** `out` again, for copies four bytes at a time; and the source range() copied from last, likewise. */
  private outView = viewOf(this.out);
  private source: Uint8Array | null = null;
  private sourceView = viewOf(this.out);
  length = 0;
  /**
   * While marking (for gzip-bytes.ts, which looks for repeats only where pieces begin): where each piece
   * written by bytes(), range() or ascii() began, the first `markCount`. Not marking costs the plain answer
   * one test per piece.
   */
  private marks = new Int32Array(0);
  /** By mark: the fragment bytes() wrote there (a constant the gzip writer may have packed), else null. */
  private readonly sources: (Uint8Array | null)[] = [];
  /** By mark: the slice range() copied there (gzip-bytes.ts refers back to an earlier copy of it). */
  private slices: { texts: (Uint8Array | null)[]; starts: Int32Array; ends: Int32Array } = { texts: [], starts: new Int32Array(0), ends: new Int32Array(0) };
  private marking = false;
  /** Whether marking records the slices too (a writer that copies the answer into a larger one needs only the starts). */
  private markingSlices = false;
  markCount = 0;

  /** Starts a new answer. */
  reset(): void {
    this.length = 0;
    this.markCount = 0;
  }

  /** Whether the pieces of the answers from now on are marked (see `marks`), and with them the slices copied. */
  setMarking(on: boolean, slices = on): void {
    if (on && this.marks.length === 0) {
      this.marks = new Int32Array(1024);
      this.slices = { texts: this.slices.texts, starts: new Int32Array(1024), ends: new Int32Array(1024) };
    }
    this.marking = on;
    this.markingSlices = on && slices;
    this.markCount = 0;
  }

  /** The answer's piece starts while marking (the first markCount), else null; valid until the next write. */
  pieceStarts(): Int32Array | null {
    return this.marking ? this.marks : null;
  }

  /** The answer's pieces (none unless marking); valid until the next write. */
  pieces(): Pieces {
    if (!this.marking) return { starts: NO_STARTS, count: 0, sources: [] };
    return { starts: this.marks, count: this.markCount, sources: this.sources, ...(this.markingSlices ? { slices: this.slices } : {}) };
  }

  /** By piece start: the fragment written there, or null for a slice or text written fresh. */
  pieceSources(): readonly (Uint8Array | null)[] {
    return this.sources;
  }

  private mark(source: Uint8Array | null): void {
    let marks = this.marks;
    if (this.markCount === marks.length) {
      this.marks = marks = grown(marks);
      const { texts, starts, ends } = this.slices;
      this.slices = { texts, starts: grown(starts), ends: grown(ends) };
    }
    this.sources[this.markCount] = source;
    this.slices.texts[this.markCount] = null;
    marks[this.markCount++] = this.length;
  }

  /** A mark for a slice of `text`, [start, end). */
  private markSlice(text: Uint8Array, start: number, end: number): void {
    this.mark(null);
    const m = this.markCount - 1;
    const slices = this.slices;
    slices.texts[m] = text;
    slices.starts[m] = start;
    slices.ends[m] = end;
  }

  /**
   * A prepared fragment. TypedArray set() costs ~17 ns whatever the length (up to a few hundred bytes),
   * a byte loop ~1 ns a byte: the few fragments of up to 8 bytes (commas, brackets, quotes) are looped.
   */
  bytes(bytes: Uint8Array): void {
    if (this.marking) this.mark(bytes);
    const length = bytes.length;
    this.reserve(length);
    if (length <= 8) {
      const out = this.out;
      let at = this.length;
      for (let i = 0; i < length; i++) out[at++] = bytes[i];
      this.length = at;
    } else {
      this.out.set(bytes, this.length);
      this.length += length;
    }
  }

  /**
   * `source[start, end)`, eight bytes at a time through DataViews: a slice of the item text is 10–100
   * bytes, and a subarray for set() would be an allocation (~65 ns), a byte loop ~1 ns a byte. The eight
   * bytes travel as a double, which keeps its bits unless it is a NaN; eight ASCII bytes never are (a
   * NaN needs the top byte 0x7f or 0xff and the next at least 0xf0), and `source` is ASCII like answers.
   */
  range(source: Uint8Array, start: number, end: number): void {
    if (this.markingSlices) this.markSlice(source, start, end);
    else if (this.marking) this.mark(null);
    this.reserve(end - start);
    if (source !== this.source) {
      this.source = source;
      this.sourceView = viewOf(source);
    }
    const from = this.sourceView;
    const to = this.outView;
    let at = this.length;
    let i = start;
    for (; i + 8 <= end; i += 8, at += 8) to.setFloat64(at, from.getFloat64(i, true), true);
    if (i + 4 <= end) {
      to.setUint32(at, from.getUint32(i, true), true);
      i += 4;
      at += 4;
    }
    const out = this.out;
    for (; i < end; i++) out[at++] = source[i];
    this.length = at;
  }

  /** An ASCII string (JSON text made with asciiJson, or digits). */
  ascii(text: string): void {
    if (this.marking) this.mark(null);
    this.reserve(text.length);
    const out = this.out;
    let at = this.length;
    for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** A whole number in decimal. */
  integer(value: number): void {
    if (value < 0 || value > 0xffffffff || value !== Math.floor(value)) {
      this.ascii(String(value));
      return;
    }
    this.reserve(10);
    let digits = 1;
    for (let v = value; v >= 10; v = (v / 10) >>> 0) digits++;
    const out = this.out;
    for (let i = this.length + digits - 1; i >= this.length; i--) {
      out[i] = 48 + (value % 10);
      value = (value / 10) >>> 0;
    }
    this.length += digits;
  }

  /**
   * A number as String() writes it (the shortest decimal that reads back as the same double) without
   * making the string: String() costs ~0.3 µs for a coordinate. For 1e-6 ≤ |value| < 1024 the decimals
   * with up to 12 fraction digits are tried: there, 1e-12 exceeds the spacing of doubles, so at most one
   * decimal per digit count reads as the value, and the one with the fewest digits is String()'s. A
   * decimal that reads as the value still does with a zero appended, so the fewest digits are found by
   * bisection. Other values (more digits, exponent notation, 0 and -0) go through String().
   */
  decimal(value: number): void {
    const magnitude = Math.abs(value);
    if (!(magnitude >= 1e-6 && magnitude < 1024) || !readsAs(magnitude, MAX_FRACTION_DIGITS)) {
      this.ascii(String(value));
      return;
    }
    let [fewest, most] = [0, MAX_FRACTION_DIGITS];
    while (fewest < most) {
      const digits = (fewest + most) >> 1;
      if (readsAs(magnitude, digits)) most = digits;
      else fewest = digits + 1;
    }
    const scale = POWERS_OF_TEN[fewest];
    const scaled = Math.round(magnitude * scale);
    this.reserve(24);
    if (value < 0) this.out[this.length++] = 45; // -
    const whole = Math.floor(scaled / scale);
    this.integer(whole);
    if (fewest === 0) return;
    const out = this.out;
    out[this.length] = 46; // .
    let fraction = scaled - whole * scale;
    for (let i = this.length + fewest; i > this.length; i--) {
      out[i] = 48 + (fraction % 10);
      fraction = Math.floor(fraction / 10);
    }
    this.length += fewest + 1;
  }

  /** The answer so far as a string (answers are ASCII). */
  text(): string {
    return this.out.toString('latin1', 0, this.length);
  }

  /** The answer so far, not copied: valid until the writer's next reset. */
  view(): Buffer {
    return this.out.subarray(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.out.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.length + extra, this.out.length * 2));
    grown.set(this.out.subarray(0, this.length));
    this.out = grown;
    this.outView = viewOf(grown);
  }
}

function grown(array: Int32Array): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(array.length * 2);
  larger.set(array);
  return larger;
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
