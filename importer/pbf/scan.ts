// scanExtract: schedules blocks over the decoders and assembles the result.
//
// Order of work. Selected nodes and relations need no context. Ways can only be decoded once the relations
// are known (members of selected relations are delivered whatever their tags), and node coordinates once the
// ways are known (coordinatesFor names the nodes whose coordinates to keep). A file sorted by type then id
// ("Sort.Type_then_ID") holds nodes, then ways, then relations, so its blocks are dispatched from the end:
// relations are done first, and a decoder that meets a block it has no context for yet decodes what it can
// (a node block's selected nodes) and holds it, inflated, until the context arrives. Every block is read and
// inflated once. Other files take up to three passes: all blocks (relations, selected nodes), then the blocks
// holding ways, then the blocks holding nodes (coordinates).
//
// Memory. Nodes are streamed to onNodes and never kept. What grows is: the selected ways and relations (as
// objects), 8 bytes per member-way id of selected relations, 17 bytes per id returned by coordinatesFor
// (see CoordinateTable), per decoder MAX_IN_FLIGHT_PER_DECODER blocks being decoded and MAX_HELD_PER_DECODER
// held (each at most 32 MiB inflated, typically under 1 MiB) plus their batches, and about 100 bytes per
// block of the file for its position and state. Nothing is kept for unselected nodes.
import { availableParallelism } from 'node:os';
import type { TransferListItem } from 'node:worker_threads';
import { nodesOf, relationsOf, waysOf } from './block-batch.js';
import type { DecoderReply } from './block-decoder.js';
import { readBlobIndex, type BlobIndex, type BlobRef } from './blob-index.js';
import { CoordinateTable } from './coordinate-table.js';
import { openDecoders, type DecoderChannel } from './decoder-pool.js';
import { ExtractError } from './extract-error.js';
import { loadHeader } from './extract-header.js';
import { SORTED_FEATURE } from './header-block.js';
import { COORDS, NODE, RELATION, WAY } from './primitive-block.js';
import { SortedIds } from './sorted-ids.js';
import { assertTagSelector } from './tag-selector.js';
import type { ExtractHeader, OsmRelation, OsmWay, ScanPlan, ScanResult } from './types.js';

/** Blocks a decoder may have in flight at once: two keep it busy while the main thread works. */
const MAX_IN_FLIGHT_PER_DECODER = 2;
/**
 * Blocks a decoder may hold waiting for context (sorted files). While the main thread works out which node
 * coordinates it needs, the decoders go on with the selected nodes of the blocks ahead, holding them.
 */
const MAX_HELD_PER_DECODER = 32;
const ALL_KINDS = NODE | WAY | RELATION | COORDS;

/** Replies about blocks (answers to follow-up work are taken aside as they arrive). */
type BlockReply = Exclude<DecoderReply, { kind: 'worked' } | { kind: 'closed' }>;

/** Context levels: what the decoders have been told so far. */
const KNOW_NOTHING = 0;
const KNOW_WANTED_WAYS = 1;
const KNOW_NEEDED_NODES = 2;

export interface ScanOptions {
  /** Decoder threads; 0 decodes on the main thread. Default: os.availableParallelism(). */
  threads?: number;
}

export async function scanExtract(path: string, plan: ScanPlan, options: ScanOptions = {}): Promise<ScanResult> {
  assertTagSelector(plan.nodes, 'plan.nodes');
  assertTagSelector(plan.ways, 'plan.ways');
  assertTagSelector(plan.relations, 'plan.relations');
  if ((plan.onNodes === undefined) === (plan.nodeTransform === undefined)) throw new TypeError('give exactly one of plan.onNodes and plan.nodeTransform');
  const threads = options.threads ?? Math.max(1, availableParallelism());
  if (!Number.isInteger(threads) || threads < 0) throw new TypeError(`threads must be a whole number ≥ 0, got ${threads}`);
  const index = await readBlobIndex(path);
  const header = await loadHeader(index);
  return new Scan(index, header, plan, threads).run();
}

