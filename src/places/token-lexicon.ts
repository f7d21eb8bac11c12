// Token ids. Both the interner that hands them out while the index is built and the finished index keep
// token bytes and an open-addressing hash table of ids, a fraction of what a Map of a million strings
// costs. Lookups take bytes, so the build interns what TokenScanner folds without making a string of each
// token, and the misspelling search tries hundreds of variants without making a string of each.
// Tokens are folded, so every character is one ASCII byte.

const EMPTY = -1;

/** FNV-1a over bytes[from..to). */
function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash >>> 0;
}

/**
 * The slot of token[from..to) in `slots` (ids of the tokens bytes[starts[id] .. starts[id + 1])): the one
 * holding its id, else the empty one where it would go.
 */
function slotOf(slots: Int32Array, bytes: Uint8Array, starts: Uint32Array, token: Uint8Array, from: number, to: number): number {
  const mask = slots.length - 1;
  for (let slot = hashOf(token, from, to) & mask; ; slot = (slot + 1) & mask) {
    const id = slots[slot];
    if (id === EMPTY) return slot;
    const start = starts[id];
    if (starts[id + 1] - start !== to - from) continue;
    let equal = true;
    for (let i = 0; i < to - from && equal; i++) equal = bytes[start + i] === token[from + i];
    if (equal) return slot;
  }
}

/** A table of `capacity` slots (a power of two) holding ids 0 .. count-1, placed in id order. */
function slotsFor(capacity: number, count: number, bytes: Uint8Array, starts: Uint32Array): Int32Array {
  const slots = new Int32Array(capacity).fill(EMPTY);
  for (let id = 0; id < count; id++) slots[slotOf(slots, bytes, starts, bytes, starts[id], starts[id + 1])] = id;
  return slots;
}

export class TokenInterner {
  private bytes: Uint8Array = new Uint8Array(1 << 16);
  /** Where each token's bytes start, and after the last the end of its bytes. */
  private starts: Uint32Array = new Uint32Array(1 << 12);
  private slots: Int32Array = new Int32Array(1 << 13).fill(EMPTY);
  private scratch = new Uint8Array(64);
  size = 0;

  /** The id of a token, handing out the next one for a token not seen before. */
  intern(token: string): number {
    if (token.length > this.scratch.length) this.scratch = new Uint8Array(token.length * 2);
    for (let i = 0; i < token.length; i++) this.scratch[i] = token.charCodeAt(i);
    return this.internBytes(this.scratch, 0, token.length);
  }

  /** The id of the token spelt by token[from..to), handing out the next one for a token not seen before. */
  internBytes(token: Uint8Array, from: number, to: number): number {
    const slot = slotOf(this.slots, this.bytes, this.starts, token, from, to);
    if (this.slots[slot] !== EMPTY) return this.slots[slot];
    const id = this.size++;
    const start = this.starts[id];
    if (start + to - from > this.bytes.length) this.bytes = grown(this.bytes, start + to - from);
    this.bytes.set(token.subarray(from, to), start);
    if (id + 2 > this.starts.length) this.starts = grown(this.starts, id + 2);
    this.starts[id + 1] = start + to - from;
    this.slots[slot] = id;
    if (2 * this.size > this.slots.length) this.slots = slotsFor(2 * this.slots.length, this.size, this.bytes, this.starts);
    return id;
  }

  /** The id of the token spelt by token[from..to), or -1 when it was never interned. */
  idOfBytes(token: Uint8Array, from: number, to: number): number {
    return this.slots[slotOf(this.slots, this.bytes, this.starts, token, from, to)];
  }

  /** The compact, read-only form: its table as small as a load of one half allows. */
  toLexicon(): TokenLexicon {
    const bytes = this.bytes.slice(0, this.starts[this.size]);
    const starts = this.starts.slice(0, this.size + 1);
    let capacity = 16;
    while (capacity < this.size * 2) capacity *= 2;
    return new TokenLexicon(bytes, starts, slotsFor(capacity, this.size, bytes, starts));
  }
}

function grown<T extends Uint8Array | Uint32Array>(array: T, needed: number): T {
  const larger = new (array.constructor as new (length: number) => T)(Math.max(needed, 2 * array.length));
  larger.set(array);
  return larger;
}

export class TokenLexicon {
  private scratch = new Uint8Array(64);

  constructor(
    private readonly bytes: Uint8Array,
    private readonly starts: Uint32Array,
    private readonly slots: Int32Array,
  ) {}

  /** The arrays it is made of, to store it and make it again with `new TokenLexicon(...parts)`. */
  get parts(): [bytes: Uint8Array, starts: Uint32Array, slots: Int32Array] {
    return [this.bytes, this.starts, this.slots];
  }

  get size(): number {
    return this.starts.length - 1;
  }

  get byteLength(): number {
    return this.bytes.byteLength + this.starts.byteLength + this.slots.byteLength;
  }

  /** The id of a token, or -1 when no indexed name has it. */
  idOf(token: string): number {
    if (token.length > this.scratch.length) this.scratch = new Uint8Array(token.length * 2);
    for (let i = 0; i < token.length; i++) this.scratch[i] = token.charCodeAt(i);
    return this.idOfBytes(this.scratch, token.length);
  }

  /** The id of the token spelt by token[0..length), or -1. */
  idOfBytes(token: Uint8Array, length: number): number {
    return this.slots[slotOf(this.slots, this.bytes, this.starts, token, 0, length)];
  }
}
