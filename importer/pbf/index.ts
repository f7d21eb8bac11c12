export type {
  BoundingBox,
  CoordinateLookup,
  ExtractHeader,
  NodeTransform,
  NodeTransformModule,
  NodeTransformOutput,
  NodeTransformPlan,
  OsmMember,
  OsmNode,
  OsmRelation,
  OsmWay,
  PostWork,
  ScanCounts,
  ScanPlan,
  ScanProgress,
  ScanResult,
  SelectedNodes,
  TagSelector,
  Tags,
} from './types.js';
export { ExtractError, type ExtractErrorCode } from './extract-error.js';
export { readHeader } from './extract-header.js';
export { scanExtract, type ScanOptions } from './scan.js';
export { PbfExtractWriter, type NodeInput, type RelationInput, type WayInput, type WriterOptions } from './writer.js';
