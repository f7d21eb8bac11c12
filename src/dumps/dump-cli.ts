// npm run dump: writes the open data dump (dump.ts) of the current data, community decisions applied, to
// DUMP_DIR, where the server serves it. The nightly refresh runs it after the import. main() takes the
// arguments, environment and output streams (src/cli/command.ts), so the tests run it in their own
// process; run as a script, it is given the process's own.
import { loadConfig, ConfigError } from '../config.js';
import { jsonLogger } from '../log.js';
import { ToiletCatalog } from '../toilets/catalog.js';
import { Community } from '../community/community.js';
import { openOverlayAlone } from '../community/postgres-store.js';
import { writeDump } from './dump.js';
import { storageTrouble } from '../storage/errors.js';
import { NewerDatabaseError } from '../storage/migrations.js';
import { commandConsole, parseCommand, processIo, runAsScript, type CommandIo } from '../cli/command.js';

const COMMAND = {
  name: 'dump',
  help: `usage: npm run dump [-- --help]
Writes toilets.geojson.gz, toilets.csv.gz and NOTICE.txt (ODbL) of the data as served, community decisions
applied and nothing about contributors, to DUMP_DIR (default: dumps beside TOILETS_DB), replacing the
previous three together once all are written. Settings: TOILETS_DB, OVERLAY_DB (or DATABASE_URL, read as DUMP_DATABASE_URL when set), DUMP_DIR, BASE_URL.
Exit codes: 0 written, 1 not written (the message says why; the previous dump is unchanged), 2 wrong arguments.`,
  options: {},
  positionals: { min: 0, max: 0, what: '' },
} as const;

/** Writes the dump with the settings of `io.env`; resolves with the exit code. */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const console = commandConsole(io);
  const parsed = parseCommand(COMMAND, argv, console);
  if (typeof parsed === 'number') return parsed;
  try {
    const log = jsonLogger(io.stderr, io.stderr);
    const config = loadConfig(io.env);
    const lost = (message: string) => log.error(`a PostgreSQL connection was lost between queries; the next query opens a new one: ${message}`);
    // with DATABASE_URL the overlay schema alone: the dump never reads the accounts side (DUMP_DATABASE_URL: as a role that cannot)
    const address = config.database === null ? null : (config.dumpDatabase ?? config.database);
    const overlay = address === null ? undefined : await openOverlayAlone(address, lost);
    const community = new Community(config, log, Date.now, overlay);
    try {
      const catalog = new ToiletCatalog(config.toiletsDb, community.overlay, log, Date.now);
      catalog.load();
      const report = await writeDump(catalog.snapshot, config.baseUrl, config.dumpDir, Date.now()).catch((error: unknown) => {
        const trouble = storageTrouble(error);
        if (trouble === null) throw error;
        throw new DumpNotWritten(`cannot write the dump to ${config.dumpDir}: ${trouble} (${(error as Error).message}); the previous dump is unchanged`);
      });
      console.log(`wrote ${report.toilets} toilets to ${report.dir}`);
      return 0;
    } finally {
      await community.close();
    }
  } catch (error) {
    const said = error instanceof ConfigError || error instanceof DumpNotWritten || error instanceof NewerDatabaseError;
    console.error(said ? error.message : ((error as Error).stack ?? String(error)));
    return 1;
  }
}

/** A failure said in one line: nothing more to know. */
class DumpNotWritten extends Error {}

runAsScript(import.meta.url, main);
