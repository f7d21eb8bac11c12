// Gzip (RFC 1952) of an answer assembled from pieces (json-bytes.ts), with no compressor and no search per
// request: the repeats are known from what was written. An answer is made of constant fragments shared by
// every answer (members, links, enum combinations, the attribution), slices of the column store's item text
// (a toilet's head, id and position) and a few numbers and texts written fresh. So, piece by piece:
// - a fragment met earlier in the same answer is a back-reference to that copy (one lookup by identity),
//   and it goes on, without comparing bytes, while the earlier copy went on with the same fragments;
// - a fragment met for the first time is copied as its symbols, packed once per fragment and thread with
//   its own repeats found by a search then (deflate-pack.ts);
// - a slice whose text was copied a moment ago (a toilet's position three times, its id twice) refers back;
// - the rest (ids, names, coordinates, distances) is written as literals.
// All of it is one DEFLATE block with a code table made once per process (deflate-codes.ts); the CRC-32 is
// zlib's native crc32 over the plain bytes. docs/PERFORMANCE.md ("Compression") has the costs and sizes,
// and why the pieces are not kept precompressed per toilet.
//
// For any answer a JsonBytes wrote while marking, whatever its members: the REST reads, the MCP read tools'
// bodies, and members a later feature adds (bytes written without a mark are simply literals).
import { crc32 } from 'node:zlib';
import { deflateCodes, type DeflateCodes } from './deflate-codes.js';
import { BitWriter, type Packed } from './deflate-bits.js';
import { FragmentPacker } from './deflate-pack.js';
import type { JsonBytes, Pieces } from './json-bytes.js';

const WINDOW = 32768;
const MIN_MATCH = 3;
/** Fragments at least this long are packed (shorter ones cost a lookup more than they save). */
const PACKED_MIN_BYTES = 24;
const GZIP_HEADER = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]; // deflate, no flags, no time, Unix
const END_OF_BLOCK = 256;
/** Slices remembered for a later copy of the same text: about three items' worth (a power of two). */
const RECENT_SLICES = 16;
const SEEN_BITS = 11;


let sharedCodes: DeflateCodes | null = null;

export class GzipBytes {
  private readonly codes = (sharedCodes ??= deflateCodes());
  private readonly writer = new BitWriter(this.codes);
  private readonly packer = new FragmentPacker(this.codes);
  /** Fragments packed so far (fragments are shared and long-lived; a dropped one takes its packing along). */
  private readonly packs = new WeakMap<Uint8Array, Packed>();
  /**
   * By the length and first bytes of a fragment: the mark of its last copy, as `base + mark + 1` (below
   * base + 1: from an earlier answer). A collision only loses a back-reference: the mark's fragment is checked.
   */
  private readonly seen = new Int32Array(1 << SEEN_BITS);
  private base = 0;
  private lastView: DataView = new DataView(new ArrayBuffer(0));
  // The last RECENT_SLICES slices of the answer being written: their text, bounds there, and where they went.
  private readonly recentTexts: (Uint8Array | null)[] = new Array<Uint8Array | null>(RECENT_SLICES).fill(null);
  private readonly recentStarts = new Int32Array(RECENT_SLICES);
  private readonly recentEnds = new Int32Array(RECENT_SLICES);
  private readonly recentAt = new Int32Array(RECENT_SLICES);
  private recentNext = 0;

  /** The gzip form of what `answer` wrote while marking; valid until the next call. */
  answer(answer: JsonBytes): Buffer {
    if (answer.pieceStarts() === null) throw new Error('gzip of an answer written without marking: call setMarking(true) before writing it');
    return this.encode(answer.view(), answer.pieces());
  }

  /**
   * The gzip form of `plain`, whose pieces start at `pieces.starts` (the first `count`, ascending). Where
   * `pieces.sources` names a fragment at a start, those must be the bytes there, and likewise a slice in
   * `pieces.slices` (as JsonBytes records them); any starts will do for the rest. Valid until the next call.
   */
  encode(plain: Uint8Array, pieces: Pieces): Buffer {
    const { prelude, preludeBits } = this.codes;
    const writer = this.writer;
    const whole = preludeBits >> 3;
    // a literal has at most 15 bits; header, prelude and trailer are under 200 bytes
    writer.begin(GZIP_HEADER.length + whole, prelude[whole], preludeBits & 7, plain.length * 2 + 64);
    writer.out.set(GZIP_HEADER, 0);
    writer.out.set(prelude.subarray(0, whole), GZIP_HEADER.length);
    this.deflate(plain, pieces);
    writer.put(this.codes.literalCode[END_OF_BLOCK], this.codes.literalBits[END_OF_BLOCK]);
    writer.flush();
    const out = writer.out;
    out.writeUInt32LE(crc32(plain), writer.at);
    out.writeUInt32LE(plain.length >>> 0, writer.at + 4);
    return out.subarray(0, writer.at + 8);
  }