class Scan {
  private readonly blobs: BlobRef[];
  private readonly sorted: boolean;
  private channels: DecoderChannel[] = [];
  /** Per data block. */
  private readonly reported: Uint8Array;
  private readonly pending: Uint8Array;
  private readonly inFlight: Uint8Array;
  private readonly queued: Uint8Array;
  private readonly holder: Int32Array;
  private readonly queue: number[] = [];
  private queueHead = 0;
  /** Per decoder: blocks it is decoding, and blocks it holds. */
  private inFlightOn: number[] = [];
  private heldOn: number[] = [];
  private level = KNOW_NOTHING;
  private reportedCount = 0;
  /** Sorted files: every block at or after `frontier` has reported. */
  private frontier: number;
  private lastWithNodesOrWays = -1;
  private lastWithNodes = -1;
  private blocksPendingWays = 0;
  private blocksPending = 0;
  private bytesDone: number;

  private readonly ways: OsmWay[] = [];
  private readonly relations: OsmRelation[] = [];
  private coordinates: CoordinateTable | null = null;
  private readonly counts = { nodes: 0, ways: 0, relations: 0 };

  private readonly inbox: { channel: number; reply: BlockReply }[] = [];
  /** Follow-up work posted and not answered yet. */
  private readonly work = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  private nextWork = 0;
  private draining = false;
  private settled = false;
  private resolve!: (result: ScanResult) => void;
  private reject!: (error: unknown) => void;

  constructor(
    private readonly index: BlobIndex,
    private readonly header: ExtractHeader,
    private readonly plan: ScanPlan,
    private readonly threads: number,
  ) {
    this.blobs = index.blobs.filter((blob) => blob.type === 'OSMData');
    this.sorted = header.optionalFeatures.includes(SORTED_FEATURE);
    const count = this.blobs.length;
    this.reported = new Uint8Array(count);
    this.pending = new Uint8Array(count);
    this.inFlight = new Uint8Array(count);
    this.queued = new Uint8Array(count);
    this.holder = new Int32Array(count).fill(-1);
    this.frontier = count;
    this.bytesDone = index.size - this.blobs.reduce((sum, blob) => sum + blob.end - blob.start, 0);
  }

  async run(): Promise<ScanResult> {
    const done = new Promise<ScanResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    try {
      const transform = this.plan.nodeTransform;
      this.channels = await openDecoders(
        this.threads,
        (decoder) => {
          const setup = transform?.setup(decoder);
          return {
            setup: {
              path: this.index.path,
              nodes: this.plan.nodes,
              ways: this.plan.ways,
              relations: this.plan.relations,
              transform: transform && { module: transform.module, setup: setup!.value },
            },
            transfer: setup?.transfer ?? [],
          };
        },
        { reply: (channel, reply) => this.receive(channel, reply), crash: (error) => this.fail(error) },
      );
      this.inFlightOn = this.channels.map(() => 0);
      this.heldOn = this.channels.map(() => 0);
      for (let i = 0; i < this.blobs.length; i++) this.enqueue(this.sorted ? this.blobs.length - 1 - i : i);
      this.advance();
      return await done;
    } finally {
      this.settled = true;
      await Promise.all(this.channels.map((channel) => channel.close()));
    }
  }

  private receive(channel: number, reply: DecoderReply): void {
    if (reply.kind === 'worked' || (reply.kind === 'transform-failed' && reply.id !== undefined)) {
      const work = this.work.get(reply.id!);
      this.work.delete(reply.id!);
      if (reply.kind === 'worked') work?.resolve(reply.result);
      else work?.reject(new Error(`node transform failed: ${reply.message}`));
      return;
    }
    this.inbox.push({ channel, reply: reply as BlockReply });
    void this.drain();
  }

  /** PostWork, for NodeTransformPlan.finish. */
  private postWork(decoder: number, input: unknown, transfer?: TransferListItem[]): Promise<unknown> {
    if (!(decoder >= 0 && decoder < this.channels.length)) return Promise.reject(new RangeError(`no decoder ${decoder}`));
    const id = this.nextWork++;
    return new Promise((resolve, reject) => {
      this.work.set(id, { resolve, reject });
      this.channels[decoder].post({ kind: 'work', id, input }, transfer);
    });
  }

