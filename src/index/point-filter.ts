// Which points a search keeps. Each point has a tag byte (the toilet's filter traits); the searches keep a
// copy of the tags in their own point order, so the points of a leaf are tested with one sequential read
// instead of one random read of the row's traits each (at a million toilets that was most of a search's
// time). A callback is asked only about points the tags cannot decide (open_now for toilets with hours).

/** Decides a point by its row. */
export type Accept = (row: number) => boolean;

export interface PointFilter {
  /** Kept: points whose tag, masked, equals `required`, */
  mask: number;
  required: number;
  /** and, of those with a tag bit in `verify` (VERIFY_EVERY: all), the ones `accept` keeps. */
  verify: number;
  accept: Accept | null;
}

/** In `verify`: ask `accept` about every point. */
export const VERIFY_EVERY = 0x100;

export const EVERY_POINT: PointFilter = { mask: 0, required: 0, verify: 0, accept: null };

/** A filter that asks `accept` about every point. */
export function acceptFilter(accept: Accept): PointFilter {
  return { mask: 0, required: 0, verify: VERIFY_EVERY, accept };
}

export function keeps(filter: PointFilter, tag: number, row: number): boolean {
  if ((tag & filter.mask) !== filter.required) return false;
  return ((tag | VERIFY_EVERY) & filter.verify) === 0 || filter.accept === null || filter.accept(row);
}

/** Tags in a search's point order, kept in step with the rows' tags through set(). */
export class PositionTags {
  readonly tags: Uint8Array;
  private readonly positionOfRow: Uint32Array;

  /** `rowAt[position]`: the row at each position; `rowTags[row]`: the tags now (all zero when absent). */
  constructor(rowAt: ArrayLike<number>, count: number, rowTags?: Uint8Array) {
    this.tags = new Uint8Array(count);
    this.positionOfRow = new Uint32Array(count);
    for (let position = 0; position < count; position++) {
      const row = rowAt[position];
      this.positionOfRow[row] = position;
      if (rowTags) this.tags[position] = rowTags[row];
    }
  }

  set(row: number, tag: number): void {
    this.tags[this.positionOfRow[row]] = tag;
  }

  positionOf(row: number): number {
    return this.positionOfRow[row];
  }
}
