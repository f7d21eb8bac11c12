// Recognises a town of a second source (GeoNames) that the extract already has: a settlement with one of
// its folded names within SAME_TOWN_WITHIN_M (GeoNames and OSM put a big city's point kilometres apart).
// Settlements are found by name, then by distance: a name has few settlements, where a spatial search
// around each of ~130,000 towns found many settlements to compare names with (and a set of names each).
// A town whose box holds no settlement's extent is answered before its names are folded: for a regional
// extract that is nearly every town, and folding the names was a third of what the towns cost a build.
import type { PlaceRecord } from './record.js';
import { distanceMeters } from '../geo/sphere.js';

/** A town of the second source this close to a settlement of the same name is that settlement. */
export const SAME_TOWN_WITHIN_M = 10_000;

/** Settlements of the primary records by their folded names, to recognise the same town from GeoNames. */
export class KnownSettlements {
  private readonly lats: number[] = [];
  private readonly lons: number[] = [];
  /** The settlements having each name key. */
  private readonly byName = new Map<string, number[]>();
  /** The box around all settlements. */
  private south = Infinity;
  private north = -Infinity;
  private west = Infinity;
  private east = -Infinity;

  /** `names`: a key per distinct folded name, equal for equal names. */
  add(record: PlaceRecord, names: readonly string[]): void {
    const settlement = this.lats.length;
    this.lats.push(record.lat);
    this.lons.push(record.lon);
    this.south = Math.min(this.south, record.lat);
    this.north = Math.max(this.north, record.lat);
    this.west = Math.min(this.west, record.lon);
    this.east = Math.max(this.east, record.lon);
    for (const name of names) {
      const settlements = this.byName.get(name);
      if (settlements === undefined) this.byName.set(name, [settlement]);
      else settlements.push(settlement);
    }
  }

  /**
   * Whether a settlement with one of the town's names lies within SAME_TOWN_WITHIN_M. `namesOf` gives the
   * town's name keys (as for add); it is not called when no settlement at all lies in the town's box.
   */
  has(town: PlaceRecord, namesOf: () => readonly string[]): boolean {
    // Inside a box around the town, then within SAME_TOWN_WITHIN_M of it. The box holds the whole circle
    // but within 3° of a pole, where its longitude reach is capped.
    const dLat = SAME_TOWN_WITHIN_M / 111_000;
    const dLon = dLat / Math.max(0.05, Math.cos((town.lat * Math.PI) / 180));
    if (this.east < town.lon - dLon || this.west > town.lon + dLon || this.north < town.lat - dLat || this.south > town.lat + dLat) return false;
    for (const name of namesOf()) {
      for (const i of this.byName.get(name) ?? []) {
        const lat = this.lats[i];
        const lon = this.lons[i];
        if (lon < town.lon - dLon || lon > town.lon + dLon || lat < town.lat - dLat || lat > town.lat + dLat) continue;
        if (distanceMeters(town.lat, town.lon, lat, lon) <= SAME_TOWN_WITHIN_M) return true;
      }
    }
    return false;
  }
}
