// The targets of the benchmark issue. HTTP throughput is a ratio to a ceiling measured in the same run;
// the rest are absolute bounds on the 2-core, 24 GB reference machine.

export const TARGETS = {
  /**
   * The site's first list of results over a script-free page's load, on a throttled phone (bench/web.ts):
   * our module, one findToiletsNear request and the list's rendering may cost at most 3 such page loads,
   * which keeps the first list within about a second on a mid-range phone (RAIL's 1 s for a response that
   * completes a task).
   */
  webFirstListRatio: 3,
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
  /** Throughput that both together (the defaults) may cost on nearest over HTTP (issue 42; same rounds). */
  defaultsHttpCostMax: 0.08,
  /** CPU per nearest request that the defaults may cost in-process (issue 42; median of alternating pairs, bench/observing-cpu.ts). */
  observingCpuCostMax: 0.05,
  /** gzip req/s ÷ plain req/s per read over HTTP (issue 42; median of alternating rounds, bench/compression.ts). */
  gzipRatioMin: 0.8,
  /** Latency that partner listings on 10% of the toilets may add to nearest and area (median of alternating pairs, bench/partners.ts). */
  partnerCostMax: 0.08,
  /** What storing toilet details may cost nearest and area: after / before on the same toilets (median of alternating pairs, bench/details.ts). */
  detailsRatioMax: 1.03,
  /** The node:http transport's req/s ÷ a bare node:http server answering the same bytes, per read (issue 40; bench/transports.ts). */
  nodeTransportRatio: 0.8,
} as const;

export type Verdict = 'PASS' | 'FAIL' | 'SKIP';

export function atMost(value: number | null, bound: number): Verdict {
  return value === null ? 'SKIP' : value <= bound ? 'PASS' : 'FAIL';
}

export function atLeast(value: number | null, bound: number): Verdict {
  return value === null ? 'SKIP' : value >= bound ? 'PASS' : 'FAIL';
}
