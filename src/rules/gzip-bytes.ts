// Gzip (RFC 1952) of an answer assembled from pieces (json-bytes.ts), at a small part of a compressor's
// cost. An answer repeats itself piece by piece (every item has the members, links and fragments of the
// one before, a position appears three times in its item), and the writer knows where each piece begins,
// so repeats are looked for only there: each piece start is hashed on its first four bytes, the longest
// earlier match among the last few starts with that hash is taken and extended as far as the bytes agree
// (often across many pieces), and a later piece start inside it that reaches further cuts it short. A
// constant fragment met for the first time in an answer (the first item's members, the attribution) is
// copied as bits packed once per thread, with the repeats inside it found by a full search then. What
// is left (ids, names, coordinates, numbers) is written as literals. All of it is one DEFLATE block with a
// code table made once per process (deflate-codes.ts); the CRC-32 is zlib's native crc32 over the plain
// bytes. No compressor runs per request: docs/PERFORMANCE.md ("Compression") has the costs and sizes.
//
// For any answer a JsonBytes wrote while marking, whatever its members: the REST reads, the MCP read
// tools' bodies, and members a later feature adds (bytes written without a mark are simply literals).
import { crc32 } from 'node:zlib';
import { DIST_BASE, DIST_EXTRA, deflateCodes, type DeflateCodes } from './deflate-codes.js';
import type { JsonBytes } from './json-bytes.js';

const WINDOW = 32768;
const MIN_MATCH = 4;
const MAX_MATCH = 258;
const HASH_BITS = 12;
/** Earlier piece starts kept per hash: the most recent one is often another fragment with the same first bytes. */
const WAYS = 4;
/** Fragments at least this long are packed (shorter ones cost a lookup more than they save). */
const PACKED_MIN_BYTES = 24;
const GZIP_HEADER = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]; // deflate, no flags, no time, Unix
const END_OF_BLOCK = 256;

/** Distance → its symbol: by distance - 1 up to 256, by (distance - 1) >> 7 above. */
const NEAR_DISTANCE = new Uint8Array(256);
const FAR_DISTANCE = new Uint8Array(256);
for (let symbol = 0; symbol < DIST_BASE.length; symbol++) {
  const end = DIST_BASE[symbol] + (1 << DIST_EXTRA[symbol]);
  for (let d = DIST_BASE[symbol]; d < end; d++) {
    if (d <= 256) NEAR_DISTANCE[d - 1] = symbol;
    else FAR_DISTANCE[(d - 1) >> 7] = symbol;
  }
}

let sharedCodes: DeflateCodes | null = null;

/** A fragment's DEFLATE symbols alone (no earlier bytes referred to), as bits. */
interface Packed {
  /** The bits, first bit lowest, as little-endian words. */
  readonly words: Uint32Array;
  readonly bits: number;
}

/** DEFLATE symbols as bits into a growing buffer, first bit lowest. */
class BitWriter {
  out = Buffer.allocUnsafeSlow(1 << 16);
  /** `out` for four-byte stores. */
  private room = new DataView(this.out.buffer, this.out.byteOffset, this.out.length);
  at = 0;
  /** Bits not yet in `out`: fewer than 8 between calls. */
  private pending = 0;
  private pendingBits = 0;

  constructor(private readonly codes: DeflateCodes) {}

  /** Starts over at byte `at` with `bits` bits pending; room for `bytes` more. */
  begin(at: number, pending: number, bits: number, bytes: number): void {
    if (this.out.length < at + bytes) {
      this.out = Buffer.allocUnsafeSlow(Math.max(at + bytes, this.out.length * 2));
      this.room = new DataView(this.out.buffer, this.out.byteOffset, this.out.length);
    }
    this.at = at;
    this.pending = pending;
    this.pendingBits = bits;
  }

  put(value: number, bits: number): void {
    let pending = this.pending | (value << this.pendingBits);
    let count = this.pendingBits + bits;
    const out = this.out;
    while (count >= 8) {
      out[this.at++] = pending & 0xff;
      pending >>>= 8;
      count -= 8;
    }
    this.pending = pending;
    this.pendingBits = count;
  }

