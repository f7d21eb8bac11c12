import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PbfExtractWriter, type Tags, type OsmMember } from '../../importer/pbf/index.js';

const made: string[] = [];
// Every test file runs in a process of its own: its folders go when it ends (databases of tens of MB each).
process.once('exit', () => {
  for (const path of made) rmSync(path, { recursive: true, force: true });
});

/** A folder of its own under the system temp dir, removed when the test process ends. */
export function tempDir(prefix: string): string {
  const path = mkdtempSync(join(tmpdir(), `tf-${prefix}-`));
  made.push(path);
  return path;
}

export interface FixtureElements {
  nodes: { id: number; lat: number; lon: number; tags?: Tags }[];
  ways?: { id: number; refs: number[]; tags?: Tags }[];
  relations?: { id: number; members: OsmMember[]; tags?: Tags }[];
}

/** Writes a small sorted extract; elements may be given in any order. */
export async function writeExtract(path: string, elements: FixtureElements, replicationTimestamp = Date.UTC(2026, 9, 1) / 1000): Promise<string> {
  const writer = new PbfExtractWriter(path, { writingProgram: 'toilet-finder tests', replicationTimestamp });
  for (const node of [...elements.nodes].sort((a, b) => a.id - b.id)) writer.addNode(node);
  for (const way of [...(elements.ways ?? [])].sort((a, b) => a.id - b.id)) writer.addWay(way);
  for (const relation of [...(elements.relations ?? [])].sort((a, b) => a.id - b.id)) writer.addRelation(relation);
  await writer.close();
  return path;
}

export function rows<T = Record<string, unknown>>(dbPath: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** A square ring of node ids starting at `firstId`, around (lat, lon), `half` degrees from the centre. */
export function square(firstId: number, lat: number, lon: number, half: number) {
  const corners = [[lat - half, lon - half], [lat - half, lon + half], [lat + half, lon + half], [lat + half, lon - half]];
  const nodes = corners.map(([la, lo], i) => ({ id: firstId + i, lat: la, lon: lo }));
  return { nodes, refs: [...nodes.map((n) => n.id), firstId] };
}
