// An append-only typed array that doubles when full: while the place index is built, a million values cost
// 1 to 8 bytes each instead of the 8 to 16 of a number[], and nothing is boxed.

type NumberArray = Uint8Array | Uint32Array | Float32Array | Float64Array;

export class GrowableArray<T extends NumberArray> {
  private items: T;
  length = 0;

  constructor(private readonly create: (length: number) => T) {
    this.items = create(1024);
  }

  push(value: number): void {
    if (this.length === this.items.length) {
      const grown = this.create(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = value;
  }

  get(index: number): number {
    return this.items[index];
  }

  /** A right-sized copy. */
  toArray(): T {
    return this.items.slice(0, this.length) as T;
  }
}

/** Strings as UTF-8 in one growing buffer, each addressed by its index. */
export class GrowableText {
  private bytes = Buffer.allocUnsafe(1 << 16);
  private readonly ends = new GrowableArray((n) => new Uint32Array(n));

  get length(): number {
    return this.ends.length;
  }

  push(text: string): void {
    const start = this.end(this.ends.length - 1);
    // Room for the longest UTF-8 a text of this length can have (3 bytes per UTF-16 unit), so one pass
    // writes it, instead of one to measure and one to write.
    const room = start + 3 * text.length;
    if (room > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(room, this.bytes.length * 2));
      this.bytes.copy(grown, 0, 0, start);
      this.bytes = grown;
    }
    this.ends.push(start + this.bytes.write(text, start));
  }

  /** The texts in the given order, as one buffer and the start of each (plus the end of the last). */
  reordered(order: ArrayLike<number>): { starts: Uint32Array; bytes: Buffer } {
    const starts = new Uint32Array(order.length + 1);
    for (let i = 0; i < order.length; i++) starts[i + 1] = starts[i] + this.end(order[i]) - this.end(order[i] - 1);
    const bytes = Buffer.allocUnsafe(starts[order.length]);
    // Byte by byte: names are short, and a Buffer copy per name cost more than its bytes.
    const from = this.bytes;
    for (let i = 0; i < order.length; i++) {
      for (let at = starts[i], b = this.end(order[i] - 1), end = this.end(order[i]); b < end; b++) bytes[at++] = from[b];
    }
    return { starts, bytes };
  }

  private end(index: number): number {
    return index < 0 ? 0 : this.ends.get(index);
  }
}
