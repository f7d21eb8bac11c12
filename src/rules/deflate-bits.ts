// DEFLATE symbols (RFC 1951) written as bits with the one code table of deflate-codes.ts: literals, matches
// and packed runs of bits made earlier (a fragment's symbols, shifted into place four bytes at a time).
// The writers of gzip-bytes.ts and deflate-pack.ts share it.
import { DIST_BASE, DIST_EXTRA, type DeflateCodes } from './deflate-codes.js';

export const MAX_MATCH = 258;

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

/** A fragment's DEFLATE symbols alone (no earlier bytes referred to), as bits. */
export interface Packed {
  /** The bits, first bit lowest, as little-endian words. */
  readonly words: Uint32Array;
  readonly bits: number;
}

/** DEFLATE symbols as bits into a growing buffer, first bit lowest. */
export class BitWriter {
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
