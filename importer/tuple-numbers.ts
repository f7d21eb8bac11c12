// Numbers (from 1) for tuples of numbers of one width, given in order of first appearance: an open-addressing
// hash table over one flat array of the tuples seen. A Map keyed by a string made per tuple cost ~0.8 µs a
// tuple, most of the database thread's column-store work while rows stream in. NaN equals NaN and -0 equals 0.

const FIRST_SLOTS = 1 << 12;

export class TupleNumbers {
  /** The tuples, `width` values each: number n at (n - 1) * width. */
  private readonly tuples: number[] = [];
  /** Per slot a tuple's number, 0 when free; kept at most half full. */
  private slots = new Int32Array(FIRST_SLOTS);
  private readonly bits = new Float64Array(1);
  private readonly words = new Int32Array(this.bits.buffer);
  count = 0;

  constructor(private readonly width: number) {}

  /** The number of `values[at .. at + width)`. */
  numberOf(values: ArrayLike<number>, at: number): number {
    const hash = this.hash(values, at);
    let mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const number = this.slots[slot];
      if (number === 0) break;
      if (this.equal(number, values, at)) return number;
    }
    for (let i = 0; i < this.width; i++) this.tuples.push(values[at + i]);
    const number = ++this.count;
    if (2 * number > this.slots.length) this.grow();
    mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = number;
    return number;
  }

  private equal(number: number, values: ArrayLike<number>, at: number): boolean {
    const from = (number - 1) * this.width;
    for (let i = 0; i < this.width; i++) {
      const a = this.tuples[from + i];
      const b = values[at + i];
      if (a !== b && !(a !== a && b !== b)) return false;
    }
    return true;
  }

  private hash(values: ArrayLike<number>, at: number): number {
    let hash = 0x811c9dc5;
    for (let i = 0; i < this.width; i++) {
      const value = values[at + i];
      this.bits[0] = value !== value ? Number.NaN : value + 0; // one NaN; -0 + 0 is 0
      hash = Math.imul(hash ^ this.words[0], 0x01000193);
      hash = Math.imul(hash ^ this.words[1], 0x01000193);
    }
    return (hash ^ (hash >>> 15)) >>> 0;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let number = 1; number < this.count; number++) {
      let slot = this.hash(this.tuples, (number - 1) * this.width) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = number;
    }
    this.slots = slots;
  }
}