  /** Literal bytes: the hot loop (most bytes of a fresh answer are ids, names and numbers), in locals. */
  literals(plain: Uint8Array, from: number, to: number): void {
    const literal = this.codes.literal;
    const out = this.out;
    let pending = this.pending;
    let count = this.pendingBits;
    let at = this.at;
    for (let i = from; i < to; i++) {
      const code = literal[plain[i]];
      pending |= (code & 0xffffff) << count;
      count += code >>> 24;
      if (count >= 16) {
        out[at++] = pending & 0xff;
        out[at++] = (pending >>> 8) & 0xff;
        pending >>>= 16;
        count -= 16;
      }
    }
    while (count >= 8) {
      out[at++] = pending & 0xff;
      pending >>>= 8;
      count -= 8;
    }
    this.pending = pending;
    this.pendingBits = count;
    this.at = at;
  }

  /** A repeat of `length` bytes from `distance` back, as matches of at most MAX_MATCH (each at least 3). */
  match(length: number, distance: number): void {
    const { lengthCode, lengthBits, distanceCode, distanceBits } = this.codes;
    const symbol = distance <= 256 ? NEAR_DISTANCE[distance - 1] : FAR_DISTANCE[(distance - 1) >> 7];
    const extra = distance - DIST_BASE[symbol];
    while (length > 0) {
      const part = length <= MAX_MATCH ? length : length - MAX_MATCH < 3 ? length - 3 : MAX_MATCH;
      this.put(lengthCode[part], lengthBits[part]);
      this.put(distanceCode[symbol], distanceBits[symbol]);
      this.put(extra, DIST_EXTRA[symbol]);
      length -= part;
    }
  }

  /** A packed fragment's bits, four bytes at a time shifted into place. */
  packed(packed: Packed): void {
    const { words, bits } = packed;
    const shift = this.pendingBits;
    const whole = bits >> 5;
    let at = this.at;
    let pending = this.pending;
    const out = this.room;
    for (let i = 0; i < whole; i++) {
      const word = words[i];
      out.setUint32(at, (pending | (word << shift)) >>> 0, true);
      at += 4;
      pending = shift === 0 ? 0 : word >>> (32 - shift);
    }
    this.pending = pending;
    this.at = at;
    if (bits & 31) {
      const rest = bits & 31;
      const word = words[whole];
      if (rest > 16) {
        this.put(word & 0xffff, 16);
        this.put((word >>> 16) & ((1 << (rest - 16)) - 1), rest - 16);
      } else this.put(word & ((1 << rest) - 1), rest);
    }
  }

  /** Writes the pending bits out, the last byte padded with zeros. */
  flush(): void {
    if (this.pendingBits > 0) this.put(0, 8 - this.pendingBits);
  }

  /** What was written since byte 0, as bits (for packing). */
  take(): Packed {
    const bits = this.at * 8 + this.pendingBits;
    const bytes = new Uint8Array(((this.at >> 2) + 1) * 4);
    bytes.set(this.out.subarray(0, this.at));
    bytes[this.at] = this.pending;
    const view = new DataView(bytes.buffer);
    return { words: Uint32Array.from({ length: bytes.length >> 2 }, (_, i) => view.getUint32(i * 4, true)), bits };
  }
}

/** Earlier piece starts by the hash of their first four bytes, in the text being written. */
class Matcher {
  /** Per hash, WAYS piece numbers as `base + mark + 1`, newest first; below base + 1: from an earlier text. */
  private readonly starts = new Int32Array((1 << HASH_BITS) * WAYS);
  private base = 0;
  // the text being written, its piece starts and their fragments
  private plain: Uint8Array = new Uint8Array(0);
  private view: DataView = new DataView(new ArrayBuffer(0));
  private marks: Int32Array = new Int32Array(0);
  private markCount = 0;
  private sources: readonly (Uint8Array | null)[] = [];
  /** The distance of the match `longest` found last. */
  distance = 0;

