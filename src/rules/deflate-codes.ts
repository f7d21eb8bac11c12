// The Huffman codes gzip-bytes.ts writes DEFLATE (RFC 1951) with: one table made once per process and used
// for every answer, so no answer pays for building codes or measuring its own symbols. The table is a
// dynamic one (block type 2) whose code lengths come from the symbol counts of the service's own answers
// (ANSWER_COUNTS below: literals are mostly digits, lower-case letters and JSON punctuation; repeats are
// the members and links every item shares), so a literal costs ~5 bits where the fixed table spends 8.
// Every literal byte and every length and distance has a code, so any body can be written with it.

/** Lengths 3..258 and distances 1..32768 as DEFLATE numbers them (RFC 1951 §3.2.5). */
export const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
export const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
export const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
export const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const MAX_BITS = 15;
/** The order the code-length code's lengths are sent in (RFC 1951 §3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A block's codes, bit-reversed as they are written (DEFLATE packs Huffman codes from their top bit). */
export interface DeflateCodes {
  /** By length 3..258: its symbol's code with the extra bits above it, and their number of bits. */
  readonly lengthCode: Uint32Array;
  readonly lengthBits: Uint8Array;
  /** By literal byte (and 256: end of block). */
  readonly literalCode: Uint32Array;
  readonly literalBits: Uint8Array;
  /** By literal byte: its code with its number of bits in the top byte (one load per literal). */
  readonly literal: Int32Array;
  readonly distanceCode: Uint32Array;
  readonly distanceBits: Uint8Array;
  /** The block's start (BFINAL set, BTYPE, the code lengths) as bytes, the last one partial. */
  readonly prelude: Uint8Array;
  readonly preludeBits: number;
}

/**
 * Symbol counts (÷ 20, at least 1 so that any body has a code) of this encoder's output for the nearest
 * (limits 1–20) and area (limits 20, 50, 200) answers of 400 points in each of the Porto, Liechtenstein
 * and Andorra extracts (2026-12-01): literals 0–255, end of block, lengths' symbols 257–285; distances.
 */
const ANSWER_LITERALS = [
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 305, 1, 1796, 1, 1, 1, 15, 7, 7, 7, 1, 5, 655, 100, 264, 120,
  362, 498, 294, 253, 380, 304, 363, 251, 320, 272, 697, 8, 1, 31, 1, 13, 1, 7, 4, 1, 19, 1, 2, 3,
  6, 2, 1, 1, 20, 17, 1, 25, 6, 1, 1, 19, 9, 1, 2, 1, 1, 1, 1, 31, 10, 38, 1, 150,
  1, 687, 104, 435, 251, 1112, 136, 163, 207, 479, 2, 92, 767, 213, 1011, 630, 294, 7, 503, 473, 666, 451, 96, 196,
  21, 43, 1, 62, 1, 59, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 7, 2, 3, 7, 1, 3, 4, 4,
  13, 55, 19, 22, 7, 123, 60, 3, 5, 3, 4, 4, 61, 2, 68, 8, 5, 21, 2, 1, 24, 41,
];
const ANSWER_DISTANCES = [
  1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 61, 1, 63, 2, 1,
  5, 2, 1, 1, 304, 1, 62, 33, 26, 4, 1, 2, 1, 1, 1,
];

/** Code lengths for `counts` (0 for a count of 0), none longer than `maxBits`. */
export function codeLengths(counts: readonly number[], maxBits: number): number[] {
  let weights = [...counts];
  for (;;) {
    const lengths = huffmanLengths(weights);
    if (Math.max(...lengths) <= maxBits) return lengths;
    weights = weights.map((w) => (w === 0 ? 0 : (w + 1) >> 1)); // flatter counts give shorter longest codes
  }
}

function huffmanLengths(weights: readonly number[]): number[] {
  const lengths = new Array<number>(weights.length).fill(0);
  type Node = { weight: number; symbols: number[] };
  let nodes: Node[] = weights.flatMap((weight, symbol) => (weight > 0 ? [{ weight, symbols: [symbol] }] : []));
  if (nodes.length === 1) lengths[nodes[0].symbols[0]] = 1;
  while (nodes.length > 1) {
    nodes.sort((a, b) => a.weight - b.weight);
    const [a, b] = nodes;
    for (const symbol of [...a.symbols, ...b.symbols]) lengths[symbol]++;
    nodes = [{ weight: a.weight + b.weight, symbols: [...a.symbols, ...b.symbols] }, ...nodes.slice(2)];
  }
  return lengths;
}

