#!/usr/bin/env node
// npm run import -- <extract.osm.pbf | URL> [--db PATH] [--quiet] [--threads N]
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { importExtract, ImportError, type ImportSummary } from './import.js';
import { ExtractError } from './pbf/index.js';
import { download, DownloadError } from './download.js';
import { ProgressReporter } from './progress.js';

/** Exit codes, documented in README.md. */
export const EXIT = { ok: 0, failed: 1, usage: 2, badInput: 3, download: 4, write: 5 } as const;

const USAGE = 'usage: npm run import -- <extract.osm.pbf | https://…/extract.osm.pbf> [--db PATH] [--threads N] [--quiet]';

export async function main(argv: string[]): Promise<number> {
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
  const dbPath = resolve(values.db ?? process.env.TOILETS_DB ?? 'data/toilets.db');
  const source = positionals[0];
  const quiet = values.quiet === true;
  const progress = new ProgressReporter(process.stderr, quiet);
  let extractPath = source;
  let downloaded: string | null = null;
  try {
    mkdirSync(dirname(dbPath), { recursive: true });
    if (/^https?:\/\//i.test(source)) {
      downloaded = join(dirname(dbPath), `.download-${process.pid}.osm.pbf`);
      await download(source, downloaded, (p) => progress.update({ label: 'download', done: p.bytesRead, total: p.totalBytes }));
      progress.finish();
      extractPath = downloaded;
    } else if (!existsSync(source)) {
      console.error(`import: ${source} does not exist; name an .osm.pbf file or an https URL`);
      return EXIT.badInput;
    }
    const summary = await importExtract(extractPath, {
      db: dbPath,
      sourceUrl: downloaded ? source : null,
      threads,
      onProgress: (p) => progress.update({ label: 'import', done: p.bytesRead, total: p.totalBytes, count: { name: 'elements', value: p.elements } }),
    });
    progress.finish();
    if (!quiet) console.log(describeSummary(summary, dbPath));
    return EXIT.ok;
  } catch (error) {
    progress.finish();
    if (error instanceof ExtractError) {
      console.error(`import: ${error.message}`);
      return EXIT.badInput;
    }
    if (error instanceof DownloadError) {
      console.error(`import: ${error.message}`);
      return EXIT.download;
    }
    if (error instanceof ImportError) {
      console.error(`import: ${error.message}`);
      return EXIT.write;
    }
    console.error(`import: failed: ${(error as Error).stack ?? error}`);
    return EXIT.failed;
  } finally {
    if (downloaded) rmSync(downloaded, { force: true });
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
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