  /** Handles replies one at a time, so onNodes is never called concurrently and its promise holds back work. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.inbox.length > 0 && !this.settled) {
        const { channel, reply } = this.inbox.shift()!;
        if (reply.kind === 'failed') throw new ExtractError(reply.code, reply.message);
        if (reply.kind === 'transform-failed') throw new Error(`node transform failed: ${reply.message}`);
        await this.absorb(channel, reply);
        this.advance(reply.blob);
      }
    } catch (error) {
      this.fail(error);
    } finally {
      this.draining = false;
    }
  }

  private async absorb(channel: number, reply: Extract<DecoderReply, { kind: 'decoded' }>): Promise<void> {
    const blob = reply.blob;
    const wasPending = this.pending[blob];
    this.inFlight[blob] = 0;
    if (!this.reported[blob]) this.firstReport(blob, reply.kinds);
    this.pending[blob] = reply.pending;
    this.blocksPendingWays += (reply.pending & WAY ? 1 : 0) - (wasPending & WAY ? 1 : 0);
    this.blocksPending += (reply.pending ? 1 : 0) - (wasPending ? 1 : 0);
    this.inFlightOn[channel]--;
    if (this.holder[blob] >= 0) this.heldOn[this.holder[blob]]--;
    this.holder[blob] = reply.pending !== 0 && this.sorted ? channel : -1;
    if (this.holder[blob] >= 0) this.heldOn[channel]++;
    if (reply.pending === 0) this.bytesDone += this.blobs[blob].end - this.blobs[blob].start;

    const { batch } = reply;
    this.counts.nodes += batch.counts.nodes;
    this.counts.ways += batch.counts.ways;
    this.counts.relations += batch.counts.relations;
    if (batch.relations.ids.length > 0) this.relations.push(...relationsOf(batch));
    if (batch.ways.ids.length > 0) this.ways.push(...waysOf(batch));
    const hits = batch.coordinates;
    for (let i = 0; i < hits.slots.length; i++) this.coordinates!.set(hits.slots[i], hits.lat[i], hits.lon[i]);
    if (reply.transformed) await this.plan.nodeTransform!.onResult(reply.nodeResult, blob);
    else if (batch.nodes.ids.length > 0) await this.plan.onNodes!(nodesOf(batch));
    this.plan.onProgress?.({
      bytesRead: this.bytesDone,
      totalBytes: this.index.size,
      elements: this.counts.nodes + this.counts.ways + this.counts.relations,
    });
  }

  private firstReport(blob: number, kinds: number): void {
    this.reported[blob] = 1;
    this.reportedCount++;
    if (!this.sorted) return;
    // A sorted file cannot hold relations below the first block of ways or nodes we acted on, nor ways below nodes.
    if ((this.level >= KNOW_WANTED_WAYS && kinds & RELATION) || (this.level >= KNOW_NEEDED_NODES && kinds & WAY)) {
      throw new ExtractError(
        'corrupt',
        `${this.index.path} declares ${SORTED_FEATURE} but its elements are not ordered nodes, ways, relations; sort it with "osmium sort"`,
      );
    }
    while (this.frontier > 0 && this.reported[this.frontier - 1]) this.frontier--;
    if (kinds & (NODE | WAY)) this.lastWithNodesOrWays = Math.max(this.lastWithNodesOrWays, blob);
    if (kinds & NODE) this.lastWithNodes = Math.max(this.lastWithNodes, blob);
  }

  /**
   * Raises the context level when its prerequisites are complete, sends blocks waiting for it (all of them
   * after a raise, else just the one that `reply` was about) back to work, dispatches, and finishes.
   */
  private advance(replyBlob = -1): void {
    if (this.settled) return;
    try {
      const level = this.level;
      if (this.level === KNOW_NOTHING && this.relationsComplete()) this.learnWantedWays();
      if (this.level === KNOW_WANTED_WAYS && this.waysComplete()) this.learnNeededNodes();
      if (this.level !== level) for (let blob = 0; blob < this.blobs.length; blob++) this.wake(blob);
      else if (replyBlob >= 0) this.wake(replyBlob);
      this.dispatch();
      if (this.level === KNOW_NEEDED_NODES && this.reportedCount === this.blobs.length && this.blocksPending === 0) this.finish();
    } catch (error) {
      this.fail(error);
    }
  }

