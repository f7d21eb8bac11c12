// The tags of a selected node as the importer reads them: a dictionary-mode object for the mapping (see
// lookupTags), holding what the scan's plain tag objects hold, and, for the nodes that become records, its
// JSON text. The text is exactly what JSON.stringify gives for the object, built from the node's pairs unless
// the object's keys differ from them (a repeated key, a key that is an array index, or __proto__, which a
// plain object takes as its prototype, so it is no tag), which is left to JSON.stringify.
import type { SelectedNodes, Tags } from './pbf/index.js';

export interface NodeTags {
  tags: Tags;
  /** The object holds the node's pairs in file order. */
  inFileOrder: boolean;
}

export function nodeTags(nodes: SelectedNodes, i: number): NodeTags {
  const tags = Object.create(null) as Tags;
  let inFileOrder = true;
  for (let t = 0, count = nodes.tagCount(i); t < count; t++) {
    const key = nodes.tagKey(i, t);
    if (key === '__proto__') {
      inFileOrder = false;
      continue;
    }
    if (inFileOrder && (tags[key] !== undefined || startsWithDigit(key))) inFileOrder = false;
    tags[key] = nodes.tagValue(i, t);
  }
  return { tags, inFileOrder };
}

/**
 * JSON.stringify(read.tags), for the tags of node i as nodeTags read them. `quoted`: the JSON of each of the
 * block's strings already quoted, by place (see SelectedNodes.tagKeyPlace); one list per block.
 */
export function nodeTagsJson(nodes: SelectedNodes, i: number, read: NodeTags, quoted: (string | undefined)[]): string {
  if (!read.inFileOrder) return JSON.stringify(read.tags);
  let json = '{';
  for (let t = 0, count = nodes.tagCount(i); t < count; t++) {
    if (t > 0) json += ',';
    const key = nodes.tagKeyPlace(i, t);
    json += quoted[key] ??= JSON.stringify(nodes.tagKey(i, t));
    json += ':';
    const value = nodes.tagValuePlace(i, t);
    json += quoted[value] ??= JSON.stringify(nodes.tagValue(i, t));
  }
  return `${json}}`;
}

function startsWithDigit(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 0x30 && c <= 0x39;
}
