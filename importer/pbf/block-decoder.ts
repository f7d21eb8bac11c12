// The decoding side of a scan, run in a worker thread (or inline): reads a block from the file, inflates
// it, and decodes the parts it has enough context for. Ways need the ids of members of selected relations,
// coordinates need the ids whose coordinates are wanted, selected nodes and relations need nothing; a block
// whose turn has not come yet can be held, still inflated, until the context arrives (so a sorted file is
// inflated exactly once).
import { closeSync, openSync, readSync } from 'node:fs';
import { BatchBuilder, type BlockBatch } from './block-batch.js';
import { describeBlob } from './blob-index.js';
import { unpackBlob } from './blob.js';
import { asExtractError, ExtractError, type ExtractErrorCode } from './extract-error.js';
import { COORDS, NODE, PrimitiveBlock, RELATION, WAY, type DecodeContext } from './primitive-block.js';
import { SortedIds } from './sorted-ids.js';
import { compileSelector } from './tag-selector.js';
import type { NodeTransform, NodeTransformModule, TagSelector } from './types.js';

export interface DecoderSetup {
  path: string;
  nodes: TagSelector;
  ways: TagSelector;
  relations: TagSelector;
  /** ScanPlan.nodeTransform for this decoder, without its main-thread callback. */
  transform?: { module: string; setup: unknown };
}

export type DecoderRequest =
  /** Decode the kinds in `want` that the context allows; hold the block for the rest if `hold`. */
  | { kind: 'decode'; blob: number; start: number; dataOffset: number; dataSize: number; want: number; hold: boolean }
  /** Continue a held block with the context received since. */
  | { kind: 'resume'; blob: number }
  | { kind: 'wanted-ways'; ids: Float64Array }
  | { kind: 'needed-nodes'; ids: Float64Array }
  /** Run the node transform's work(input) (NodeTransformPlan.finish). */
  | { kind: 'work'; id: number; input: unknown }
  /** Release the file; the last request. */
  | { kind: 'close' };

export type DecoderReply =
  /**
   * `kinds`: what the block holds; `pending`: kinds still to decode (held when the request said so).
   * `transformed`: the node transform ran on the selected nodes, which are then in `nodeResult`, not `batch`.
   */
  | { kind: 'decoded'; blob: number; kinds: number; pending: number; batch: BlockBatch; transformed: boolean; nodeResult: unknown }
  | { kind: 'failed'; code: ExtractErrorCode; message: string }
  /** The answer to a 'work' request. */
  | { kind: 'worked'; id: number; result: unknown }
  /** The node transform threw (in `work` request `id`, if any): a fault of the caller's code, not of the file. */
  | { kind: 'transform-failed'; message: string; id?: number }
  /** The answer to 'close': the file and the node transform are closed; the thread exits next. */
  | { kind: 'closed' };

/** Imports a node transform module and creates its transform. */
export async function loadNodeTransform(spec: { module: string; setup: unknown }): Promise<NodeTransform> {
  const module = (await import(spec.module)) as NodeTransformModule;
  return module.createNodeTransform(spec.setup);
}

class TransformError extends Error {}

