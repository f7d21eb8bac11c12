// The server writes the open data dump itself when DUMP_DIR has none yet (a fresh install, a new DUMP_DIR),
// so the licence page never links a file that is not there; the nightly `npm run dump` replaces it. It runs
// in the background once the server serves (the dump is streamed through gzip in chunks, so requests are
// answered meanwhile), waits for data when there is none yet (the first import), and can never fail the
// start: a dump that cannot be written is logged with what to do.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { DUMP_FILES, writeDump } from './dump.js';

export function writeFirstDump(catalog: ToiletCatalog, config: Config, log: Logger, now: () => number): void {
  let writing = false;
  let done = false;
  const missing = () => Object.values(DUMP_FILES).some((name) => !existsSync(join(config.dumpDir, name)));
  const attempt = () => {
    if (writing || done) return;
    if (!missing()) {
      done = true;
      return;
    }
    const snapshot = catalog.snapshot;
    if (snapshot.table.count === 0) return; // nothing to dump yet: tried again when data is loaded
    writing = true;
    const started = now();
    writeDump(snapshot, config.baseUrl, config.dumpDir, started)
      .then(
        (report) => {
          done = true;
          log.info('wrote the first open data dump (none was there; `npm run dump` after each import replaces it)', { dir: report.dir, toilets: report.toilets, elapsed_ms: now() - started });
        },
        (error: unknown) => {
          done = true; // said once; the operator's `npm run dump` is the way on
          log.error(`the first open data dump could not be written to ${config.dumpDir}: ${(error as Error).message}; /dumps/ answers 404 until \`npm run dump\` succeeds`);
        },
      )
      .finally(() => (writing = false));
  };
  catalog.onChange(attempt);
  attempt();
}
