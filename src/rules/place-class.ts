// Place classes: which OSM tags make a place for the place lookup, of which kind, and how important it
// is. Shared by the importer (which classifies OSM elements) and the server (which rates the GeoNames
// towns it adds on the same scale), so both rank places by one rule.

export const PLACE_KINDS = ['settlement', 'station', 'street', 'landmark'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

/** Kinds as the index stores them (one byte per place). */
export const KIND_CODE = { settlement: 0, station: 1, street: 2, landmark: 3 } as const satisfies Record<PlaceKind, number>;
export type PlaceKindCode = (typeof KIND_CODE)[PlaceKind];

export interface PlaceClass {
  kind: PlaceKind;
  subkind: string;
  /** 0..1 before boosts. */
  base: number;
}

// key -> value -> [kind, base importance]. One table drives both the scan selectors and classification.
const PLACE_TAGS: Record<string, Record<string, [PlaceKind, number]>> = {
  place: {
    city: ['settlement', 0.9], town: ['settlement', 0.75], suburb: ['settlement', 0.55], borough: ['settlement', 0.55],
    village: ['settlement', 0.5], quarter: ['settlement', 0.45], neighbourhood: ['settlement', 0.4],
    hamlet: ['settlement', 0.3], locality: ['settlement', 0.2], square: ['landmark', 0.4], island: ['landmark', 0.35],
  },
  railway: { station: ['station', 0.6], halt: ['station', 0.45], tram_stop: ['station', 0.35] },
  public_transport: { station: ['station', 0.6] },
  station: { subway: ['station', 0.55], light_rail: ['station', 0.5] },
  highway: {
    bus_stop: ['station', 0.25],
    trunk: ['street', 0.35], primary: ['street', 0.35], secondary: ['street', 0.32], tertiary: ['street', 0.3],
    pedestrian: ['street', 0.3], residential: ['street', 0.25], living_street: ['street', 0.25],
    unclassified: ['street', 0.22], road: ['street', 0.2], service: ['street', 0.15], footway: ['street', 0.15],
  },
  amenity: {
    bus_station: ['station', 0.45], ferry_terminal: ['station', 0.45],
    townhall: ['landmark', 0.45], university: ['landmark', 0.45], hospital: ['landmark', 0.45],
    marketplace: ['landmark', 0.4], theatre: ['landmark', 0.4], library: ['landmark', 0.35],
  },
  aeroway: { aerodrome: ['landmark', 0.6] },
  tourism: {
    attraction: ['landmark', 0.4], museum: ['landmark', 0.45], viewpoint: ['landmark', 0.3], zoo: ['landmark', 0.45],
    theme_park: ['landmark', 0.45], gallery: ['landmark', 0.35],
  },
  historic: {
    monument: ['landmark', 0.4], castle: ['landmark', 0.45], memorial: ['landmark', 0.3], palace: ['landmark', 0.45],
    city_gate: ['landmark', 0.4], ruins: ['landmark', 0.3],
  },
  leisure: { park: ['landmark', 0.4], stadium: ['landmark', 0.45], garden: ['landmark', 0.35] },
  shop: { mall: ['landmark', 0.4] },
  man_made: { tower: ['landmark', 0.3], lighthouse: ['landmark', 0.35] },
};

/** Keys and values that can make an element a place (scan selector). */
export const PLACE_SELECTOR: Record<string, string[]> = Object.fromEntries(
  Object.entries(PLACE_TAGS).map(([key, values]) => [key, Object.keys(values)]),
);

/**
 * key -> value -> the place class it makes: one frozen object per class, so a class can be numbered
 * (element-class.ts). Null-prototype tables: a tag value such as `constructor` is no class.
 */
export const PLACE_CLASS_OF: Record<string, Record<string, PlaceClass>> = Object.fromEntries(
  Object.entries(PLACE_TAGS).map(([key, values]) => {
    const classes = Object.create(null) as Record<string, PlaceClass>;
    for (const [value, [kind, base]] of Object.entries(values)) classes[value] = Object.freeze({ kind, subkind: value, base });
    return [key, classes];
  }),
);

/** Every place class, in a fixed order. */
export const PLACE_CLASSES: readonly PlaceClass[] = Object.values(PLACE_CLASS_OF).flatMap((classes) => Object.values(classes));

/** The place class a key and value make, or null; unlike classifyPlace, whatever the other tags (a name, …). */
export function placeClassOf(key: string, value: string): PlaceClass | null {
  return Object.hasOwn(PLACE_CLASS_OF, key) ? (PLACE_CLASS_OF[key][value] ?? null) : null;
}

/** importanceOf from the facts themselves (`population` NaN or 0 when unknown). */
export function rateImportance(cls: PlaceClass, population: number, capital: boolean, wikidata: boolean): number {
  let importance = cls.base;
  if (population > 0) importance += 0.1 * Math.min(1, Math.log10(population) / 7);
  if (capital) importance += 0.05;
  if (wikidata) importance += 0.05;
  return Math.min(1, Math.round(importance * 1000) / 1000);
}
