// Public, OSM-domain-free types of the PBF reader and writer.
import type { TransferListItem } from 'node:worker_threads';

export type Tags = Record<string, string>;

export interface OsmNode {
  id: number;
  lat: number;
  lon: number;
  tags: Tags;
  /** Epoch milliseconds, from the node's (dense) info when present. */
  timestamp: number | null;
}

export interface OsmWay {
  id: number;
  refs: number[];
  tags: Tags;
  timestamp: number | null;
  /** Given by the node transform's noteWay, when it has one. */
  note?: number;
}

export interface OsmMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

export interface OsmRelation {
  id: number;
  members: OsmMember[];
  tags: Tags;
  timestamp: number | null;
}

export interface BoundingBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface ExtractHeader {
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram: string | null;
  source: string | null;
  /** Epoch seconds. */
  replicationTimestamp: number | null;
  replicationSequenceNumber: number | null;
  replicationBaseUrl: string | null;
  bbox: BoundingBox | null;
}

/** An element is selected when one of its tags has a key listed here and, unless the entry is '*', one of the listed values. */
export type TagSelector = Readonly<Record<string, '*' | readonly string[]>>;

export interface ScanProgress {
  bytesRead: number;
  totalBytes: number;
  elements: number;
}

/** The selected nodes of one block, as a node transform sees them (in a decoder thread). */
export interface SelectedNodes {
  readonly length: number;
  id(i: number): number;
  /** Degrees, at the file's 1e-7 precision (as OsmNode). */
  lat(i: number): number;
  lon(i: number): number;
  /** Epoch milliseconds, or null (as OsmNode). */
  timestamp(i: number): number | null;
  /** Adds node i's tags to `into` (a new plain object by default) and returns it. */
  tags(i: number, into?: Tags): Tags;
  /** Node i's tags one by one, in file order: how many, and the key and value of the t-th. */
  tagCount(i: number): number;
  tagKey(i: number, t: number): string;
  tagValue(i: number, t: number): string;
  /**
   * Where the t-th key (value) of node i sits among the block's strings: equal places, equal texts, each
   * below `stringCount`. For caches per block that need no hashing (texts repeat across a block's nodes).
   */
  tagKeyPlace(i: number, t: number): number;
  tagValuePlace(i: number, t: number): number;
  readonly stringCount: number;
}

/** A node transform's answer for one block: any structured-cloneable value, and buffers to move, not copy. */
export interface NodeTransformOutput {
  result: unknown;
  transfer?: ArrayBuffer[];
}

export interface NodeTransform {
  /** One block's selected nodes. */
  transform(nodes: SelectedNodes): NodeTransformOutput;
  /**
   * A note on each selected way, delivered as OsmWay.note: what the caller would otherwise work out from the
   * tags on the main thread (an import: how the way classifies). 0 drops a way selected by its tags, which then
   * costs the main thread nothing; members of selected relations are delivered whatever their note. `tags`
   * is a dictionary-mode object. A whole number below 2^32.
   */
  noteWay?(tags: Tags): number;
  /**
   * Whether a way with this note is needed only for its middle vertex (refs[refs.length >> 1]; a street, for
   * its position): the decoder then hands over that one ref. Members of selected relations keep them all.
   */
  middleOnly?(note: number): boolean;
  /** Follow-up work posted by NodeTransformPlan.finish. */
  work?(input: unknown): NodeTransformOutput;
  /** As the decoder closes, after its last block and work. */
  close?(): void;
}

/** Runs the transform's work(input) in decoder `decoder` and resolves to its result. */
export type PostWork = (decoder: number, input: unknown, transfer?: TransferListItem[]) => Promise<unknown>;

/** What the module named by NodeTransformPlan.module exports. */
export interface NodeTransformModule {
  createNodeTransform(setup: unknown): NodeTransform | Promise<NodeTransform>;
}

/**
 * Per-node work moved into the decoder threads: each decoder imports `module` once and runs its transform on
 * every block's selected nodes; the main thread receives only the results.
 */
export interface NodeTransformPlan {
  /** URL (a file: URL's href) of a NodeTransformModule. */
  module: string;
  /**
   * The argument to createNodeTransform in decoder `decoder` (0, 1, …; one decoder on the main thread when
   * threads is 0): a structured-cloneable value, and objects to transfer with it (a MessagePort per decoder).
   */
  setup(decoder: number): { value: unknown; transfer?: TransferListItem[] };
  /**
   * Each block's result, one at a time, with the block's position among the file's blocks: results come as
   * the decoders finish them, not in file order. A returned promise is awaited (back-pressure).
   */
  onResult(result: unknown, block: number): void | Promise<void>;
  /**
   * Called once every block is done, with the scan's result, while the decoders are still up: `post` hands
   * follow-up work to them (and to whatever their transforms have cached). scanExtract resolves when it does.
   */
  finish?(result: ScanResult, decoders: number, post: PostWork): Promise<void>;
}

/** Selected nodes go either to onNodes (as objects, on the main thread) or through nodeTransform: give exactly one. */
export interface ScanPlan {
  nodes: TagSelector;
  ways: TagSelector;
  relations: TagSelector;
  /**
   * Called once, after every selected relation and way is known (ways include every way that is a member of a
   * selected relation, whatever its tags), before node coordinates are resolved; the lists are in the order
   * the blocks were decoded (the result's are sorted by id). Returns the ids of the nodes whose coordinates
   * the caller needs.
   */
  coordinatesFor(ways: OsmWay[], relations: OsmRelation[]): Iterable<number>;
  /** Batches of selected nodes, streamed while the scan runs; a returned promise is awaited (back-pressure). */
  onNodes?(batch: OsmNode[]): void | Promise<void>;
  nodeTransform?: NodeTransformPlan;
  onProgress?(p: ScanProgress): void;
}

export interface CoordinateLookup {
  get(id: number): { lat: number; lon: number } | undefined;
  readonly size: number;
}

export interface ScanCounts {
  nodes: number;
  ways: number;
  relations: number;
  blobs: number;
}

export interface ScanResult {
  header: ExtractHeader;
  /** Ascending id. */
  ways: OsmWay[];
  /** Ascending id. */
  relations: OsmRelation[];
  coordinates: CoordinateLookup;
  counts: ScanCounts;
}
