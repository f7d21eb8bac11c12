// Which points a search keeps. Each point has a tag byte (the toilet's filter traits); the searches keep a
// copy of the tags in their own point order, so the points of a leaf are tested with one sequential read
// instead of one random read of the row's traits each (at a million toilets that was most of a search's
// time). A callback is asked only about points the tags cannot decide (open_now for toilets with hours).
import { sharedArray } from '../rules/shared-array.js';

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

/** The position of each row in a search's point order (`rowAt[position]`: the row there), in shared memory. */
export function positionsOf(rowAt: ArrayLike<number>, count: number): Uint32Array {
  const positionOfRow = sharedArray(Uint32Array, count);
  for (let position = 0; position < count; position++) positionOfRow[rowAt[position]] = position;
  return positionOfRow;
}

/** Tags in a search's point order, kept in step with the rows' tags through set(). */
export class PositionTags {
  readonly tags: Uint8Array;

  /** `positionOfRow`: see positionsOf; `rowTags[row]`: the tags now (all zero when absent). */
  constructor(
    private readonly positionOfRow: Uint32Array,
    rowTags?: Uint8Array,
  ) {
    const count = positionOfRow.length;
    this.tags = new Uint8Array(count);
    if (rowTags) for (let row = 0; row < count; row++) this.tags[positionOfRow[row]] = rowTags[row];
  }

  set(row: number, tag: number): void {
    this.tags[this.positionOfRow[row]] = tag;
  }

  positionOf(row: number): number {
    return this.positionOfRow[row];
  }
}
