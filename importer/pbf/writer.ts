// PbfExtractWriter: streams elements into an OSM PBF file (dense nodes, granularity 100, zlib), 8000
// elements per block, written synchronously block by block so memory stays at one block whatever the size.
import { closeSync, openSync, writeSync } from 'node:fs';
import { PbfWriter } from 'pbf';
import { frameBlob, packBlob } from './blob.js';
import { encodeHeaderBlock, SORTED_FEATURE, SUPPORTED_FEATURES } from './header-block.js';
import type { BoundingBox, OsmMember, Tags } from './types.js';

export interface WriterOptions {
  writingProgram?: string;
  source?: string;
  /** Epoch seconds. */
  replicationTimestamp?: number;
  replicationSequenceNumber?: number;
  replicationBaseUrl?: string;
  bbox?: BoundingBox;
  /** Default: OsmSchema-V0.6, DenseNodes. */
  requiredFeatures?: string[];
  /** zlib-compress blocks; default true. */
  compress?: boolean;
}

export interface NodeInput {
  id: number;
  lat: number;
  lon: number;
  tags?: Tags;
  /** Epoch ms; stored in whole seconds, as OSM does. */
  timestamp?: number;
}

export interface WayInput {
  id: number;
  refs: number[];
  tags?: Tags;
  timestamp?: number;
}

export interface RelationInput {
  id: number;
  members: OsmMember[];
  tags?: Tags;
  timestamp?: number;
}

const ELEMENTS_PER_BLOCK = 8000;
const KIND_NAMES = ['', 'node', 'way', 'relation'] as const;
const NODE = 1;
const WAY = 2;
const RELATION = 3;
const MEMBER_TYPE_CODES: Record<OsmMember['type'], number> = { node: 0, way: 1, relation: 2 };

/** One block's worth of elements, with tags and roles already turned into string-table indexes. */
class PendingBlock {
  readonly strings: string[] = [''];
  private readonly stringIndex = new Map<string, number>([['', 0]]);
  count = 0;
  /** Seconds; 0 for none. */
  readonly timestamps: number[] = [];
  hasTimestamps = false;
  // Dense nodes: columns.
  readonly ids: number[] = [];
  readonly lat: number[] = [];
  readonly lon: number[] = [];
  readonly keysVals: number[] = [];
  hasTags = false;
  // Ways and relations: one entry per element.
  readonly keys: number[][] = [];
  readonly vals: number[][] = [];
  readonly refs: number[][] = [];
  readonly memberTypes: number[][] = [];
  readonly roles: number[][] = [];

  string(value: string): number {
    let index = this.stringIndex.get(value);
    if (index === undefined) {
      index = this.strings.push(value) - 1;
      this.stringIndex.set(value, index);
    }
    return index;
  }

  addTimestamp(timestamp: number | undefined): void {
    const seconds = timestamp === undefined ? 0 : Math.round(timestamp / 1000);
    if (seconds !== 0) this.hasTimestamps = true;
    this.timestamps.push(seconds);
  }
}

export class PbfExtractWriter {
  private fd: number | null;
  private readonly compress: boolean;
  private kind = 0;
  private lastId = -Infinity;
  private block = new PendingBlock();

  constructor(
    private readonly path: string,
    header: WriterOptions = {},
  ) {
    const { compress = true, requiredFeatures = SUPPORTED_FEATURES, ...fields } = header;
    this.compress = compress;
    this.fd = openSync(path, 'w');
    this.writeBlob('OSMHeader', encodeHeaderBlock({ ...fields, requiredFeatures, optionalFeatures: [SORTED_FEATURE] }));
  }

  addNode(node: NodeInput): void {
    if (!(Math.abs(node.lat) <= 90 && Math.abs(node.lon) <= 180)) throw new Error(`PbfExtractWriter: node ${node.id} has no valid coordinates`);
    this.admit(NODE, node.id);
    const block = this.block;
    block.ids.push(node.id);
    block.lat.push(Math.round(node.lat * 1e7));
    block.lon.push(Math.round(node.lon * 1e7));
    if (node.tags) {
      for (const key in node.tags) {
        block.keysVals.push(block.string(key), block.string(node.tags[key]));
        block.hasTags = true;
      }
    }
    block.keysVals.push(0);
    block.addTimestamp(node.timestamp);
    this.added();
  }

  addWay(way: WayInput): void {
    this.admit(WAY, way.id);
    const block = this.block;
    block.ids.push(way.id);
    this.addTags(way.tags);
    block.refs.push(way.refs);
    block.addTimestamp(way.timestamp);
    this.added();
  }

  addRelation(relation: RelationInput): void {
    this.admit(RELATION, relation.id);
    const block = this.block;
    block.ids.push(relation.id);
    this.addTags(relation.tags);
    block.refs.push(relation.members.map((member) => member.ref));
    block.memberTypes.push(relation.members.map((member) => MEMBER_TYPE_CODES[member.type]));
    block.roles.push(relation.members.map((member) => block.string(member.role)));
    block.addTimestamp(relation.timestamp);
    this.added();
  }

  async close(): Promise<void> {
    if (this.fd === null) return;
    this.flush();
    closeSync(this.fd);
    this.fd = null;
  }

