// npm run dump: writes the open data dump (dump.ts) of the current data, community decisions applied, to
// DUMP_DIR, where the server serves it. The nightly refresh runs it after the import. dump() takes the
// environment and output streams, so the tests run it in their own process; run as a script, it is given
// the process's own.
import { Console } from 'node:console';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig, ConfigError } from '../config.js';
import { jsonLogger } from '../log.js';
import { ToiletCatalog } from '../toilets/catalog.js';
import { Community } from './community.js';
import { writeDump } from './dump.js';
import { storageTrouble } from '../storage/errors.js';
import { NewerDatabaseError } from '../storage/migrations.js';
import type { CommandIo } from './moderate-cli.js';

async function main(io: CommandIo, console: Console): Promise<void> {
  const log = jsonLogger(io.stderr, io.stderr);
  const config = loadConfig(io.env);
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

/** Writes the dump with the settings of `io.env`; resolves with the exit code. */
export function dump(io: CommandIo = { env: process.env, stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const console = new Console({ stdout: io.stdout, stderr: io.stderr });
  return main(io, console).then(
    () => 0,
    (error) => {
      console.error(error instanceof ConfigError || error instanceof DumpNotWritten || error instanceof NewerDatabaseError ? error.message : ((error as Error).stack ?? String(error)));
      return 1;
    },
  );
}

// run as a script (`node dist/src/community/dump-cli.js`), not imported by a test
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) void dump().then((code) => (process.exitCode = code));
