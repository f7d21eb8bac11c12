// The targets of the benchmark issue. HTTP throughput is a ratio to a ceiling measured in the same run;
// the rest are absolute bounds on the 2-core, 24 GB reference machine.

export const TARGETS = {
  httpNearestRatio: 0.4,
  httpNearestStretchRatio: 0.6,
  httpAreaRatio: 0.4,
  httpToiletRatio: 0.4,
  nearestP99Us: 30,
  nearestFilteredP99Us: 200,
  /** The area search (limit 200, dense boxes); the assembled answer is reported beside it (bench/run.ts AREA_SEARCH). */
  areaP99Us: 100,
  startupMs: 3000,
  startupRssMb: 600,
  importVsOsmium: 1.5,
  importPeakRssMb: 1536,
  placeLookupP99Us: 1000,
  placeIndexBuildMsPer100k: 1000,
  /** Throughput that metrics, or the access log, may cost on nearest over HTTP (median of alternating on/off rounds). */
  observabilityCostMax: 0.05,
} as const;

export type Verdict = 'PASS' | 'FAIL' | 'SKIP';

export function atMost(value: number | null, bound: number): Verdict {
  return value === null ? 'SKIP' : value <= bound ? 'PASS' : 'FAIL';
}

export function atLeast(value: number | null, bound: number): Verdict {
  return value === null ? 'SKIP' : value >= bound ? 'PASS' : 'FAIL';
}
