import { lowerBound } from './sorted-ids.js';
import type { CoordinateLookup } from './types.js';

/**
 * Coordinates of the nodes a caller asked for, and only those: 8 bytes of id (shared with the decoders),
 * 2 × 4 bytes of lat/lon in 1e-7 degrees and 1 byte of "found" per requested id, so 17 bytes per requested
 * id whatever the size of the file.
 */
export class CoordinateTable implements CoordinateLookup {
  private readonly lat: Int32Array;
  private readonly lon: Int32Array;
  private readonly found: Uint8Array;
  private foundCount = 0;

  constructor(private readonly ids: Float64Array) {
    this.lat = new Int32Array(ids.length);
    this.lon = new Int32Array(ids.length);
    this.found = new Uint8Array(ids.length);
  }

  get size(): number {
    return this.foundCount;
  }

  /** Records the coordinates (1e-7 degrees) of the id at position `slot` of the requested ids. */
  set(slot: number, latE7: number, lonE7: number): void {
    if (this.found[slot] === 0) this.foundCount++;
    this.found[slot] = 1;
    this.lat[slot] = latE7;
    this.lon[slot] = lonE7;
  }

  get(id: number): { lat: number; lon: number } | undefined {
    const slot = lowerBound(this.ids, id);
    if (slot === this.ids.length || this.ids[slot] !== id || this.found[slot] === 0) return undefined;
    return { lat: this.lat[slot] / 1e7, lon: this.lon[slot] / 1e7 };
  }
}