  /** The symbols of `plain` (see encode). */
  private deflate(plain: Uint8Array, { starts: marks, count, sources, slices }: Pieces): void {
    const writer = this.writer;
    const view = this.viewOf(plain);
    this.recentTexts.fill(null);
    if (this.base > 0x3fffffff - count) {
      this.seen.fill(0);
      this.base = 0;
    }
    const base = this.base;
    const length = plain.length;
    // Bytes [written, matchEnd) are the match pending (`distance` back), when matchEnd > written; `follow`:
    // the mark in the earlier copy where the match would go on (count when not known). Between pieces a
    // pending match ends where the next piece begins, so it may grow with it.
    let written = 0;
    let matchEnd = 0;
    let distance = 0;
    let follow = count;
    for (let m = 0; m < count; m++) {
      const at = marks[m];
      const end = m + 1 < count ? Math.min(marks[m + 1], length) : length;
      if (end <= at) continue;
      const source = m < sources.length ? sources[m] : null;
      const pending = matchEnd > written;
      if (pending && source !== null && follow < m && sources[follow] === source && marks[follow] === at - distance) {
        // the earlier copy went on with the same fragment: the match grows by it, bytes uncompared
        matchEnd = agreeing(plain, at + source.length, end, distance);
        follow++;
        if (source.length >= MIN_MATCH) this.seen[this.slotOf(view, at, source.length)] = base + m + 1;
        if (matchEnd < end) {
          writer.match(matchEnd - written, distance);
          written = matchEnd; // the rest of the piece is literal
        }
        continue;
      }
      // a copy of this piece earlier in the answer, if known: a fragment by its identity, a slice among the recent ones
      let earlier = -1;
      let known = 0; // bytes known to agree with the earlier copy
      let after = count; // the mark after the earlier copy, for a fragment
      if (source !== null) {
        if (source.length >= MIN_MATCH) {
          const slot = this.slotOf(view, at, source.length);
          const mark = this.seen[slot] - 1 - base;
          this.seen[slot] = base + m + 1;
          if (mark >= 0 && sources[mark] === source && at - marks[mark] <= WINDOW) [earlier, known, after] = [marks[mark], source.length, mark + 1];
        }
      } else if (slices !== undefined && slices.texts[m]) {
        const [text, from, to] = [slices.texts[m]!, slices.starts[m], slices.ends[m]];
        if (to - from >= MIN_MATCH) earlier = this.earlierCopy(text, from, to, at);
        if (at - earlier > WINDOW) earlier = -1;
        known = to - from;
      }
      if (pending) {
        // without a copy or a packing of its own, the piece may go on the match where its bytes agree
        const reach = earlier < 0 && (source === null || source.length < PACKED_MIN_BYTES) ? agreeing(plain, at, end, distance) : at;
        follow = count;
        if (reach === end) {
          matchEnd = end;
          continue;
        }
        writer.match(reach - written, distance);
        written = matchEnd = reach;
        if (reach > at) continue; // the rest of the piece is literal
      }
      if (earlier >= 0) {
        writer.literals(plain, written, at);
        written = at;
        distance = at - earlier;
        follow = after;
        matchEnd = agreeing(plain, at + known, end, distance);
        if (matchEnd < end) {
          writer.match(matchEnd - at, distance);
          written = matchEnd;
        }
      } else if (source !== null && source.length >= PACKED_MIN_BYTES) {
        writer.literals(plain, written, at);
        writer.packed(this.packs.get(source) ?? this.pack(source));
        written = matchEnd = at + source.length;
      } // else literal, written with the run it is in
    }
    this.base = base + count + 1;
    if (matchEnd > written) {
      writer.match(matchEnd - written, distance);
      written = matchEnd;
    }
    writer.literals(plain, written, length);
  }

  /** The slot in `seen` of a fragment of `length` bytes at `at`, by its length and first bytes. */
  private slotOf(view: DataView, at: number, length: number): number {
    const head = length >= 4 ? view.getInt32(at, true) : view.getUint16(at, true) | (view.getUint8(at + 2) << 16);
    return Math.imul(head ^ Math.imul(length, 0x27d4eb2d), 0x9e3779b1) >>> (32 - SEEN_BITS);
  }

  /** A DataView of `plain`, kept while the answers come from the same buffer (a JsonBytes reuses its own). */
  private viewOf(plain: Uint8Array): DataView {
    const last = this.lastView;
    if (last.buffer === plain.buffer && last.byteOffset === plain.byteOffset && last.byteLength >= plain.length) return last;
    return (this.lastView = new DataView(plain.buffer, plain.byteOffset)); // to the buffer's end: later answers may be longer
  }

  /**
   * Where a copy of `text[from, to)` began among the recent slices of this answer (-1: none), then
   * remembers this one, copied to `at`.
   */
  private earlierCopy(text: Uint8Array, from: number, to: number, at: number): number {
    const texts = this.recentTexts;
    const slot = this.recentNext;
    let found = -1;
    for (let k = 1; k <= RECENT_SLICES; k++) {
      const i = (slot - k) & (RECENT_SLICES - 1); // newest first
      if (texts[i] === text && this.recentStarts[i] <= from && to <= this.recentEnds[i]) {
        found = this.recentAt[i] + from - this.recentStarts[i];
        break;
      }
    }
    this.recentNext = (slot + 1) & (RECENT_SLICES - 1);
    texts[slot] = text;
    this.recentStarts[slot] = from;
    this.recentEnds[slot] = to;
    this.recentAt[slot] = at;
    return found;
  }

  private pack(fragment: Uint8Array): Packed {
    const packed = this.packer.pack(fragment);
    this.packs.set(fragment, packed);
    return packed;
  }
}

/** The end of the run from `from` (at most `to`) where `plain` agrees with itself `distance` back. */
function agreeing(plain: Uint8Array, from: number, to: number, distance: number): number {
  while (from < to && plain[from] === plain[from - distance]) from++;
  return from;
}
