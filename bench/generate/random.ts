// Seeded randomness. sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, 128-bit state) seeded through
// a 32-bit mixer: the same seed gives the same sequence on every run, so a city's content can be generated
// again in a later pass instead of being kept in memory.

/** Murmur3's 32-bit finaliser: spreads every input bit over the output. */
function mix32(value: number): number {
  let z = value | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A 32-bit hash of whole numbers (each may exceed 32 bits): derives independent seeds from one seed. */
export function hashSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = mix32(h ^ (part >>> 0));
    h = mix32(h ^ Math.floor(part / 0x1_0000_0000));
  }
  return h;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = hashSeed(seed, 1);
    this.b = hashSeed(seed, 2);
    this.c = hashSeed(seed, 3);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 0x1_0000_0000;
  }

  /** Uniform whole number in [min, max]. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

/** A fixed set of choices with relative weights. */
export class Weighted<T> {
  private readonly values: T[];
  private readonly cumulative: Float64Array;

  constructor(entries: readonly (readonly [T, number])[]) {
    this.values = entries.map(([value]) => value);
    this.cumulative = new Float64Array(entries.length);
    let sum = 0;
    entries.forEach(([, weight], i) => (this.cumulative[i] = sum += weight));
  }

  pick(random: Random): T {
    const target = random.next() * this.cumulative[this.cumulative.length - 1];
    let i = 0;
    while (this.cumulative[i] <= target) i++;
    return this.values[i];
  }
}
