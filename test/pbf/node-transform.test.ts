// scanExtract with a node transform: per-node work in the decoder threads (or inline), follow-up work on the
// same threads once every block is done, and failures of the transform reported as such.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { PbfExtractWriter, scanExtract, type OsmNode, type ScanPlan, type TagSelector, type Tags } from '../../importer/pbf/index.js';
import type { EchoedNode, EchoSetup } from './echo-transform.js';
import { scan, temporaryDirectory } from './fixtures.js';

const ECHO = new URL('./echo-transform.js', import.meta.url).href;
const temp = temporaryDirectory();
after(temp.remove);
const town = join(temp.dir, 'town.osm.pbf');
const SELECTOR = { amenity: ['toilets'], entrance: '*' } as const;

/** Enough nodes for many blocks, some tagged (including keys JSON and objects treat specially), and ways. */
async function writeTown(path: string): Promise<void> {
  const writer = new PbfExtractWriter(path);
  for (let id = 1; id <= 40_000; id++) {
    let tags: Tags | undefined;
    if (id % 9 === 0) tags = { amenity: 'toilets', name: `WC "${id}" \\ ☕`, fee: id % 2 ? 'yes' : 'no' };
    else if (id % 13 === 0) tags = { entrance: 'yes', '1': 'one', 'addr:housenumber': String(id) };
    writer.addNode({ id, lat: 38 + id * 1e-6, lon: -9 + id * 1e-6, tags, timestamp: id % 4 ? 1_600_000_000_000 + id * 1000 : undefined });
  }
  for (let id = 1; id <= 5_000; id++) {
    writer.addWay({ id, refs: [id * 3, id * 3 + 1, id * 3 + 2], tags: id % 4 === 0 ? { highway: 'footway', name: `Lane ${id}` } : { highway: 'footway' } });
  }
  const members = [7, 8, 12].map((ref) => ({ type: 'way' as const, ref, role: 'outer' }));
  writer.addRelation({ id: 1, members, tags: { type: 'multipolygon', amenity: 'toilets' } });
  await writer.close();
}

before(() => writeTown(town));

/** Scans `town` through the echo transform; `finish` may post follow-up work; `awaitClose`: returns once every transform has closed. */
async function echoScan(
  threads: number,
  options: { fail?: EchoSetup['fail']; finish?: NonNullable<ScanPlan['nodeTransform']>['finish']; noteNames?: boolean; ways?: TagSelector; relations?: TagSelector; awaitClose?: boolean } = {},
) {
  const echoed: EchoedNode[] = [];
  const blocks: { block: number; ids: number[] }[] = [];
  const ports: MessagePort[] = [];
  const closed: number[] = [];
  /** Each transform's port closes after its close message (the messages cross threads). */
  const portsClosed: Promise<unknown>[] = [];
  const plan: ScanPlan = {
    nodes: SELECTOR,
    ways: options.ways ?? {},
    relations: options.relations ?? {},
    coordinatesFor: () => [],
    nodeTransform: {
      module: ECHO,
      setup(decoder) {
        const { port1, port2 } = new MessageChannel();
        port1.on('message', (message: { closed: number }) => closed.push(message.closed));
        portsClosed.push(once(port1, 'close'));
        ports.push(port1);
        return { value: { decoder, port: port2, fail: options.fail, noteNames: options.noteNames } satisfies EchoSetup, transfer: [port2] };
      },
      onResult(result, block) {
        echoed.push(...(result as EchoedNode[]));
        blocks.push({ block, ids: (result as EchoedNode[]).map((node) => node.id) });
      },
      finish: options.finish,
    },
  };
  try {
    const result = await scanExtract(town, plan, { threads });
    if (options.awaitClose) await Promise.all(portsClosed);
    return { result, echoed: echoed.sort((a, b) => a.id - b.id), closed: closed.sort((a, b) => a - b), blocks };
  } finally {
    for (const port of ports) port.close();
  }
}

