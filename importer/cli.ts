#!/usr/bin/env node
// npm run import -- <extract.osm.pbf | URL> [--db PATH] [--quiet] [--threads N] [--tiles [--tiles-db PATH]]
// main() takes the arguments, environment, output streams and clock, so the tests run the command in their
// own process; run as a script, it is given the process's own.
import { dirname, join, resolve } from 'node:path';
import { ImportError, type ImportSummary } from './import.js';
import { ExtractError } from './pbf/index.js';
import { DownloadError } from './download.js';
import { importFromSource } from './import-source.js';
import type { ProgressOutput } from './progress.js';
import { removeTemporariesOnInterrupt } from './temporaries.js';
import { describeTiles } from './tiles.js';
import { commandConsole, EXIT_USAGE, parseCommand, processIo, runAsScript, usageFailure, type CommandIo } from '../src/cli/command.js';

/**
 * Exit codes, documented in README.md (with 130 and 143: interrupted, see temporaries.ts). `tiles`: the
 * toilets were imported but the tiles asked for could not be built (a missing tilemaker is not a failure).
 */
export const EXIT = { ok: 0, failed: 1, usage: EXIT_USAGE, badInput: 3, download: 4, write: 5, tiles: 6 } as const;

const COMMAND = {
  name: 'import',
  help: `usage: npm run import -- <extract.osm.pbf | https://…/extract.osm.pbf> [--db PATH] [--region NAME] [--threads N] [--quiet] [--tiles] [--tiles-db PATH] [--help]
Imports an OpenStreetMap extract into a new source database and renames it over the live one; a running
server switches to it without a restart.
  --db PATH      the source database to replace (default: TOILETS_DB, else data/toilets.db)
  --region NAME  the covered region's name, shown in /status and in empty answers outside it
                 (default: from the file name, monaco-2020-07-19.osm.pbf → Monaco)
  --threads N    PBF decoding worker threads; 0 decodes in the main thread (default: one per core)
  --quiet        no progress and no summary, only errors
  --tiles        also build the basemap's vector tiles with tilemaker (also: BUILD_TILES=1)
  --tiles-db PATH  the tiles file to replace (implies --tiles; default: TILES_DB, else tiles.mbtiles beside the database)
Exit codes: 0 imported, 1 failed, 2 wrong arguments, 3 bad extract, 4 download failed, 5 database not
written, 6 toilets imported but the tiles failed; 130/143 interrupted. On any failure the live database
is unchanged.`,
  options: {
    db: { type: 'string' },
    region: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    threads: { type: 'string' },
    tiles: { type: 'boolean', default: false },
    'tiles-db': { type: 'string' },
  },
  positionals: { min: 1, max: 1, what: 'the extract (a path or an https URL)' },
} as const;

/** Where the command reads its settings and writes its output: the process's own when run as a script. */
export interface ImportIo extends CommandIo {
  /** Errors and the progress (a bar when it is a terminal). */
  stderr: NodeJS.WritableStream & ProgressOutput;
  /** The progress's clock (default Date.now). */
  now?: () => number;
}

export async function main(argv: string[], io: ImportIo = { ...processIo(), stderr: process.stderr }): Promise<number> {
  const console = commandConsole(io);
  const parsed = parseCommand(COMMAND, argv, console);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 0)) {
    return usageFailure(COMMAND, `--threads takes a whole number (0 decodes in the main thread), not ${JSON.stringify(values.threads)}`, console);
  }
  const region = values.region?.trim();
  if (region !== undefined && (region === '' || region.length > 100)) {
    return usageFailure(COMMAND, "--region takes the covered region's name, 1 to 100 characters", console);
  }
  const dbPath = resolve(values.db ?? io.env.TOILETS_DB ?? 'data/toilets.db');
  const quiet = values.quiet === true;
  const buildTiles = values.tiles === true || values['tiles-db'] !== undefined || ['1', 'true'].includes(io.env.BUILD_TILES ?? '');
  // the server's TILES_DB default (src/config.ts): beside the source database
  const tiles = buildTiles ? resolve(values['tiles-db'] ?? (io.env.TILES_DB || join(dirname(dbPath), 'tiles.mbtiles'))) : undefined;
  try {
    const summary = await importFromSource(positionals[0], dbPath, { quiet, threads, region, tiles, progress: io.stderr, now: io.now });
    if (!quiet) console.log(describeSummary(summary, dbPath));
    switch (summary.tiles?.kind) {
      case undefined:
        return EXIT.ok;
      case 'built':
        if (!quiet) console.log(describeTiles(summary.tiles.summary));
        return EXIT.ok;
      case 'unavailable':
        // said even with --quiet: tiles were asked for, and the operator has something to install
        console.error(`import: ${summary.tiles.message}`);
        return EXIT.ok;
      case 'failed':
        console.error(`import: ${summary.tiles.message}`);
        return EXIT.tiles;
    }
  } catch (error) {
    const known: [unknown, number][] = [[ExtractError, EXIT.badInput], [DownloadError, EXIT.download], [ImportError, EXIT.write]];
    const match = known.find(([kind]) => error instanceof (kind as typeof Error));
    console.error(match ? `import: ${(error as Error).message}` : `import: failed: ${(error as Error).stack ?? error}`);
    return match ? match[1] : EXIT.failed;
  }
}

export function describeSummary(s: ImportSummary, dbPath: string): string {
  const skipped = Object.entries(s.skipped).map(([reason, n]) => `${reason} ${n}`).join(', ') || 'none';
  return [
    `imported into ${dbPath} in ${(s.elapsedMs / 1000).toFixed(1)} s`,
    `  toilets: ${s.toilets.total} (nodes ${s.toilets.nodes}, ways ${s.toilets.ways}, relations ${s.toilets.relations}, host features ${s.toilets.hosts})`,
    `  places: ${Object.values(s.places).reduce((a, b) => a + b, 0)} (${Object.entries(s.places).map(([k, n]) => `${k} ${n}`).join(', ')})`,
    `  skipped: ${skipped}`,
    `  elements read: nodes ${s.elements.nodes}, ways ${s.elements.ways}, relations ${s.elements.relations}`,
    `  id moves carried: ${s.idMoves}`,
    `  data as of: ${s.replicationTimestamp ?? 'unknown (no replication timestamp in the extract)'}`,
    `  covers: ${s.coverage ? `${s.coverage.name}, ${s.coverage.bounds.join(',')} (west,south,east,north; from the ${s.coverage.from === 'header' ? "extract's header" : 'extent of the data'})` : 'nothing (no header bbox, no toilets or places)'}`,
  ].join('\n');
}

runAsScript(
  import.meta.url,
  (argv, io) => {
    removeTemporariesOnInterrupt();
    return main(argv, { ...io, stderr: process.stderr });
  },
  { exitAtOnce: true },
);
