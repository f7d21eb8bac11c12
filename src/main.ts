// npm start: read the config, import TOILETS_EXTRACT when there is no data yet, load, serve, and
// reload on SIGHUP; SIGTERM/SIGINT finish in-flight requests before exiting.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { loadConfig, ConfigError } from './config.js';
import { jsonLogger } from './log.js';
import { createApp } from './app.js';
import { importFromSource, removeTemporariesOnInterrupt } from '../importer/index.js';
import { readMeta, SOURCE_SCHEMA_VERSION } from './source/schema.js';
import { storageTrouble } from './storage/errors.js';

let log = jsonLogger();

async function main(): Promise<void> {
  // From process start to here: Node itself and every module, the bundled time-zone and border data among them.
  const modulesMs = Math.round(performance.now());
  const config = loadConfig();
  log = jsonLogger(process.stdout, process.stderr, config.logLevel);
  const missing = config.toiletsExtract ? whyImport(config.toiletsDb) : null;
  if (config.toiletsExtract && missing) {
    log.info(`${missing}: importing TOILETS_EXTRACT before serving`, { extract: config.toiletsExtract, db: config.toiletsDb });
    const stopRemoving = removeTemporariesOnInterrupt();
    const summary = await importFromSource(config.toiletsExtract, config.toiletsDb, { quiet: !process.stderr.isTTY }).finally(stopRemoving);
    log.info('import finished', { toilets: summary.toilets.total, places: Object.values(summary.places).reduce((a, b) => a + b, 0), elapsed_ms: summary.elapsedMs });
  }
  const app = createApp({ config, log, accessLines: (lines) => log.lines(lines) });
  const started = performance.now();
  app.threads?.prepare(config.httpThreads - 1);
  const report = app.catalog.load();
  if (report.toilets === 0) {
    log.info(`no toilet data in ${config.toiletsDb}: answers are empty until you run \`npm run import -- <extract.osm.pbf or URL>\` (or start with TOILETS_EXTRACT set)`);
  }
  app.catalog.watch();
  const listening = performance.now();
  const port = await app.listen();
  // Before "serving" is said: a supervisor may signal as soon as it reads it (SIGHUP's default is to end
  // the process).
  process.on('SIGHUP', () => {
    app.catalog.reload('SIGHUP');
    app.tiles.reload('SIGHUP');
  });
  const stop = (signal: string) => {
    log.info('shutting down: finishing requests in flight', { signal });
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        // Without this the rejection would end the process with Node's own stack trace, not a log line.
        log.error(`shutdown failed: ${(error as Error).message}`, { error: (error as Error).stack });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  log.info('serving', {
    url: config.baseUrl,
    port,
    threads: config.httpThreads,
    toilets: report.toilets,
    data_as_of: report.dataAsOf,
    modules_ms: modulesMs,
    load_ms: Math.round(performance.now() - started),
    parts: { toilets_ms: report.loadMs - app.placeIndex.loadMs, places_ms: app.placeIndex.loadMs, threads_ms: Math.round(performance.now() - listening) },
    places: app.placeIndex.size,
    rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  });
  app.community.writeFirstDump(app.catalog);
}

/** Why the source database needs an import before serving (missing, unreadable, empty, from another version), or null. */
function whyImport(path: string): string | null {
  if (!existsSync(path)) return 'no toilets yet';
  try {
    const db = new Database(path, { readonly: true });
    try {
      const version = readMeta(db).schema_version;
      if (version !== String(SOURCE_SCHEMA_VERSION)) return `the source database has layout version ${version ?? 'none'}, this server reads ${SOURCE_SCHEMA_VERSION}`;
      return (db.prepare('SELECT count(*) AS n FROM toilets').get() as { n: number }).n > 0 ? null : 'no toilets yet';
    } finally {
      db.close();
    }
  } catch {
    return 'the source database cannot be read';
  }
}

main().catch((error) => {
  if (error instanceof ConfigError) log.error(error.message);
  else {
    const trouble = storageTrouble(error);
    log.error(`start failed: ${(error as Error).message}${trouble === null ? '' : ` (${trouble})`}`, { error: (error as Error).stack });
  }
  process.exit(1);
});
