// osmformat.proto HeaderBlock{bbox=1, required_features=4, optional_features=5, writingprogram=16, source=17,
// osmosis_replication_timestamp=32, osmosis_replication_sequence_number=33, osmosis_replication_base_url=34},
// HeaderBBox{left=1, right=2, top=3, bottom=4} in sint64 nanodegrees.
import { PbfReader, PbfWriter } from 'pbf';
import { ExtractError } from './extract-error.js';
import type { BoundingBox, ExtractHeader } from './types.js';

export const SUPPORTED_FEATURES: readonly string[] = ['OsmSchema-V0.6', 'DenseNodes'];
/** Optional feature promising elements ordered nodes, ways, relations, each by ascending id. */
export const SORTED_FEATURE = 'Sort.Type_then_ID';

export function decodeHeaderBlock(bytes: Uint8Array): ExtractHeader {
  const header: ExtractHeader = {
    requiredFeatures: [],
    optionalFeatures: [],
    writingProgram: null,
    source: null,
    replicationTimestamp: null,
    replicationSequenceNumber: null,
    replicationBaseUrl: null,
    bbox: null,
  };
  const reader = new PbfReader(bytes);
  let field: number;
  while ((field = reader.nextField())) {
    if (field === 1) header.bbox = reader.readMessage(readBBox, { left: 0, right: 0, top: 0, bottom: 0 });
    else if (field === 4) header.requiredFeatures.push(reader.readString());
    else if (field === 5) header.optionalFeatures.push(reader.readString());
    else if (field === 16) header.writingProgram = reader.readString();
    else if (field === 17) header.source = reader.readString();
    else if (field === 32) header.replicationTimestamp = reader.readVarint(true);
    else if (field === 33) header.replicationSequenceNumber = reader.readVarint(true);
    else if (field === 34) header.replicationBaseUrl = reader.readString();
  }
  if (reader.pos !== bytes.length) throw new Error('malformed header block');
  return header;
}

function readBBox(field: number, bbox: BoundingBox, reader: PbfReader): void {
  if (field === 1) bbox.left = reader.readSVarint() / 1e9;
  else if (field === 2) bbox.right = reader.readSVarint() / 1e9;
  else if (field === 3) bbox.top = reader.readSVarint() / 1e9;
  else if (field === 4) bbox.bottom = reader.readSVarint() / 1e9;
}

/** Rejects files that need a feature this reader lacks, e.g. history files ("HistoricalInformation"). */
export function assertSupported(header: ExtractHeader, path: string): void {
  const missing = header.requiredFeatures.filter((feature) => !SUPPORTED_FEATURES.includes(feature));
  if (missing.length > 0) {
    throw new ExtractError(
      'unsupported',
      `${path} requires unsupported PBF feature${missing.length > 1 ? 's' : ''} ${missing.map((f) => `"${f}"`).join(', ')}; use a current-data extract (not a history file)`,
    );
  }
}

export interface HeaderFields {
  requiredFeatures: readonly string[];
  optionalFeatures: readonly string[];
  writingProgram?: string;
  source?: string;
  replicationTimestamp?: number;
  replicationSequenceNumber?: number;
  replicationBaseUrl?: string;
  bbox?: BoundingBox;
}

export function encodeHeaderBlock(header: HeaderFields): Uint8Array {
  const writer = new PbfWriter();
  if (header.bbox) writer.writeMessage(1, writeBBox, header.bbox);
  for (const feature of header.requiredFeatures) writer.writeStringField(4, feature);
  for (const feature of header.optionalFeatures) writer.writeStringField(5, feature);
  if (header.writingProgram !== undefined) writer.writeStringField(16, header.writingProgram);
  if (header.source !== undefined) writer.writeStringField(17, header.source);
  if (header.replicationTimestamp !== undefined) writer.writeVarintField(32, header.replicationTimestamp);
  if (header.replicationSequenceNumber !== undefined) writer.writeVarintField(33, header.replicationSequenceNumber);
  if (header.replicationBaseUrl !== undefined) writer.writeStringField(34, header.replicationBaseUrl);
  return writer.finish();
}

function writeBBox(bbox: BoundingBox, writer: PbfWriter): void {
  writer.writeSVarintField(1, Math.round(bbox.left * 1e9));
  writer.writeSVarintField(2, Math.round(bbox.right * 1e9));
  writer.writeSVarintField(3, Math.round(bbox.top * 1e9));
  writer.writeSVarintField(4, Math.round(bbox.bottom * 1e9));
}
