// A deterministic pseudo-random sequence in (0, 1) for tests (Park–Miller), so a failing case repeats.

/** `seed`: a whole number from 1 to 2,147,483,646. */
export function seededRandom(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}
