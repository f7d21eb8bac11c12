// Token ids. While the index is built, a Map hands them out; the finished index keeps only the token bytes
// and an open-addressing hash table of ids, a fraction of what a Map of a million strings costs. Lookups
// take bytes, so the misspelling search can try hundreds of variants without making a string of each.
// Tokens are folded, so every character is one ASCII byte.

const EMPTY = -1;

/** FNV-1a over bytes[from..to). */
function hashOf(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return hash >>> 0;
}

export class TokenInterner {
  private readonly ids = new Map<string, number>();

  /** The id of a token, handing out the next one for a token not seen before. */
  intern(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(token, id);
    }
    return id;
  }

  /** The compact, read-only form. */
  toLexicon(): TokenLexicon {
    let byteCount = 0;
    for (const token of this.ids.keys()) byteCount += token.length;
    const bytes = new Uint8Array(byteCount);
    const starts = new Uint32Array(this.ids.size + 1);
    let capacity = 16;
    while (capacity < this.ids.size * 2) capacity *= 2;
    const slots = new Int32Array(capacity).fill(EMPTY);
    let offset = 0;
    for (const [token, id] of this.ids) {
      starts[id] = offset;
      for (let i = 0; i < token.length; i++) bytes[offset + i] = token.charCodeAt(i);
      let slot = hashOf(bytes, offset, offset + token.length) & (capacity - 1);
      while (slots[slot] !== EMPTY) slot = (slot + 1) & (capacity - 1);
      slots[slot] = id;
      offset += token.length;
    }
    starts[this.ids.size] = offset;
    return new TokenLexicon(bytes, starts, slots);
  }
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
    const mask = this.slots.length - 1;
    for (let slot = hashOf(token, 0, length) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot];
      if (id === EMPTY || this.equals(id, token, length)) return id;
    }
  }

  private equals(id: number, token: Uint8Array, length: number): boolean {
    const start = this.starts[id];
    if (this.starts[id + 1] - start !== length) return false;
    for (let i = 0; i < length; i++) if (this.bytes[start + i] !== token[i]) return false;
    return true;
  }
}
