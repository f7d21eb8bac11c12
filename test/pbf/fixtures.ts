// Helpers for PBF tests: temporary files, a standard scan plan, and re-framing a written file (reordered
// blocks, other header features) to produce files our writer refuses to write.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBlobIndex, type BlobRef } from '../../importer/pbf/blob-index.js';
import { frameBlob, packBlob, unpackBlob } from '../../importer/pbf/blob.js';
import { decodeHeaderBlock, encodeHeaderBlock } from '../../importer/pbf/header-block.js';
import { PbfExtractWriter, scanExtract, type OsmNode, type OsmRelation, type OsmWay, type ScanResult, type TagSelector } from '../../importer/pbf/index.js';

/** A fresh temporary directory and a function that removes it. */
export function temporaryDirectory(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pbf-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Scanned extends ScanResult {
  /** Selected nodes, by ascending id. */
  nodes: OsmNode[];
  coordinatesAsked: { ways: OsmWay[]; relations: OsmRelation[] }[];
}

/** Scans with one selector for all kinds (unless given per kind), asking coordinates of every way node. */
export async function scan(
  path: string,
  selector: TagSelector,
  options: { threads?: number; nodes?: TagSelector; ways?: TagSelector; relations?: TagSelector; coordinatesFor?: (ways: OsmWay[]) => Iterable<number> } = {},
): Promise<Scanned> {
  const nodes: OsmNode[] = [];
  const coordinatesAsked: Scanned['coordinatesAsked'] = [];
  const result = await scanExtract(
    path,
    {
      nodes: options.nodes ?? selector,
      ways: options.ways ?? selector,
      relations: options.relations ?? selector,
      coordinatesFor(ways, relations) {
        coordinatesAsked.push({ ways, relations });
        return (options.coordinatesFor ?? ((all: OsmWay[]) => all.flatMap((way) => way.refs)))(ways);
      },
      onNodes(batch) {
        nodes.push(...batch);
      },
    },
    { threads: options.threads ?? 0 },
  );
  nodes.sort((a, b) => a.id - b.id);
  return { ...result, nodes, coordinatesAsked };
}

/**
 * Copies the PBF file `source` to `target`, with its data blocks in the order `order` gives and its header's
 * optional features replaced by `optionalFeatures`.
 */
export async function reframe(source: string, target: string, order: (blocks: BlobRef[]) => BlobRef[], optionalFeatures: string[]): Promise<void> {
  const bytes = readFileSync(source);
  const [headerRef, ...dataRefs] = (await readBlobIndex(source)).blobs;
  const header = decodeHeaderBlock(unpackBlob(bytes.subarray(headerRef.dataOffset, headerRef.end), source));
  const blocks = [frameBlob('OSMHeader', packBlob(encodeHeaderBlock({ requiredFeatures: header.requiredFeatures, optionalFeatures, ...withoutNulls(header) }), true))];
  for (const ref of order(dataRefs)) blocks.push(bytes.subarray(ref.start, ref.end));
  writeFileSync(target, Buffer.concat(blocks));
}

function withoutNulls(header: ReturnType<typeof decodeHeaderBlock>) {
  return {
    writingProgram: header.writingProgram ?? undefined,
    source: header.source ?? undefined,
    replicationTimestamp: header.replicationTimestamp ?? undefined,
    replicationSequenceNumber: header.replicationSequenceNumber ?? undefined,
    replicationBaseUrl: header.replicationBaseUrl ?? undefined,
    bbox: header.bbox ?? undefined,
  };
}

export const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);

/** A small extract exercising every element kind and member type; see the comments for what selects what. */
export async function writeSampleExtract(path: string, options: { compress?: boolean } = {}): Promise<void> {
  const writer = new PbfExtractWriter(path, {
    writingProgram: 'pbf-test',
    source: 'unit test',
    replicationTimestamp: 1_700_000_000,
    replicationSequenceNumber: 4242,
    replicationBaseUrl: 'https://example.org/replication',
    bbox: { left: -9.5, right: 7.75, top: 47.5, bottom: -34.25 },
    compress: options.compress,
  });
  writer.addNode({ id: 1, lat: 43.7316035, lon: 7.4215651, tags: { amenity: 'toilets', name: 'Toilettes ☕', fee: 'no' }, timestamp: T0 });
  writer.addNode({ id: 2, lat: 43.7299824, lon: 7.423494 }); // untagged, used by way 10
  writer.addNode({ id: 3, lat: -33.8688197, lon: -151.2092955, tags: { amenity: 'bench' }, timestamp: T0 + 1000 }); // used by way 12
  writer.addNode({ id: 4, lat: -0.0000001, lon: -179.9999999 }); // untagged, used by way 11
  writer.addNode({ id: 2 ** 50, lat: 89.9999999, lon: 179.9999999, tags: { amenity: 'toilets', access: 'yes' } });
  writer.addWay({ id: 10, refs: [1, 2, 2 ** 50, 1], tags: { amenity: 'toilets', building: 'yes' }, timestamp: T0 + 2000 });
  writer.addWay({ id: 11, refs: [4, 2] }); // untagged member of relation 100
  writer.addWay({ id: 12, refs: [3, 4], tags: { highway: 'footway' } }); // member of unselected relation 101
  writer.addWay({ id: 2 ** 45, refs: [2], tags: { amenity: 'parking' } });
  writer.addRelation({
    id: 100,
    members: [
      { type: 'node', ref: 1, role: 'entrance' },
      { type: 'way', ref: 11, role: 'outer' },
      { type: 'relation', ref: 101, role: '' },
    ],
    tags: { amenity: 'toilets', type: 'multipolygon' },
    timestamp: T0 + 3000,
  });
  writer.addRelation({ id: 101, members: [{ type: 'way', ref: 12, role: 'outer' }], tags: { type: 'site' } });
  await writer.close();
}
