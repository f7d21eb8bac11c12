// Public, OSM-domain-free types of the PBF reader and writer.

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

export interface ScanPlan {
  nodes: TagSelector;
  ways: TagSelector;
  relations: TagSelector;
  /**
   * Called once, after every selected relation and way is known (ways include every way that is a member of a
   * selected relation, whatever its tags), before node coordinates are resolved. Returns the ids of the nodes
   * whose coordinates the caller needs.
   */
  coordinatesFor(ways: OsmWay[], relations: OsmRelation[]): Iterable<number>;
  /** Batches of selected nodes, streamed while the scan runs; a returned promise is awaited (back-pressure). */
  onNodes(batch: OsmNode[]): void | Promise<void>;
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
