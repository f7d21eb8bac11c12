// What the place index is built from: one row of the source database's `places` table (see
// src/source/schema.ts), or a town from another source shaped the same way.
import type { PlaceKind } from '../rules/place-class.js';

export interface PlaceRecord {
  kind: PlaceKind;
  name: string;
  /** Other names, one per line. */
  alt_names: string | null;
  lat: number;
  lon: number;
  /** 0..1, larger is more important. */
  importance: number;
  /** Settlement the place belongs to; null for a town itself. */
  city: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
}