  /** A new text: the starts of earlier ones are forgotten. */
  begin(plain: Uint8Array, view: DataView, marks: Int32Array, markCount: number, sources: readonly (Uint8Array | null)[]): void {
    if (this.base > 0x3fffffff - markCount) {
      this.starts.fill(0);
      this.base = 0;
    }
    this.plain = plain;
    this.view = view;
    this.marks = marks;
    this.markCount = markCount;
    this.sources = sources;
  }

  end(): void {
    this.base += this.markCount + 1;
  }

  static bucket(word: number): number {
    return (Math.imul(word, 0x9e3779b1) >>> (32 - HASH_BITS)) * WAYS;
  }

  /**
   * The length of the longest match at piece `m` (at `at`, its first four bytes `word`) among the bucket's
   * earlier pieces if longer than `floor`, else 0; its distance in `distance`. Where both texts go on with
   * the same fragment at the same offsets, the match grows by the fragment without comparing its bytes.
   */
  longest(m: number, at: number, bucket: number, word: number, floor: number): number {
    const { starts, plain, view, marks, markCount, sources } = this;
    const limit = plain.length;
    let best = floor;
    for (let way = 0; way < WAYS; way++) {
      const earlier = starts[bucket + way] - 1 - this.base;
      if (earlier < 0) break;
      const start = marks[earlier];
      const distance = at - start;
      if (distance > WINDOW) break;
      if (distance === 0) continue; // an empty piece before this one, at the same place
      let length = 0;
      for (let k = 0; m + k < markCount; k++) {
        const source = sources[m + k];
        if (!source || source !== sources[earlier + k] || marks[m + k] !== at + length || marks[earlier + k] !== start + length) break;
        length += source.length;
      }
      if (length === 0 && view.getInt32(start, true) !== word) continue;
      if (length <= best && (at + best >= limit || plain[start + best] !== plain[at + best])) continue;
      // a match to beat (floor > 3: one held back): the four bytes before its end must agree too, or the
      // compare below would run the length of that match for nothing (quadratic over its piece starts)
      if (length < floor && floor >= 8 && view.getInt32(start + floor - 4, true) !== view.getInt32(at + floor - 4, true)) continue;
      // eight bytes at a time as doubles: a NaN (never ASCII) only ends this loop early, the byte loop goes on
      while (at + length + 8 <= limit && view.getFloat64(start + length, true) === view.getFloat64(at + length, true)) length += 8;
      while (at + length < limit && plain[start + length] === plain[at + length]) length++;
      if (length > best) {
        best = length;
        this.distance = distance;
      }
    }
    return best > floor ? best : 0;
  }

  remember(bucket: number, m: number): void {
    const starts = this.starts;
    for (let way = WAYS - 1; way > 0; way--) starts[bucket + way] = starts[bucket + way - 1];
    starts[bucket] = this.base + m + 1;
  }
}

export class GzipBytes {
  private readonly codes = (sharedCodes ??= deflateCodes());
  private readonly writer = new BitWriter(this.codes);
  private readonly matcher = new Matcher();
  /** Fragments packed so far (fragments are shared and long-lived; a dropped one takes its packing along). */
  private readonly packs = new WeakMap<Uint8Array, Packed>();
  private readonly packWriter = new BitWriter(this.codes);
  private readonly packMatcher = new Matcher();
  private lastView: DataView = new DataView(new ArrayBuffer(0));

  /** The gzip form of what `answer` wrote while marking; valid until the next call. */
  answer(answer: JsonBytes): Buffer {
    const marks = answer.pieceStarts();
    if (marks === null) throw new Error('gzip of an answer written without marking: call setMarking(true) before writing it');
    return this.encode(answer.view(), marks, answer.markCount, answer.pieceSources());
  }

