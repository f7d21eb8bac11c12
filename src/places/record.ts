// What the place index is built from: one row of the source database's `places` table (see
// src/source/schema.ts), or a town from another source shaped the same way.

export const PLACE_KINDS = ['settlement', 'station', 'street', 'landmark'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** Kinds as the index stores them (one byte per place). */
export const KIND_CODE = { settlement: 0, station: 1, street: 2, landmark: 3 } as const satisfies Record<PlaceKind, number>;
export type PlaceKindCode = (typeof KIND_CODE)[PlaceKind];

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
