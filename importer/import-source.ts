// Import from a file or an http(s) URL: what the CLI and the server's first start (TOILETS_EXTRACT) run;
// then, when asked, the basemap tiles from the same extract (before a downloaded extract is removed).
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { importExtract, type ImportSummary } from './import.js';
import { ExtractError } from './pbf/index.js';
import { download } from './download.js';
import { extractName } from './coverage.js';
import { ProgressReporter, type ProgressOutput } from './progress.js';
import { discardTemporary, temporaryFile } from './temporaries.js';
import { buildTiles, type TilesOutcome } from './tiles.js';

export interface ImportSourceOptions {
  quiet: boolean;
  threads?: number;
  /** The covered region's name (default: from the extract's file name). */
  region?: string;
  /** The built-in demo extract (recorded in the meta). */
  demo?: boolean;
  /** Also build the basemap's vector tiles into this MBTiles file once the toilets are imported. */
  tiles?: string;
  /** Where the progress goes (default process.stderr), and its clock (default Date.now). */
  progress?: ProgressOutput;
  now?: () => number;
}

export interface SourceImport extends ImportSummary {
  /** Only when `tiles` was asked for. */
  tiles?: TilesOutcome;
}

export async function importFromSource(source: string, dbPath: string, options: ImportSourceOptions): Promise<SourceImport> {
  const db = resolve(dbPath);
  const progress = new ProgressReporter(options.progress ?? process.stderr, options.quiet, options.now);
  mkdirSync(dirname(db), { recursive: true });
  const remote = /^https?:\/\//i.test(source);
  const extractPath = remote ? temporaryFile(dirname(db), '.download-', '.osm.pbf') : source;
  let contentType: string | null = null;
  try {
    if (remote) {
      ({ contentType } = await download(source, extractPath, (p) => progress.update({ label: 'download', done: p.bytesRead, total: p.totalBytes })));
      progress.finish();
    } else if (!existsSync(source)) {
      throw new ExtractError('not_found', `${source} does not exist; name an .osm.pbf file or an https URL`);
    }
    const summary: SourceImport = await importExtract(extractPath, {
      db,
      sourceUrl: remote ? source : null,
      extractName: extractName(source),
      region: options.region,
      demo: options.demo,
      threads: options.threads,
      onProgress: (p) => progress.update({ label: 'import', done: p.bytesRead, total: p.totalBytes, count: { name: 'elements', value: p.elements } }),
    });
    progress.finish();
    if (options.tiles !== undefined) summary.tiles = await buildTiles(extractPath, resolve(options.tiles), { quiet: options.quiet });
    return summary;
  } catch (error) {
    // about the download: named by its URL, not by the temporary file it was kept in
    if (!remote || !(error instanceof ExtractError)) throw error;
    const sent = contentType === null ? '' : ` (the server sent it as ${contentType})`;
    throw new ExtractError(error.code, `${error.message.replaceAll(extractPath, source)}${sent}`);
  } finally {
    progress.finish();
    if (remote) discardTemporary(extractPath);
  }
}
