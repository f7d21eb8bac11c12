// generateExtract: writes a synthetic but realistic .osm.pbf of any size with the project's PbfExtractWriter.
//
// Layout. Toilets are spread over real cities with probability proportional to population; each city then
// gets its share of the other nodes, so a file's nodes, ways and relations come out city by city with
// ascending ids. A writer needs every node before the first way, so the cities are generated twice from the
// same seeds: the first pass writes the nodes, the second the ways and collects the relations (under 1 % of
// the elements) to write last. Memory stays at one city plus one block whatever the size.
import { rmSync, statSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { PbfExtractWriter } from '../../importer/pbf/index.js';
import { allocateToilets, type CityShare } from './cities.js';
import { CityContent } from './city.js';
import { Emitter, type Pass } from './emitter.js';
import { hashSeed, Random } from './random.js';
import { emptyStats, type GeneratedStats } from './stats.js';

export type { ByElement, ElementKind, GeneratedStats } from './stats.js';

export interface GenerateOptions {
  /** Standalone toilets the importer must keep (nodes, ways and multipolygons together). */
  toilets: number;
  /**
   * Nodes that are not standalone toilet nodes: way vertices, places, stations, hosts, decoys, points of
   * interest. Reached exactly unless the toilets' own outlines, hosts and places need more.
   */
  otherNodes: number;
  /** Same seed, same options → byte-identical file. Default 1. */
  seed?: number;
  /** Epoch seconds, written to the header; no timestamp or check date lies after it. Default 2025-06-01T00:00:00Z. */
  replicationTimestamp?: number;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_REPLICATION_TIMESTAMP = Date.UTC(2025, 5, 1) / 1000;

export async function generateExtract(path: string, options: GenerateOptions): Promise<GeneratedStats> {
  const { toilets, otherNodes } = options;
  const seed = options.seed ?? DEFAULT_SEED;
  const replicationTimestamp = options.replicationTimestamp ?? DEFAULT_REPLICATION_TIMESTAMP;
  if (!Number.isSafeInteger(toilets) || toilets < 1) throw new RangeError(`toilets must be a whole number ≥ 1, got ${toilets}`);
  if (!Number.isSafeInteger(otherNodes) || otherNodes < 0) throw new RangeError(`otherNodes must be a whole number ≥ 0, got ${otherNodes}`);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a whole number, got ${seed}`);
  if (!Number.isSafeInteger(replicationTimestamp) || replicationTimestamp <= 0) {
    throw new RangeError(`replicationTimestamp must be whole epoch seconds, got ${replicationTimestamp}`);
  }

  const shares = allocateToilets(new Random(hashSeed(seed, 0)), toilets);
  const writer = new PbfExtractWriter(path, {
    writingProgram: 'toilet-finder bench/generate',
    source: `synthetic (seed ${seed}, ${toilets} toilets, ${otherNodes} other nodes)`,
    replicationTimestamp,
  });
  try {
    const run = (pass: Pass) => generatePass(writer, pass, shares, { toilets, otherNodes, seed, extractDate: replicationTimestamp * 1000 });
    const nodes = run('nodes');
    const ways = run('ways');
    // Both passes ran the same seeded code, so they must agree on every count; anything else is a generator bug.
    if (!isDeepStrictEqual(nodes.stats, ways.stats)) throw new Error('generateExtract: the ways pass did not replay the nodes pass');
    for (const relation of ways.emitter.pendingRelations) writer.addRelation(relation);
    await writer.close();
    const stats = nodes.stats;
    stats.bytes = statSync(path).size;
    return stats;
  } catch (error) {
    await writer.close().catch(() => undefined); // the first error is the one worth reporting
    rmSync(path, { force: true });
    throw error;
  }
}

function generatePass(
  writer: PbfExtractWriter,
  pass: Pass,
  shares: CityShare[],
  plan: { toilets: number; otherNodes: number; seed: number; extractDate: number },
): { stats: GeneratedStats; emitter: Emitter } {
  const emitter = new Emitter(writer, pass, plan.seed, plan.extractDate);
  const stats = emptyStats();
  let toiletsSoFar = 0;
  for (const share of shares) {
    toiletsSoFar += share.toilets;
    // Other nodes follow the toilets: each city brings the file's running count up to its share of the total.
    const target = Math.round((plan.otherNodes * toiletsSoFar) / plan.toilets);
    new CityContent(emitter, stats, new Random(hashSeed(plan.seed, share.index + 1)), share, plan.extractDate).generate(target);
  }
  stats.nodes = emitter.nodes;
  stats.ways = emitter.ways;
  stats.relations = emitter.relations;
  return { stats, emitter };
}
