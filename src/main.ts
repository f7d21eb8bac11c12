// npm start: serve.ts starts the server (config, first import, load, listen); this is the process around it:
// the "serving" line, reload on SIGHUP, SIGTERM/SIGINT finishing in-flight requests before exiting, and the
// start-failed line with exit code 1.
import { ConfigError } from './config.js';
import { jsonLogger, type JsonLogger } from './log.js';
import { serve, startFailedMessage } from './serve.js';

let log: JsonLogger = jsonLogger();

async function main(): Promise<void> {
  // From process start to here: Node itself and every module, the bundled time-zone and border data among them.
  const modulesMs = Math.round(performance.now());
  const { config, app, port, report, started, listening } = await serve(process.env, (level) => (log = jsonLogger(process.stdout, process.stderr, level)));
  const info = app.catalog.snapshot.info;
  // Before "serving" is said: a supervisor may signal as soon as it reads it (SIGHUP's default is to end
  // the process).
  process.on('SIGHUP', () => {
    app.catalog.reload('SIGHUP');
    app.tiles.reload('SIGHUP');
    void app.sourceFetch.checkNow(); // a replica checks the published files at once (it logs what fails)
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
  app.writeFirstDump();
}

main().catch((error) => {
  if (error instanceof ConfigError) log.error(error.message);
  else log.error(startFailedMessage(error), { error: (error as Error).stack });
  process.exit(1);
});
