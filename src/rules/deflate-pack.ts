// A fragment's DEFLATE symbols alone, packed as bits once per fragment and thread: gzip-bytes.ts copies them
// whole where the fragment first appears in an answer. The repeats inside the fragment (an enum member's
// quotes and names, a link's host twice) are found by a search at every byte: each position is hashed on
// its first four bytes and the longest match among the last few positions with that hash is taken. This
// runs once per fragment, so it may take its time; nothing here runs per request.
import type { DeflateCodes } from './deflate-codes.js';
import { BitWriter, MAX_MATCH, type Packed } from './deflate-bits.js';

const WINDOW = 32768;
const MIN_MATCH = 4;
const HASH_BITS = 12;
/** Earlier positions kept per hash. */
const WAYS = 4;

export class FragmentPacker {
  private readonly writer: BitWriter;
  private readonly starts = new Int32Array((1 << HASH_BITS) * WAYS);

  constructor(codes: DeflateCodes) {
    this.writer = new BitWriter(codes);
  }

  /** `fragment`'s symbols, repeats referring only to the fragment's own earlier bytes. */
  pack(fragment: Uint8Array): Packed {
    const writer = this.writer;
    const starts = this.starts;
    starts.fill(-1);
    writer.begin(0, 0, 0, fragment.length * 2 + 8);
    const length = fragment.length;
    let next = 0; // first byte not yet written
    for (let at = 0; at + MIN_MATCH <= length; at++) {
      const bucket = (Math.imul(word(fragment, at), 0x9e3779b1) >>> (32 - HASH_BITS)) * WAYS;
      if (at >= next) {
        let best = MIN_MATCH - 1;
        let distance = 0;
        for (let way = 0; way < WAYS; way++) {
          const earlier = starts[bucket + way];
          if (earlier < 0 || at - earlier > WINDOW) break;
          let n = 0;
          while (at + n < length && n < MAX_MATCH && fragment[earlier + n] === fragment[at + n]) n++;
          if (n > best) [best, distance] = [n, at - earlier];
        }
        if (distance > 0) {
          writer.literals(fragment, next, at);
          writer.match(best, distance);
          next = at + best;
        }
      }
      for (let way = WAYS - 1; way > 0; way--) starts[bucket + way] = starts[bucket + way - 1];
      starts[bucket] = at;
    }
    writer.literals(fragment, next, length);
    return writer.take();
  }
}

function word(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
}