/** Canonical codes of `lengths` (RFC 1951 §3.2.2), bit-reversed for writing. */
export function canonicalCodes(lengths: readonly number[]): Uint32Array {
  const count = new Array<number>(MAX_BITS + 1).fill(0);
  for (const length of lengths) if (length > 0) count[length]++;
  const next = new Array<number>(MAX_BITS + 2).fill(0);
  for (let bits = 1, code = 0; bits <= MAX_BITS; bits++) next[bits] = code = (code + count[bits - 1]) << 1;
  const codes = new Uint32Array(lengths.length);
  lengths.forEach((length, symbol) => {
    if (length > 0) codes[symbol] = reverse(next[length]++, length);
  });
  return codes;
}

function reverse(code: number, bits: number): number {
  let reversed = 0;
  for (let i = 0; i < bits; i++) reversed |= ((code >>> i) & 1) << (bits - 1 - i);
  return reversed;
}

/** Collects bits into bytes, first bit lowest (for the prelude, made once). */
class BitList {
  readonly bytes: number[] = [];
  bits = 0;

  put(value: number, bits: number): void {
    for (let i = 0; i < bits; i++, this.bits++) {
      if ((this.bits & 7) === 0) this.bytes.push(0);
      this.bytes[this.bytes.length - 1] |= ((value >>> i) & 1) << (this.bits & 7);
    }
  }
}

/** The code lengths of both alphabets run-length coded (symbols 16–18), as [symbol, extra value] pairs. */
function runLengths(lengths: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < lengths.length; ) {
    const length = lengths[i];
    let run = 1;
    while (i + run < lengths.length && lengths[i + run] === length) run++;
    let left = run;
    if (length === 0) {
      while (left >= 11) out.push([18, Math.min(left, 138) - 11]), (left -= Math.min(left, 138));
      if (left >= 3) out.push([17, left - 3]), (left = 0);
    } else {
      out.push([length, 0]);
      left--;
      while (left >= 3) out.push([16, Math.min(left, 6) - 3]), (left -= Math.min(left, 6));
    }
    for (; left > 0; left--) out.push([length, 0]);
    i += run;
  }
  return out;
}

/** The block start of a dynamic block with these code lengths (RFC 1951 §3.2.7), BFINAL set. */
function dynamicPrelude(literalLengths: readonly number[], distanceLengths: readonly number[]): BitList {
  const runs = runLengths([...literalLengths, ...distanceLengths]);
  const counts = new Array<number>(19).fill(0);
  for (const [symbol] of runs) counts[symbol]++;
  const lengths = codeLengths(counts, 7);
  const codes = canonicalCodes(lengths);
  let sent = 19;
  while (sent > 4 && lengths[CODE_LENGTH_ORDER[sent - 1]] === 0) sent--;
  const bits = new BitList();
  bits.put(1, 1); // BFINAL
  bits.put(2, 2); // BTYPE: dynamic codes
  bits.put(literalLengths.length - 257, 5);
  bits.put(distanceLengths.length - 1, 5);
  bits.put(sent - 4, 4);
  for (let i = 0; i < sent; i++) bits.put(lengths[CODE_LENGTH_ORDER[i]], 3);
  for (const [symbol, extra] of runs) {
    bits.put(codes[symbol], lengths[symbol]);
    if (symbol >= 16) bits.put(extra, symbol === 16 ? 2 : symbol === 17 ? 3 : 7);
  }
  return bits;
}

/** The codes of a dynamic block built from symbol counts. */
export function deflateCodes(counts = { literals: ANSWER_LITERALS, distances: ANSWER_DISTANCES }): DeflateCodes {
  const literalBits = codeLengths(counts.literals, MAX_BITS);
  const distanceBits = codeLengths(counts.distances, MAX_BITS);
  const literalCode = canonicalCodes(literalBits);
  const distanceCode = canonicalCodes(distanceBits);
  const lengthCode = new Uint32Array(259);
  const lengthBits = new Uint8Array(259);
  for (let length = 3, symbol = 0; length <= 258; length++) {
    while (symbol + 1 < LENGTH_BASE.length && LENGTH_BASE[symbol + 1] <= length) symbol++;
    const bits = literalBits[257 + symbol];
    lengthCode[length] = literalCode[257 + symbol] | ((length - LENGTH_BASE[symbol]) << bits);
    lengthBits[length] = bits + LENGTH_EXTRA[symbol];
  }
  const prelude = dynamicPrelude(literalBits, distanceBits);
  return {
    lengthCode,
    lengthBits,
    literalCode,
    literalBits: Uint8Array.from(literalBits),
    literal: Int32Array.from({ length: 256 }, (_, byte) => literalCode[byte] | (literalBits[byte] << 24)),
    distanceCode,
    distanceBits: Uint8Array.from(distanceBits),
    prelude: Uint8Array.from(prelude.bytes),
    preludeBits: prelude.bits,
  };
}