  /**
   * The gzip form of `plain`, looking for repeats at `marks` (the first `markCount`, ascending) and
   * copying the packed form of a fragment `sources` names at a mark, which must be the bytes there (as
   * JsonBytes records them). Any marks will do for the rest. Valid until the next call.
   */
  encode(plain: Uint8Array, marks: Int32Array, markCount: number, sources: readonly (Uint8Array | null)[] = []): Buffer {
    const { prelude, preludeBits } = this.codes;
    const writer = this.writer;
    const whole = preludeBits >> 3;
    // a literal has at most 15 bits; header, prelude and trailer are under 200 bytes
    writer.begin(GZIP_HEADER.length + whole, prelude[whole], preludeBits & 7, plain.length * 2 + 64);
    writer.out.set(GZIP_HEADER, 0);
    writer.out.set(prelude.subarray(0, whole), GZIP_HEADER.length);
    this.deflate(plain, marks, markCount, sources, this.matcher, writer);
    writer.put(this.codes.literalCode[END_OF_BLOCK], this.codes.literalBits[END_OF_BLOCK]);
    writer.flush();
    const out = writer.out;
    out.writeUInt32LE(crc32(plain), writer.at);
    out.writeUInt32LE(plain.length >>> 0, writer.at + 4);
    return out.subarray(0, writer.at + 8);
  }

  /** The symbols of `plain` (see encode) into `writer`. */
  private deflate(plain: Uint8Array, marks: Int32Array, markCount: number, sources: readonly (Uint8Array | null)[], matcher: Matcher, writer: BitWriter): void {
    const length = plain.length;
    const view = this.viewOf(plain);
    matcher.begin(plain, view, marks, markCount, sources);
    let next = 0; // first byte neither written nor in the match held back
    // The match found last is held back while later piece starts inside it are looked at: one of them may
    // reach further (a fragment repeated whole where the held match only shared its first bytes), and
    // then the held match is cut there.
    let held = 0;
    let heldDistance = 0;
    for (let m = 0; m < markCount; m++) {
      const at = marks[m];
      if (at + MIN_MATCH > length) break;
      const word = view.getInt32(at, true);
      const bucket = Matcher.bucket(word);
      if (held > 0 && at < next + held) {
        const further = matcher.longest(m, at, bucket, word, next + held - at);
        if (further > 0) {
          if (at - next >= 3) writer.match(at - next, heldDistance);
          else writer.literals(plain, next, at);
          next = at;
          held = further;
          heldDistance = matcher.distance;
        }
      } else {
        const found = matcher.longest(m, at, bucket, word, MIN_MATCH - 1);
        const source = found === 0 && m < sources.length ? sources[m] : null;
        if (found > 0 || (source !== null && source.length >= PACKED_MIN_BYTES && at + source.length <= length)) {
          if (held > 0) writer.match(held, heldDistance);
          writer.literals(plain, next + held, at);
          next = at;
          if (found > 0) {
            held = found;
            heldDistance = matcher.distance;
          } else {
            writer.packed(this.packs.get(source!) ?? this.pack(source!));
            next = at + source!.length;
            held = 0;
          }
        }
      }
      matcher.remember(bucket, m);
    }
    if (held > 0) writer.match(held, heldDistance);
    writer.literals(plain, next + held, length);
    matcher.end();
  }

  /** A DataView of `plain`, kept while the answers come from the same buffer (a JsonBytes reuses its own). */
  private viewOf(plain: Uint8Array): DataView {
    const last = this.lastView;
    if (last.buffer === plain.buffer && last.byteOffset === plain.byteOffset && last.byteLength >= plain.length) return last;
    return (this.lastView = new DataView(plain.buffer, plain.byteOffset)); // to the buffer's end: later answers may be longer
  }

  /** A fragment's symbols alone, with repeats looked for at every byte (once per fragment and thread). */
  private pack(fragment: Uint8Array): Packed {
    const everyByte = Int32Array.from({ length: fragment.length }, (_, i) => i);
    this.packWriter.begin(0, 0, 0, fragment.length * 2 + 8);
    this.deflate(fragment, everyByte, everyByte.length, [], this.packMatcher, this.packWriter);
    const packed = this.packWriter.take();
    this.packs.set(fragment, packed);
    return packed;
  }
}
