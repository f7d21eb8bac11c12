// Vector tiles for the self-hosted basemap (`npm run import -- --tiles`): after the toilets are imported,
// Debian's tilemaker turns the same extract into an MBTiles file that the server serves at /tiles/. Optional
// by design: without tilemaker the import says how to install it and still succeeds; a failed build keeps
// the previous tiles file. Like the database, the file is written under a temporary name beside the live one
// and renamed over it when complete, so the server never sees half a file.
//
// tilemaker runs with the OpenMapTiles example config and Lua profile the Debian package ships (z0–14, the
// layer names the web style reads), in the tiles file's folder, so an operator can put the coastline and
// Natural Earth shapefiles that config names (`coastline/water_polygons.shp`, …) beside it to get the sea.
// Its node/way store goes to a temporary folder on disk (`--store`): ~140 MB of memory instead of ~500 MB
// for a small extract, and memory no longer grows with the extract, at ~20% more time.
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ProgressReporter } from './progress.js';
import { discardTemporary, keepTemporary, stopOnInterrupt, temporaryFile } from './temporaries.js';

/** Where the Debian package puts the example config and profile (it installs no default). */
export const TILEMAKER_EXAMPLES = '/usr/share/doc/tilemaker/examples';
const CONFIG = 'config-openmaptiles.json';
const PROCESS = 'process-openmaptiles.lua';
export const INSTALL_HINT = 'install it with `sudo apt-get install tilemaker` (Debian/Ubuntu), then import again with --tiles';
/** Lines of tilemaker's output kept to explain a failure. */
const TAIL_LINES = 5;

export interface TilesSummary {
  path: string;
  tiles: number;
  minZoom: number;
  maxZoom: number;
  bytes: number;
  elapsedMs: number;
  /** Shapefiles the config names that tilemaker did not find (the sea, coarse land cover). */
  missingShapefiles: string[];
}

/** What became of the tiles: the import itself succeeded in every case. */
export type TilesOutcome =
  | { kind: 'built'; summary: TilesSummary }
  /** tilemaker or its config is not installed: nothing was tried. */
  | { kind: 'unavailable'; message: string }
  /** tilemaker ran and failed; the previous tiles file, if any, is still in place. */
  | { kind: 'failed'; message: string };

/** Never throws: the toilets are imported whatever becomes of the tiles. */
export async function buildTiles(extractPath: string, tilesPath: string, options: { quiet: boolean }): Promise<TilesOutcome> {
  try {
    return await build(extractPath, tilesPath, options.quiet);
  } catch (error) {
    return failed((error as Error).message);
  }
}

async function build(extractPath: string, tilesPath: string, quiet: boolean): Promise<TilesOutcome> {
  const started = Date.now();
  const tilemaker = findOnPath('tilemaker');
  if (tilemaker === null) return { kind: 'unavailable', message: `tiles not built: tilemaker is not installed; ${INSTALL_HINT}` };
  const config = join(TILEMAKER_EXAMPLES, CONFIG);
  const profile = join(TILEMAKER_EXAMPLES, PROCESS);
  for (const file of [config, profile]) {
    if (!readable(file)) return { kind: 'unavailable', message: `tiles not built: ${file} is missing (it comes with Debian's tilemaker package); ${INSTALL_HINT}` };
  }
  const dir = dirname(tilesPath);
  mkdirSync(dir, { recursive: true });
  const prefix = `.${basename(tilesPath)}.`;
  // tilemaker picks its output format by the name's ending
  const tempPath = temporaryFile(dir, prefix, '.building.mbtiles');
  const store = temporaryFile(dir, prefix, '.store');
  mkdirSync(store);
  try {
    const run = await runTilemaker(tilemaker, ['--input', resolve(extractPath), '--output', tempPath, '--config', config, '--process', profile, '--store', store], dir, quiet);
    if (run.failure !== null) return failed(`${run.failure}${run.tail.length ? `: ${run.tail.join(' / ')}` : ''}`);
    const written = readTileCounts(tempPath);
    if (written.tiles === 0) return failed('tilemaker wrote no tiles (an extract without a bounding box in its header needs one: see README, "Basemap tiles")');
    swapIn(tempPath, tilesPath);
    keepTemporary(tempPath);
    return { kind: 'built', summary: { path: tilesPath, ...written, bytes: statSync(tilesPath).size, elapsedMs: Date.now() - started, missingShapefiles: run.missingShapefiles } };
  } finally {
    discardTemporary(tempPath); // gone already once renamed
    discardTemporary(`${tempPath}-journal`);
    discardTemporary(store);
  }
}

