// Recognises a town of a second source (GeoNames) that the extract already has: a settlement with one of
// its folded names within SAME_TOWN_WITHIN_M (GeoNames and OSM put a big city's point kilometres apart).
import KDBush from 'kdbush';
import type { PlaceRecord } from './record.js';
import { distanceMeters } from '../geo/sphere.js';

/** A town of the second source this close to a settlement of the same name is that settlement. */
export const SAME_TOWN_WITHIN_M = 10_000;

/** Settlements of the primary records with their folded names, to recognise the same town from GeoNames. */
export class KnownSettlements {
  private readonly lats: number[] = [];
  private readonly lons: number[] = [];
  private readonly keys: Set<string>[] = [];

  /** `names`: a key per folded name, equal for equal names. */
  add(record: PlaceRecord, names: string[]): void {
    this.lats.push(record.lat);
    this.lons.push(record.lon);
    this.keys.push(new Set(names));
  }

  /** `names` gives the town's keys (see add), asked for only when a settlement is near. */
  finish(): { has(town: PlaceRecord, names: () => string[]): boolean } {
    if (this.keys.length === 0) return { has: () => false };
    const index = new KDBush(this.keys.length);
    for (let i = 0; i < this.keys.length; i++) index.add(this.lons[i], this.lats[i]);
    index.finish();
    return {
      has: (town, namesOf) => {
        let names: string[] | null = null;
        const dLat = SAME_TOWN_WITHIN_M / 111_000;
        const dLon = dLat / Math.max(0.05, Math.cos((town.lat * Math.PI) / 180));
        for (const i of index.range(town.lon - dLon, town.lat - dLat, town.lon + dLon, town.lat + dLat)) {
          if (distanceMeters(town.lat, town.lon, this.lats[i], this.lons[i]) > SAME_TOWN_WITHIN_M) continue;
          names ??= namesOf();
          if (names.some((name) => this.keys[i].has(name))) return true;
        }
        return false;
      },
    };
  }
}
