// A NodeTransformModule for the transform tests: hands back every selected node as plain data, read both
// ways the SelectedNodes view offers; answers work with its setup; reports its close on the port it was given.
import type { MessagePort } from 'node:worker_threads';
import type { NodeTransform, SelectedNodes, Tags } from '../../importer/pbf/index.js';

export interface EchoSetup {
  decoder: number;
  port: MessagePort;
  /** Throw from transform() (a block) or work(), or give a way a note that is no whole number. */
  fail?: 'transform' | 'work' | 'note';
  /**
   * Note each way with the length of its name, 0 (drop) for none (NodeTransform.noteWay); an odd length
   * wants only the middle vertex (middleOnly).
   */
  noteNames?: boolean;
}

export interface EchoedNode {
  id: number;
  lat: number;
  lon: number;
  timestamp: number | null;
  tags: Tags;
  pairs: [string, string][];
}

export function createNodeTransform(setup: EchoSetup): NodeTransform {
  const noteWay = (tags: Tags) => {
    if (Object.getPrototypeOf(tags) !== null) throw new Error('noteWay was given tags that are no dictionary');
    return setup.fail === 'note' ? -1 : (tags.name?.length ?? 0);
  };
  return {
    ...(setup.noteNames ? { noteWay, middleOnly: (note: number) => note % 2 === 1 } : {}),
    transform(nodes: SelectedNodes) {
      if (setup.fail === 'transform') throw new Error('echo refuses blocks');
      const echoed: EchoedNode[] = [];
      const textAt: string[] = [];
      for (let i = 0; i < nodes.length; i++) {
        const pairs: [string, string][] = [];
        for (let t = 0; t < nodes.tagCount(i); t++) {
          pairs.push([nodes.tagKey(i, t), nodes.tagValue(i, t)]);
          for (const [place, text] of [[nodes.tagKeyPlace(i, t), nodes.tagKey(i, t)], [nodes.tagValuePlace(i, t), nodes.tagValue(i, t)]] as const) {
            if (!(place >= 0 && place < nodes.stringCount)) throw new Error(`string place ${place} outside the block's ${nodes.stringCount}`);
            if ((textAt[place] ??= text) !== text) throw new Error(`string place ${place} holds both ${textAt[place]} and ${text}`);
          }
        }
        echoed.push({ id: nodes.id(i), lat: nodes.lat(i), lon: nodes.lon(i), timestamp: nodes.timestamp(i), tags: nodes.tags(i), pairs });
      }
      return { result: echoed };
    },
    work(input: unknown) {
      if (setup.fail === 'work') throw new Error('echo refuses work');
      return { result: { decoder: setup.decoder, input } };
    },
    close() {
      setup.port.postMessage({ closed: setup.decoder });
      setup.port.close();
    },
  };
}