  /** Enforces "nodes, then ways, then relations, each by ascending id", which the header promises. */
  private admit(kind: number, id: number): void {
    const name = KIND_NAMES[kind];
    if (this.fd === null) throw new Error(`PbfExtractWriter: ${name} ${id} added after close() of ${this.path}`);
    if (!Number.isSafeInteger(id)) throw new Error(`PbfExtractWriter: ${name} id ${id} is not a safe integer`);
    if (kind < this.kind) throw new Error(`PbfExtractWriter: ${name} ${id} added after ${KIND_NAMES[this.kind]}s; add nodes, then ways, then relations`);
    if (kind === this.kind && id <= this.lastId) {
      throw new Error(`PbfExtractWriter: ${name} ${id} added after ${name} ${this.lastId}; add each kind in ascending id order`);
    }
    if (kind !== this.kind) {
      this.flush();
      this.kind = kind;
    }
    this.lastId = id;
  }

  private addTags(tags: Tags | undefined): void {
    const keys: number[] = [];
    const vals: number[] = [];
    for (const key in tags) {
      keys.push(this.block.string(key));
      vals.push(this.block.string(tags[key]));
    }
    this.block.keys.push(keys);
    this.block.vals.push(vals);
  }

  private added(): void {
    if (++this.block.count === ELEMENTS_PER_BLOCK) this.flush();
  }

  private flush(): void {
    const block = this.block;
    if (block.count === 0) return;
    const writer = new PbfWriter();
    writer.writeMessage(1, writeStringTable, block.strings);
    const group = this.kind === NODE ? writeDenseNodesGroup : this.kind === WAY ? writeWaysGroup : writeRelationsGroup;
    writer.writeMessage(2, group, block);
    this.writeBlob('OSMData', writer.finish());
    this.block = new PendingBlock();
  }

  private writeBlob(type: string, block: Uint8Array): void {
    writeSync(this.fd!, frameBlob(type, packBlob(block, this.compress)));
  }
}

function writeStringTable(strings: string[], writer: PbfWriter): void {
  for (const value of strings) writer.writeStringField(1, value);
}

function deltas(values: readonly number[]): number[] {
  const out = new Array<number>(values.length);
  for (let i = 0, previous = 0; i < values.length; i++) {
    out[i] = values[i] - previous;
    previous = values[i];
  }
  return out;
}

/** PrimitiveGroup{dense=2}: DenseNodes{id=1, denseinfo=5, lat=8, lon=9, keys_vals=10}. */
function writeDenseNodesGroup(block: PendingBlock, writer: PbfWriter): void {
  writer.writeMessage(2, writeDenseNodes, block);
}

function writeDenseNodes(block: PendingBlock, writer: PbfWriter): void {
  writer.writePackedSVarint(1, deltas(block.ids));
  if (block.hasTimestamps) writer.writeMessage(5, writeDenseInfo, block);
  writer.writePackedSVarint(8, deltas(block.lat));
  writer.writePackedSVarint(9, deltas(block.lon));
  if (block.hasTags) writer.writePackedVarint(10, block.keysVals);
}

/** DenseInfo{timestamp=2 (delta)}: the other metadata columns are optional and we have no data for them. */
function writeDenseInfo(block: PendingBlock, writer: PbfWriter): void {
  writer.writePackedSVarint(2, deltas(block.timestamps));
}

/** PrimitiveGroup{ways=3}: Way{id=1, keys=2, vals=3, info=4, refs=8 (delta)}. */
function writeWaysGroup(block: PendingBlock, writer: PbfWriter): void {
  for (let i = 0; i < block.count; i++) writer.writeMessage(3, writeWay, { block, i });
}

function writeWay({ block, i }: { block: PendingBlock; i: number }, writer: PbfWriter): void {
  writer.writeVarintField(1, block.ids[i]);
  writer.writePackedVarint(2, block.keys[i]);
  writer.writePackedVarint(3, block.vals[i]);
  if (block.timestamps[i] !== 0) writer.writeMessage(4, writeInfo, block.timestamps[i]);
  writer.writePackedSVarint(8, deltas(block.refs[i]));
}

/** PrimitiveGroup{relations=4}: Relation{id=1, keys=2, vals=3, info=4, roles_sid=8, memids=9 (delta), types=10}. */
function writeRelationsGroup(block: PendingBlock, writer: PbfWriter): void {
  for (let i = 0; i < block.count; i++) writer.writeMessage(4, writeRelation, { block, i });
}

function writeRelation({ block, i }: { block: PendingBlock; i: number }, writer: PbfWriter): void {
  writer.writeVarintField(1, block.ids[i]);
  writer.writePackedVarint(2, block.keys[i]);
  writer.writePackedVarint(3, block.vals[i]);
  if (block.timestamps[i] !== 0) writer.writeMessage(4, writeInfo, block.timestamps[i]);
  writer.writePackedVarint(8, block.roles[i]);
  writer.writePackedSVarint(9, deltas(block.refs[i]));
  writer.writePackedVarint(10, block.memberTypes[i]);
}

/** Info{timestamp=2}, in the default date granularity of 1000 ms. */
function writeInfo(seconds: number, writer: PbfWriter): void {
  writer.writeVarintField(2, seconds);
}
