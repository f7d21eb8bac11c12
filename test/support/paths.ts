import { existsSync, readdirSync } from 'node:fs';
import { resolve, join } from 'node:path';

/** The repository root: npm runs tests from there. */
export const REPO_DIR = process.cwd();
/** Read-only material shared beside the repository (spec, docs, OSM extracts). */
export const SHARED_DIR = resolve(REPO_DIR, '..', 'shared');
export const OSM_DIR = join(SHARED_DIR, 'data', 'osm');

export function osmExtract(name: 'andorra' | 'liechtenstein' | 'monaco' | 'porto'): string {
  if (!existsSync(OSM_DIR)) throw new Error(`OSM extracts not found at ${OSM_DIR}: run tests from the repo root with ../shared beside it`);
  const file = readdirSync(OSM_DIR).find((f) => f.startsWith(name + '-') && f.endsWith('.osm.pbf'));
  if (!file) throw new Error(`no ${name} extract in ${OSM_DIR}`);
  return join(OSM_DIR, file);
}
