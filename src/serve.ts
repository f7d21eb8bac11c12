// What `npm start` does before it says "serving": read the config, import TOILETS_EXTRACT or the demo data
// when there is no data yet (first-import.ts), load and listen. main.ts runs it in the process (signals,
// the "serving" line, the exit code); tests run it in theirs where the subject is why a start fails.
import { basename } from 'node:path';
import { loadConfig, retiredSettingWarnings, RETIRED_SETTINGS, type Config, type RetiredSetting } from './config.js';
import type { JsonLogger } from './log.js';
import { createApp, type App } from './app.js';
import { importFromSource, removeTemporariesOnInterrupt } from '../importer/index.js';
import { DEMO_REGION, firstImport, installDemoTiles } from './first-import.js';
import { missingPartsNote } from './toilets/source-parts.js';
import { storageTrouble } from './storage/errors.js';
import { openStorage, postgresNote } from './stores.js';
import type { LoadReport } from './toilets/catalog.js';

export interface Serving {
  config: Config;
  app: App;
  port: number;
  report: LoadReport;
  /** performance.now() when loading began, and when listening began. */
  started: number;
  listening: number;
}

/**
 * Starts the server from `env`, logging with the logger `logTo` makes once the config says at which level;
 * a setting of `retired` that `env` sets gets a warning, not a failed start (config.ts, RETIRED_SETTINGS).
 * A failure after the app is made closes it (its databases, its port) and rejects at once, not after the
 * close: main.js exits then, and a read thread that never started might not answer a close.
 */
export async function serve(env: NodeJS.ProcessEnv, logTo: (level: Config['logLevel']) => JsonLogger, retired: readonly RetiredSetting[] = RETIRED_SETTINGS): Promise<Serving> {
  const config = loadConfig(env);
  const log = logTo(config.logLevel);
  for (const warning of retiredSettingWarnings(env, retired)) log.warn(warning);
  if (config.baseUrlIsDefault && !isLoopback(config.host)) {
    log.error(`BASE_URL is not set: every URL in answers, the OpenAPI servers entry and the dump notice say ${config.baseUrl}, though the server listens on HOST=${config.host}; set BASE_URL to the origin clients reach it at (e.g. https://toilets.example.org)`);
  }
  // a replica (TOILETS_DB_URL) imports nothing: it fetches what the import job publishes. Decided (and
  // TOILETS_DB's folder checked) before the storage is opened, which makes the overlay's folder
  const first = config.sourceFetch.toiletsUrl === null ? firstImport(config.toiletsDb, config.toiletsExtract) : null;
  // before any import: a DATABASE_URL that cannot be used stops the start at once (no password in the message)
  const storage = await openStorage(config, log);
  const note = postgresNote(config);
  if (note !== null) log.info(note);
  if (first !== null) {
    log.info(first.demo ? `${first.reason}: importing the demo data (${DEMO_REGION}) before serving` : `${first.reason}: importing TOILETS_EXTRACT before serving`, { extract: first.demo ? basename(first.extract) : config.toiletsExtract, db: config.toiletsDb });
    const stopRemoving = removeTemporariesOnInterrupt();
    const summary = await importFromSource(first.extract, config.toiletsDb, { quiet: !process.stderr.isTTY, demo: first.demo }).finally(stopRemoving);
    log.info('import finished', { toilets: summary.toilets.total, places: Object.values(summary.places).reduce((a, b) => a + b, 0), elapsed_ms: summary.elapsedMs });
  }
  const app = createApp({ config, log, storage, accessLines: (lines) => log.lines(lines) });
  try {
    const started = performance.now();
    app.threads?.prepare(config.httpThreads - 1);
    const report = loadOrFetch(app, config, log);
    const info = app.catalog.snapshot.info;
    if (info.importedAt === null && config.sourceFetch.toiletsUrl !== null) {
      log.info(`no toilet data in ${config.toiletsDb} yet: waiting for the first fetch from TOILETS_DB_URL (/readyz answers 503 until it lands)`);
    } else if (info.importedAt === null) {
      log.info(`no toilet data in ${config.toiletsDb}: answers are empty until you run \`npm run import -- <extract.osm.pbf or URL>\` (or start with TOILETS_EXTRACT set)`);
    } else if (info.missing.length > 0) {
      log.warn(missingPartsNote(info.missing)!, { db: config.toiletsDb, missing: info.missing });
    }
    if (info.demo) {
      if (installDemoTiles(config.tilesDb)) log.info('the demo data comes with its basemap: copied to TILES_DB', { tiles: config.tilesDb });
      log.info(`serving the demo data (${info.coverage?.name ?? DEMO_REGION}, OpenStreetMap as of ${info.dataAsOf?.slice(0, 10) ?? 'an unknown date'}): import your region with \`npm run import -- <extract.osm.pbf or URL>\` (or start with TOILETS_EXTRACT set); it replaces the demo`);
    }
    app.catalog.watch();
    const listening = performance.now();
    const port = await app.listen();
    return { config: app.config, app, port, report, started, listening };
  } catch (error) {
    void app.close().catch(() => undefined); // the start's own error is the one to tell
    throw error;
  }
}

/**
 * Loads the source database. A replica's local copy that cannot be loaded (left by an older release, say) does
 * not stop the start: the fetch replaces it with the published one; anywhere else it does (firstImport() has
 * re-imported what it could).
 */
function loadOrFetch(app: App, config: Config, log: JsonLogger): LoadReport {
  try {
    return app.catalog.load();
  } catch (error) {
    if (config.sourceFetch.toiletsUrl === null) throw error;
    log.error(`the local copy of the source database cannot be loaded (${(error as Error).message}); serving no data until the fetch from TOILETS_DB_URL replaces it`);
    return { toilets: 0, loadMs: 0, dataAsOf: null };
  }
}

/** The start-failed line for an error of serve() other than a ConfigError (whose message says it all). */
export function startFailedMessage(error: unknown): string {
  const trouble = storageTrouble(error);
  return `start failed: ${(error as Error).message}${trouble === null ? '' : ` (${trouble})`}`;
}

/** Whether a listening address is reachable from this machine only. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^(::ffff:)?127\./.test(host);
}
