// Real OSM extracts imported once per build, not once per test: node:test runs every test file in a process
// of its own (two at a time), and most suites only need a source database made by the real importer from a
// real extract. The first process to ask for one imports it into a cache folder under dist/ (keyed by the
// extract's name, size and modification time and by a hash of the compiled importer and server code, so a
// code change imports again); the others wait for it. A lock folder (atomic mkdir) holds the import, the
// finished file is renamed into place (atomic), and a lock whose process has died is taken over. Every test
// gets a copy of its own, so the cached file is never opened by a server nor written beside. The import's
// summary is kept beside it (importedSummary): test/importer/real-extracts checks each extract's import on
// the cached one instead of importing it once more. Other tests of the importer keep calling importExtract.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { ImportSummary } from '../../importer/import.js';
import { osmExtract } from './paths.js';

export type ExtractName = Parameters<typeof osmExtract>[0];

/** The compiled tree this test runs from (dist/). */
const BUILD_DIR = fileURLToPath(new URL('../../', import.meta.url));
const CACHE_DIR = join(BUILD_DIR, '.test-cache');

/** A folder of its own under the system temp dir; remove() deletes it. */
export function tempDir(prefix = 'toilet-test'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The suffix of the file beside a cached import that keeps its summary. */
const SUMMARY = '.summary.json';

let buildHash: string | undefined;

/**
 * A hash of the compiled importer and server code (what an import's result depends on besides the
 * extract) and of this file (what the cache keeps beside it).
 */
function codeHash(): string {
  if (buildHash !== undefined) return buildHash;
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).update('\0');
  for (const folder of ['importer', 'src']) {
    const root = join(BUILD_DIR, folder);
    for (const file of (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.js')).sort()) {
      hash.update(relative(BUILD_DIR, join(root, file))).update('\0').update(readFileSync(join(root, file))).update('\0');
    }
  }
  return (buildHash = hash.digest('hex').slice(0, 16));
}

/** The cached file's name: `<extract>-<size>-<mtime>-<code hash>.db`. */
function cacheName(name: ExtractName): string {
  const { size, mtimeMs } = statSync(osmExtract(name));
  return `${name}-${size}-${Math.trunc(mtimeMs)}-${codeHash()}.db`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The path of the cached import of `name` (imported now if no test process has yet, for this build). Read
 * it only: open a copy (importedCopy) for anything that serves or writes.
 */
export async function importedExtract(name: ExtractName): Promise<string> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = cacheName(name);
  const path = join(CACHE_DIR, file);
  const lock = `${path}.lock`;
  for (;;) {
    if (existsSync(path)) return path;
    try {
      mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // another test process imports it: wait for its file, or take over if that process has died
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // not written yet: the owner is between mkdir and writeFile
      }
      if (Number.isInteger(owner) && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else await sleep(20);
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      if (existsSync(path)) return path; // finished between our check and the mkdir
      const partial = join(lock, 'toilets.db');
      // loaded here: a test process that finds the file never loads the importer
      const { importExtract } = await import('../../importer/import.js');
      // decoded on this thread, as npm run import does an extract this small: the same database as with
      // decoder threads (test/importer/pipeline and real-extracts), for less CPU
      const summary = await importExtract(osmExtract(name), { db: partial, threads: 0 });
      // earlier builds' imports of this extract are of no more use
      for (const old of readdirSync(CACHE_DIR)) if (old.startsWith(`${name}-`) && (old.endsWith('.db') || old.endsWith(SUMMARY)) && !old.startsWith(file)) rmSync(join(CACHE_DIR, old), { force: true });
      // the summary first: whoever finds the database finds its summary
      writeFileSync(path + SUMMARY, JSON.stringify(summary));
      renameSync(partial, path);
      return path;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** What importExtract returned when it made the cached import of `name` (importing it first if need be). */
export async function importedSummary(name: ExtractName): Promise<ImportSummary> {
  return JSON.parse(readFileSync((await importedExtract(name)) + SUMMARY, 'utf8')) as ImportSummary;
}

/** Copies the cached import of `name` to `db` (a file of the test's own, to serve, change or replace). */
export async function importedCopy(name: ExtractName, db: string): Promise<void> {
  copyFileSync(await importedExtract(name), db);
}
