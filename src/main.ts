// npm start: read the config, import TOILETS_EXTRACT or the demo data when there is no data yet (first-import.ts), load, serve, and
// reload on SIGHUP; SIGTERM/SIGINT finish in-flight requests before exiting.
import { basename } from 'node:path';
import { loadConfig, ConfigError } from './config.js';
import { jsonLogger } from './log.js';
import { createApp } from './app.js';
import { importFromSource, removeTemporariesOnInterrupt } from '../importer/index.js';
import { DEMO_REGION, firstImport } from './first-import.js';
import { storageTrouble } from './storage/errors.js';

let log = jsonLogger();

async function main(): Promise<void> {
  // From process start to here: Node itself and every module, the bundled time-zone and border data among them.
  const modulesMs = Math.round(performance.now());
  const config = loadConfig();
  log = jsonLogger(process.stdout, process.stderr, config.logLevel);
  if (config.baseUrlIsDefault && !isLoopback(config.host)) {
    log.error(`BASE_URL is not set: every URL in answers, the OpenAPI servers entry and the dump notice say ${config.baseUrl}, though the server listens on HOST=${config.host}; set BASE_URL to the origin clients reach it at (e.g. https://toilets.example.org)`);
  }
  const first = firstImport(config.toiletsDb, config.toiletsExtract);
  if (first !== null) {
    log.info(first.demo ? `${first.reason}: importing the demo data (${DEMO_REGION}) before serving` : `${first.reason}: importing TOILETS_EXTRACT before serving`, { extract: first.demo ? basename(first.extract) : config.toiletsExtract, db: config.toiletsDb });
    const stopRemoving = removeTemporariesOnInterrupt();
    const summary = await importFromSource(first.extract, config.toiletsDb, { quiet: !process.stderr.isTTY, demo: first.demo }).finally(stopRemoving);
    log.info('import finished', { toilets: summary.toilets.total, places: Object.values(summary.places).reduce((a, b) => a + b, 0), elapsed_ms: summary.elapsedMs });
  }
  const app = createApp({ config, log, accessLines: (lines) => log.lines(lines) });
  const started = performance.now();
  app.threads?.prepare(config.httpThreads - 1);
  const report = app.catalog.load();
  const info = app.catalog.snapshot.info;
  if (info.importedAt === null) {
    log.info(`no toilet data in ${config.toiletsDb}: answers are empty until you run \`npm run import -- <extract.osm.pbf or URL>\` (or start with TOILETS_EXTRACT set)`);
  } else if (info.demo) {
    log.info(`serving the demo data (${info.coverage?.name ?? DEMO_REGION}, OpenStreetMap as of ${info.dataAsOf?.slice(0, 10) ?? 'an unknown date'}): import your region with \`npm run import -- <extract.osm.pbf or URL>\` (or start with TOILETS_EXTRACT set); it replaces the demo`);
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
    region: info.coverage?.name ?? null,
    demo: info.demo,
    modules_ms: modulesMs,
    load_ms: Math.round(performance.now() - started),
    parts: { toilets_ms: report.loadMs - app.placeIndex.loadMs, places_ms: app.placeIndex.loadMs, threads_ms: Math.round(performance.now() - listening) },
    places: app.placeIndex.size,
    rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  });
  app.community.writeFirstDump(app.catalog);
}

/** Whether a listening address is reachable from this machine only. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^(::ffff:)?127\./.test(host);
}

main().catch((error) => {
  if (error instanceof ConfigError) log.error(error.message);
  else {
    const trouble = storageTrouble(error);
    log.error(`start failed: ${(error as Error).message}${trouble === null ? '' : ` (${trouble})`}`, { error: (error as Error).stack });
  }
  process.exit(1);
});
