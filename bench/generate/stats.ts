// What a generated extract holds, counted while it is generated. Toilet-like objects are counted by the
// importer's own classify(), so the numbers say what an import of the file must produce.
import { classify, type SkipReason, type Tags } from '../../importer/mapping/index.js';

export interface ByElement {
  nodes: number;
  ways: number;
  relations: number;
}

export type ElementKind = keyof ByElement;

export interface GeneratedStats {
  /** Standalone toilets (`amenity=toilets`) that classify() keeps: the requested number. */
  toilets: ByElement;
  /** Hosts with `toilets=yes` that classify() keeps, before the importer drops those within 30 m of a standalone toilet. */
  hostToilets: ByElement;
  /** Toilet-like objects classify() rejects (private, lifecycle, building only, `toilets=no`, hosts without access), by its reason. */
  skipped: Partial<Record<SkipReason, number>>;
  /** Tagged entrance nodes on the outlines of toilet buildings. */
  entrances: number;
  /** Place nodes: one per city used (city/town/village by population), suburbs of the big ones. */
  places: { city: number; town: number; village: number; suburb: number };
  /** Named `railway=station` nodes. */
  stations: number;
  /** Named highway ways, and distinct street names summed over cities (the importer merges ways by name per city). */
  streets: { ways: number; names: number };
  /** Named landmarks: parks (closed ways and multipolygons), museums, monuments, town halls … */
  landmarks: number;
  /** Every element in the file, by type. */
  nodes: number;
  ways: number;
  relations: number;
  /** Size of the file. */
  bytes: number;
}

export function emptyStats(): GeneratedStats {
  return {
    toilets: { nodes: 0, ways: 0, relations: 0 },
    hostToilets: { nodes: 0, ways: 0, relations: 0 },
    skipped: {},
    entrances: 0,
    places: { city: 0, town: 0, village: 0, suburb: 0 },
    stations: 0,
    streets: { ways: 0, names: 0 },
    landmarks: 0,
    nodes: 0,
    ways: 0,
    relations: 0,
    bytes: 0,
  };
}

/** Counts one toilet-like object under what classify() makes of it. */
export function countToiletLike(stats: GeneratedStats, kind: ElementKind, tags: Tags): void {
  const verdict = classify(tags);
  if (verdict.kind === 'toilet') stats.toilets[kind]++;
  else if (verdict.kind === 'host_toilet') stats.hostToilets[kind]++;
  else stats.skipped[verdict.reason] = (stats.skipped[verdict.reason] ?? 0) + 1;
}