describe('scanExtract with a node transform', () => {
  for (const threads of [0, 2]) {
    it(`hands the transform exactly the nodes onNodes gets (threads: ${threads})`, async () => {
      const plain = await scan(town, SELECTOR, { threads, ways: {}, relations: {}, coordinatesFor: () => [] });
      const { result, echoed } = await echoScan(threads);
      assert.equal(echoed.length, plain.nodes.length);
      assert.ok(echoed.length > 7000);
      echoed.forEach((node, i) => {
        const expected: OsmNode = plain.nodes[i];
        assert.deepEqual({ id: node.id, lat: node.lat, lon: node.lon, tags: node.tags, timestamp: node.timestamp }, expected);
        assert.deepEqual(Object.fromEntries(node.pairs), expected.tags, 'the pairs are the tags');
      });
      assert.deepEqual(result.counts, plain.counts);
    });
  }

  for (const threads of [0, 2]) {
    it(`tells each result its block's position in the file: in block order, the nodes are in file order (threads: ${threads})`, async () => {
      const { echoed, blocks } = await echoScan(threads);
      const positions = blocks.map(({ block }) => block);
      assert.ok(positions.length > 3, 'the town spans several blocks');
      assert.equal(new Set(positions).size, positions.length, 'one result a block');
      const inBlockOrder = blocks.sort((a, b) => a.block - b.block).flatMap(({ ids }) => ids);
      assert.deepEqual(inBlockOrder, echoed.map((node) => node.id));
    });
  }

  for (const threads of [0, 2]) {
    it(`delivers ways with the note noteWay gives them, dropping those noted 0 and trimming those middleOnly, but for members of selected relations (threads: ${threads})`, async () => {
      const selectors = { ways: { highway: ['footway'] }, relations: { amenity: ['toilets'] } };
      const all = await echoScan(threads, selectors);
      const { result } = await echoScan(threads, { ...selectors, noteNames: true });
      assert.equal(all.result.ways.length, 5_000);
      assert.ok(all.result.ways.every((way) => !('note' in way)), 'no notes without noteWay');
      const member = (id: number) => id === 7 || id === 8 || id === 12;
      const expected = all.result.ways
        .filter((way) => way.tags.name !== undefined || member(way.id))
        .map((way) => {
          const note = way.tags.name?.length ?? 0;
          const refs = note % 2 === 1 && !member(way.id) ? [way.refs[way.refs.length >> 1]] : way.refs;
          return { ...way, refs, note };
        });
      assert.equal(expected.length, 1_251);
      assert.ok(expected.some((way) => way.refs.length === 1) && expected.some((way) => way.note % 2 === 1 && way.refs.length === 3));
      assert.deepEqual(result.ways, expected, 'the named ways (odd names: the middle vertex), and unnamed way 7 as a member of relation 1, whole');
      assert.deepEqual(result.counts, all.result.counts, 'every way is counted');
    });
  }

  it('runs follow-up work in each decoder once every block is done, then closes every transform', async () => {
    const answers: unknown[] = [];
    let blocksDone = 0;
    const { closed, echoed } = await echoScan(2, {
      awaitClose: true,
      async finish(result, decoders, post) {
        blocksDone = result.counts.nodes;
        assert.equal(decoders, 2);
        answers.push(...(await Promise.all([post(0, 'a'), post(1, { b: [1, 2] }), post(0, 'c')])));
      },
    });
    assert.equal(blocksDone, 40_000, 'finish sees the whole scan');
    assert.ok(echoed.length > 0);
    assert.deepEqual(answers, [{ decoder: 0, input: 'a' }, { decoder: 1, input: { b: [1, 2] } }, { decoder: 0, input: 'c' }]);
    assert.deepEqual(closed, [0, 1]);
  });

  it('reports a transform that throws (on a block, in follow-up work) or notes a way wrongly as a failure of the transform', async () => {
    for (const threads of [0, 2]) {
      await assert.rejects(echoScan(threads, { fail: 'transform' }), /node transform failed: .*echo refuses blocks/);
      await assert.rejects(echoScan(threads, { fail: 'work', finish: async (_result, _decoders, post) => void (await post(0, 'x')) }), /node transform failed: .*echo refuses work/);
      const ways = { ways: { highway: ['footway'] }, noteNames: true };
      await assert.rejects(echoScan(threads, { ...ways, fail: 'note' }), /node transform failed: .*noteWay gave way \d+ the note -1: a whole number below 2\^32 is expected/);
    }
  });

  it('takes the nodes either as objects or through a transform, not both', async () => {
    const plan = { nodes: SELECTOR, ways: {}, relations: {}, coordinatesFor: () => [] };
    await assert.rejects(scanExtract(town, plan as ScanPlan), TypeError);
    const both: ScanPlan = { ...plan, onNodes() {}, nodeTransform: { module: ECHO, setup: () => ({ value: {} }), onResult() {} } };
    await assert.rejects(scanExtract(town, both), TypeError);
  });
});