export function describeFault(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

export interface DecoderAnswer {
  reply: DecoderReply;
  transfer: ArrayBuffer[];
}

interface HeldBlock {
  block: PrimitiveBlock;
  pending: number;
  where: string;
}

export class BlockDecoder {
  private readonly fd: number;
  private readonly context: DecodeContext;
  private readonly held = new Map<number, HeldBlock>();

  constructor(
    private readonly setup: DecoderSetup,
    private readonly transform: NodeTransform | null = null,
  ) {
    this.fd = openSync(setup.path, 'r');
    this.context = {
      nodes: compileSelector(setup.nodes),
      ways: compileSelector(setup.ways),
      relations: compileSelector(setup.relations),
      wantedWays: null,
      neededNodes: null,
    };
  }

  /** Handles one request; context updates have no answer. */
  handle(request: DecoderRequest): DecoderAnswer | null {
    switch (request.kind) {
      case 'wanted-ways':
        this.context.wantedWays = new SortedIds(request.ids);
        return null;
      case 'needed-nodes':
        this.context.neededNodes = new SortedIds(request.ids);
        return null;
      case 'close':
        closeSync(this.fd);
        this.transform?.close?.();
        return { reply: { kind: 'closed' }, transfer: [] };
      case 'decode': {
        const where = describeBlob(this.setup.path, request);
        return this.guard(request.blob, where, () => {
          const block = new PrimitiveBlock(unpackBlob(this.read(request.dataOffset, request.dataSize), where));
          return this.decode(request.blob, { block, pending: block.kinds & request.want, where }, request.hold);
        });
      }
      case 'resume': {
        const held = this.held.get(request.blob);
        if (!held) throw new Error(`block ${request.blob} is not held`);
        return this.guard(request.blob, held.where, () => this.decode(request.blob, held, true));
      }
      case 'work':
        try {
          if (!this.transform?.work) throw new Error('the node transform has no work()');
          const output = this.transform.work(request.input);
          return { reply: { kind: 'worked', id: request.id, result: output.result }, transfer: output.transfer ?? [] };
        } catch (err) {
          return { reply: { kind: 'transform-failed', message: describeFault(err), id: request.id }, transfer: [] };
        }
    }
  }

  private decode(blob: number, target: HeldBlock, hold: boolean): DecoderAnswer {
    const { block } = target;
    const ready = RELATION | NODE | (this.context.wantedWays ? WAY : 0) | (this.context.neededNodes ? COORDS : 0);
    const now = target.pending & ready;
    const out = new BatchBuilder(block.strings);
    if (now !== 0) block.decode(now, this.context, out);
    const transform = this.transform;
    if (transform?.noteWay && now & WAY) {
      const middleOnly = transform.middleOnly ? (note: number) => transform.middleOnly!(note) : null;
      try {
        out.noteWays((tags) => transform.noteWay!(tags), middleOnly, this.context.wantedWays);
      } catch (err) {
        throw new TransformError(describeFault(err));
      }
    }
    const pending = target.pending & ~now;
    if (pending !== 0 && hold) this.held.set(blob, { ...target, pending });
    else this.held.delete(blob);
    let nodeResult: unknown;
    let transformed = false;
    const transfer: ArrayBuffer[] = [];
    if (this.transform && out.nodes.ids.length > 0) {
      try {
        const output = this.transform.transform(out.selectedNodes());
        nodeResult = output.result;
        if (output.transfer) transfer.push(...output.transfer);
      } catch (err) {
        throw new TransformError(describeFault(err));
      }
      transformed = true;
      out.dropNodes();
    }
    const built = out.build();
    transfer.push(...built.transfer);
    return { reply: { kind: 'decoded', blob, kinds: block.kinds, pending, batch: built.batch, transformed, nodeResult }, transfer };
  }

  /** Runs a decoding step, turning any failure into a 'failed' reply that names the block. */
  private guard(blob: number, where: string, run: () => DecoderAnswer): DecoderAnswer {
    try {
      return run();
    } catch (err) {
      this.held.delete(blob);
      if (err instanceof TransformError) return { reply: { kind: 'transform-failed', message: err.message }, transfer: [] };
      const error = asExtractError(err, where);
      return { reply: { kind: 'failed', code: error.code, message: error.message }, transfer: [] };
    }
  }

  private read(offset: number, size: number): Uint8Array {
    const data = Buffer.allocUnsafe(size);
    const bytesRead = readSync(this.fd, data, 0, size, offset);
    if (bytesRead !== size) throw new ExtractError('truncated', `${this.setup.path} ended while reading the block at byte ${offset}; was it changed during the scan?`);
    return data;
  }
}
