// A sorted, duplicate-free set of element ids in a Float64Array (8 bytes per id). It can live in a
// SharedArrayBuffer so decoder threads read the same memory.

export class SortedIds {
  /** Position of the last lookup: lookups in ascending order (the usual order inside a block) cost O(1). */
  private cursor = 0;
  /**
   * The smallest member greater than the id last passed to indexOf (Infinity if none): a caller walking
   * ascending ids can skip lookups until it reaches this one.
   */
  following = Infinity;

  constructor(readonly ids: Float64Array) {}

  /** Sorts and de-duplicates `source` into a new set, in shared memory when `shared` is true. */
  static from(source: Iterable<number>, shared = false): SortedIds {
    const unsorted = Float64Array.from(source).sort();
    let unique = 0;
    for (let i = 0; i < unsorted.length; i++) {
      if (i === 0 || unsorted[i] !== unsorted[unique - 1]) unsorted[unique++] = unsorted[i];
    }
    const ids = shared ? new Float64Array(new SharedArrayBuffer(unique * 8)) : new Float64Array(unique);
    ids.set(unsorted.subarray(0, unique));
    return new SortedIds(ids);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The position of `id` in the set, or -1. */
  indexOf(id: number): number {
    const ids = this.ids;
    const n = ids.length;
    let i = this.cursor;
    if (i > 0 && ids[i - 1] >= id) {
      i = lowerBound(ids, id, 0, i);
    } else if (i < n && ids[i] < id) {
      // Gallop forward from the last position, then binary-search the bracket.
      let low = i + 1;
      let step = 1;
      let high = low;
      while (high < n && ids[high] < id) {
        low = high + 1;
        step *= 2;
        high = low + step;
      }
      i = lowerBound(ids, id, low, Math.min(high, n));
    }
    this.cursor = i;
    const found = i < n && ids[i] === id;
    this.following = (found ? ids[i + 1] : ids[i]) ?? Infinity;
    return found ? i : -1;
  }
}

/** First position in ids[low, high) whose id is >= `id`. */
export function lowerBound(ids: Float64Array, id: number, low = 0, high = ids.length): number {
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ids[mid] < id) low = mid + 1;
    else high = mid;
  }
  return low;
}
