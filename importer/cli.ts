#!/usr/bin/env node
// npm run import -- <extract.osm.pbf | URL> [--db PATH] [--quiet] [--threads N]
// main() takes the arguments, environment, output streams and clock, so the tests run the command in their
// own process; run as a script, it is given the process's own.
import { Console } from 'node:console';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ImportError, type ImportSummary } from './import.js';
import { ExtractError } from './pbf/index.js';
import { DownloadError } from './download.js';
import { importFromSource } from './import-source.js';
import type { ProgressOutput } from './progress.js';
import { removeTemporariesOnInterrupt } from './temporaries.js';

/** Exit codes, documented in README.md (with 130 and 143: interrupted, see temporaries.ts). */
export const EXIT = { ok: 0, failed: 1, usage: 2, badInput: 3, download: 4, write: 5 } as const;

const USAGE = 'usage: npm run import -- <extract.osm.pbf | https://…/extract.osm.pbf> [--db PATH] [--threads N] [--quiet]';

/** Where the command reads its settings and writes its output: the process's own when run as a script. */
export interface ImportIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  /** Errors and the progress (a bar when it is a terminal). */
  stderr: NodeJS.WritableStream & ProgressOutput;
  /** The progress's clock (default Date.now). */
  now?: () => number;
}

export async function main(argv: string[], io: ImportIo = { env: process.env, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const console = new Console({ stdout: io.stdout, stderr: io.stderr });
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { db: { type: 'string' }, quiet: { type: 'boolean', default: false }, threads: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    console.error(`import: ${(error as Error).message}\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1) {
    console.error(`import: name exactly one extract\n${USAGE}`);
    return EXIT.usage;
  }
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 0)) {
    console.error(`import: --threads takes a whole number (0 decodes in the main thread)\n${USAGE}`);
    return EXIT.usage;
  }
  const dbPath = resolve(values.db ?? io.env.TOILETS_DB ?? 'data/toilets.db');
  const quiet = values.quiet === true;
  try {
    const summary = await importFromSource(positionals[0], dbPath, { quiet, threads, progress: io.stderr, now: io.now });
    if (!quiet) console.log(describeSummary(summary, dbPath));
    return EXIT.ok;
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
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  removeTemporariesOnInterrupt();
  process.exit(await main(process.argv.slice(2)));
}
