// npm run dump: writes the open data dump (dump.ts) of the current data, community decisions applied, to
// DUMP_DIR, where the server serves it. The nightly refresh runs it after the import.
import { loadConfig, ConfigError } from '../config.js';
import { jsonLogger } from '../log.js';
import { ToiletCatalog } from '../toilets/catalog.js';
import { Community } from './community.js';
import { writeDump } from './dump.js';
import { storageTrouble } from '../storage/errors.js';
import { NewerDatabaseError } from '../storage/migrations.js';

async function main(): Promise<void> {
  const log = jsonLogger(process.stderr, process.stderr);
  const config = loadConfig();
  const community = new Community(config, log, Date.now);
  try {
    const catalog = new ToiletCatalog(config.toiletsDb, community.overlay, log, Date.now);
    catalog.load();
    const report = await writeDump(catalog.snapshot, config.baseUrl, config.dumpDir, Date.now()).catch((error: unknown) => {
      const trouble = storageTrouble(error);
      if (trouble === null) throw error;
      throw new DumpNotWritten(`cannot write the dump to ${config.dumpDir}: ${trouble} (${(error as Error).message}); the previous dump is unchanged`);
    });
    console.log(`wrote ${report.toilets} toilets to ${report.dir}`);
  } finally {
    community.close();
  }
}

/** A failure said in one line: nothing more to know. */
class DumpNotWritten extends Error {}

main().catch((error) => {
  const said = error instanceof ConfigError || error instanceof DumpNotWritten || error instanceof NewerDatabaseError;
  console.error(said ? error.message : ((error as Error).stack ?? String(error)));
  process.exitCode = 1;
});