function failed(why: string): TilesOutcome {
  return { kind: 'failed', message: `tiles not built: ${why}. The toilet data is imported; the previous tiles file, if any, is kept` };
}

interface TilemakerRun {
  /** Why it failed (exit code or signal), or null. */
  failure: string | null;
  tail: string[];
  missingShapefiles: string[];
}

/** Runs tilemaker, turning its redrawn status lines into the importer's progress (rates and ETA per phase). */
function runTilemaker(command: string, args: string[], cwd: string, quiet: boolean): Promise<TilemakerRun> {
  const phases = new Map<string, ProgressReporter>();
  const progress = (label: string) => {
    let reporter = phases.get(label);
    if (reporter === undefined) {
      for (const earlier of phases.values()) earlier.finish();
      reporter = new ProgressReporter(process.stderr, quiet);
      phases.set(label, reporter);
    }
    return reporter;
  };
  return new Promise<TilemakerRun>((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    stopOnInterrupt(child);
    const tail: string[] = [];
    const missingShapefiles: string[] = [];
    const onLine = (line: string) => {
      const text = line.trim();
      if (text === '') return;
      const block = /^Block (\d+)\/(\d+)/.exec(text);
      const tile = /writing tile (\d+) of (\d+)/.exec(text);
      const shapefile = /^Unable to open (\S+)/.exec(text);
      if (block) progress('tiles: reading').update({ label: 'tiles: reading', done: Number(block[1]), total: Number(block[2]), unit: 'blocks' });
      else if (tile) progress('tiles').update({ label: 'tiles', done: Number(tile[1]), total: Number(tile[2]), unit: 'tiles' });
      else if (shapefile) missingShapefiles.push(shapefile[1]);
      else {
        tail.push(text);
        if (tail.length > TAIL_LINES) tail.shift();
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (pending + chunk).split(/[\r\n]/);
        pending = lines.pop() ?? '';
        lines.forEach(onLine);
      });
      stream.on('end', () => onLine(pending));
    }
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const failure = code === 0 ? null : signal !== null ? `tilemaker was killed by ${signal}${signal === 'SIGKILL' ? ' (out of memory?)' : ''}` : `tilemaker exited with code ${code}`;
      resolve({ failure, tail, missingShapefiles });
    });
  }).finally(() => {
    for (const reporter of phases.values()) reporter.finish();
  });
}

function readTileCounts(path: string): { tiles: number; minZoom: number; maxZoom: number } {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare('SELECT count(*) AS tiles, min(zoom_level) AS minZoom, max(zoom_level) AS maxZoom FROM tiles').get() as { tiles: number; minZoom: number | null; maxZoom: number | null };
    return { tiles: row.tiles, minZoom: row.minZoom ?? 0, maxZoom: row.maxZoom ?? 0 };
  } finally {
    db.close();
  }
}

/** Makes the new file durable, renames it over the live one and makes the rename durable. */
function swapIn(tempPath: string, livePath: string): void {
  const file = openSync(tempPath, 'r');
  fsyncSync(file);
  closeSync(file);
  renameSync(tempPath, livePath);
  const dir = openSync(dirname(livePath), 'r');
  fsyncSync(dir);
  closeSync(dir);
}

function findOnPath(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function readable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The summary's lines about the tiles, in the style of the import summary. */
export function describeTiles(s: TilesSummary): string {
  const lines = [`tiles: ${s.tiles} (zoom ${s.minZoom}–${s.maxZoom}) into ${s.path} in ${(s.elapsedMs / 1000).toFixed(1)} s, ${(s.bytes / 1048576).toFixed(1)} MB`];
  if (s.missingShapefiles.some((file) => file.startsWith('coastline/'))) {
    lines.push(`  no sea: ${join(dirname(s.path), 'coastline', 'water_polygons.shp')} is missing, so seas show as land (README, "Basemap tiles")`);
  }
  return lines.join('\n');
}
