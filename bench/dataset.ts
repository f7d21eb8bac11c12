// Benchmark data: a generated extract of the requested size and its imported source database, kept in
// bench/out/ between runs (same size and seed → same bytes).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generateExtract } from './generate/generate.js';

export const OUT_DIR = join(process.cwd(), 'bench', 'out');

export interface Dataset {
  toilets: number;
  otherNodes: number;
  pbf: string;
  db: string;
}

export async function ensureExtract(toilets: number, otherNodes: number, log: (line: string) => void): Promise<Dataset> {
  mkdirSync(OUT_DIR, { recursive: true });
  const name = `generated-${toilets}-${otherNodes}`;
  const pbf = join(OUT_DIR, `${name}.osm.pbf`);
  if (!existsSync(pbf)) {
    log(`generating ${pbf} (${toilets.toLocaleString('en')} toilets, ${otherNodes.toLocaleString('en')} other nodes)`);
    await generateExtract(pbf, { toilets, otherNodes });
  }
  return { toilets, otherNodes, pbf, db: join(OUT_DIR, `${name}.db`) };
}