  private relationsComplete(): boolean {
    const allReported = this.reportedCount === this.blobs.length;
    return allReported || (this.sorted && this.lastWithNodesOrWays >= this.frontier);
  }

  private waysComplete(): boolean {
    if (this.blocksPendingWays > 0) return false;
    const allReported = this.reportedCount === this.blobs.length;
    return allReported || (this.sorted && this.lastWithNodes >= this.frontier);
  }

  private learnWantedWays(): void {
    const memberWays: number[] = [];
    for (const relation of this.relations) {
      for (const member of relation.members) if (member.type === 'way') memberWays.push(member.ref);
    }
    const ids = SortedIds.from(memberWays, true).ids;
    for (const channel of this.channels) channel.post({ kind: 'wanted-ways', ids });
    this.level = KNOW_WANTED_WAYS;
  }

  private learnNeededNodes(): void {
    const ids = SortedIds.from(this.plan.coordinatesFor(this.ways, this.relations), true).ids;
    this.coordinates = new CoordinateTable(ids);
    for (const channel of this.channels) channel.post({ kind: 'needed-nodes', ids });
    this.level = KNOW_NEEDED_NODES;
  }

  /** Sends a reported block with kinds left to decode back to work, if the context now allows it. */
  private wake(blob: number): void {
    const ready = RELATION | NODE | (this.level >= KNOW_WANTED_WAYS ? WAY : 0) | (this.level >= KNOW_NEEDED_NODES ? COORDS : 0);
    if (!this.reported[blob] || this.inFlight[blob] || this.queued[blob] || (this.pending[blob] & ready) === 0) return;
    const holder = this.holder[blob];
    if (holder >= 0) {
      this.inFlight[blob] = 1;
      this.inFlightOn[holder]++;
      this.channels[holder].post({ kind: 'resume', blob });
    } else {
      this.enqueue(blob);
    }
  }

  private enqueue(blob: number): void {
    this.queued[blob] = 1;
    this.queue.push(blob);
  }

  private dispatch(): void {
    while (this.queueHead < this.queue.length) {
      let channel = -1;
      for (let c = 0; c < this.channels.length; c++) {
        const free = this.inFlightOn[c] < MAX_IN_FLIGHT_PER_DECODER && this.heldOn[c] < MAX_HELD_PER_DECODER;
        if (free && (channel < 0 || this.inFlightOn[c] < this.inFlightOn[channel])) channel = c;
      }
      if (channel < 0) return;
      const blob = this.queue[this.queueHead++];
      const ref = this.blobs[blob];
      this.queued[blob] = 0;
      this.inFlight[blob] = 1;
      this.inFlightOn[channel]++;
      this.channels[channel].post({
        kind: 'decode',
        blob,
        start: ref.start,
        dataOffset: ref.dataOffset,
        dataSize: ref.dataSize,
        want: this.reported[blob] ? this.pending[blob] : ALL_KINDS,
        hold: this.sorted,
      });
    }
  }

  private finish(): void {
    this.settled = true;
    this.ways.sort(byId);
    this.relations.sort(byId);
    const result: ScanResult = {
      header: this.header,
      ways: this.ways,
      relations: this.relations,
      coordinates: this.coordinates!,
      counts: { ...this.counts, blobs: this.index.blobs.length },
    };
    const followUp = this.plan.nodeTransform?.finish;
    if (!followUp) return this.resolve(result);
    followUp(result, this.channels.length, (decoder, input, transfer) => this.postWork(decoder, input, transfer)).then(
      () => this.resolve(result),
      (error) => this.reject(error),
    );
  }

  private fail(error: unknown): void {
    for (const work of this.work.values()) work.reject(error instanceof Error ? error : new Error(String(error)));
    this.work.clear();
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }
}

function byId(a: { id: number }, b: { id: number }): number {
  return a.id - b.id;
}
