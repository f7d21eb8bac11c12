// Numbers the generated elements and hands one kind of them to the writer. The generator runs its seeded
// code twice with the same seed: the first pass writes the nodes, the second the ways, and keeps the few
// relations to write last. Both passes count elements identically, so they hand out the same ids, and no
// geometry has to be kept from one pass to the next.
import type { OsmMember, PbfExtractWriter, RelationInput, Tags } from '../../importer/pbf/index.js';
import type { Point } from './geometry.js';
import { hashSeed } from './random.js';

export type Pass = 'nodes' | 'ways';

/**
 * Ids grow by 1 to MAX_GAP (uniform), like the ids in a real extract, where deleted and foreign elements leave
 * gaps: with the default sizes node ids pass 2^32 and end near 1.2e10, as a current planet's do.
 */
const MAX_GAP = { node: 4000, way: 2000, relation: 3000 } as const;
const KIND_SALT = { node: 1, way: 2, relation: 3 } as const;
/** Element timestamps fall between this date and the extract's. */
const FIRST_EDIT = Date.UTC(2008, 0, 1);

export class Emitter {
  /** Elements numbered so far, per kind. */
  nodes = 0;
  ways = 0;
  relations = 0;
  /** Relations of the ways pass, written after the last way. */
  readonly pendingRelations: RelationInput[] = [];
  private lastNodeId = 0;
  private lastWayId = 0;
  private lastRelationId = 0;

  constructor(
    private readonly writer: PbfExtractWriter,
    private readonly pass: Pass,
    private readonly seed: number,
    /** Epoch ms. */
    private readonly extractDate: number,
  ) {}

  node(at: Point, tags?: Tags): number {
    const id = (this.lastNodeId = this.nextId('node', this.lastNodeId, this.nodes++));
    if (this.pass === 'nodes') this.writer.addNode({ id, lat: at.lat, lon: at.lon, tags, timestamp: this.timestamp('node', id) });
    return id;
  }

  way(refs: number[], tags?: Tags): number {
    const id = (this.lastWayId = this.nextId('way', this.lastWayId, this.ways++));
    if (this.pass === 'ways') this.writer.addWay({ id, refs, tags, timestamp: this.timestamp('way', id) });
    return id;
  }

  relation(members: OsmMember[], tags?: Tags): number {
    const id = (this.lastRelationId = this.nextId('relation', this.lastRelationId, this.relations++));
    if (this.pass === 'ways') this.pendingRelations.push({ id, members, tags, timestamp: this.timestamp('relation', id) });
    return id;
  }

  private nextId(kind: keyof typeof MAX_GAP, last: number, count: number): number {
    return last + 1 + (hashSeed(this.seed, KIND_SALT[kind], count) % MAX_GAP[kind]);
  }

  /** Epoch ms of the element's last edit, whole seconds, from a hash of its id (no draw from the city's sequence). */
  private timestamp(kind: keyof typeof KIND_SALT, id: number): number {
    const fraction = hashSeed(this.seed, KIND_SALT[kind] + 3, id) / 0x1_0000_0000;
    return FIRST_EDIT + Math.floor((fraction * (this.extractDate - FIRST_EDIT)) / 1000) * 1000;
  }
}
