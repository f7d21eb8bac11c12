// npm run publish-source -- DIR: the import job's last step in a cluster (docs/SCALING.md), after
// `npm run import` and `npm run dump`: publishes the source database, the tiles and the dump into DIR for a
// web server to serve to the replicas (publish.ts). main() takes the arguments, environment and output
// streams (src/cli/command.ts), so the tests run it in their own process.
import { resolve } from 'node:path';
import { loadConfig, ConfigError } from '../config.js';
import { commandConsole, parseCommand, processIo, runAsScript, type CommandIo } from '../cli/command.js';
import { publish, PublishError } from './publish.js';

const COMMAND = {
  name: 'publish-source',
  help: `usage: npm run publish-source -- DIR [--help]
Publishes what this machine's import and dump wrote, for replicas (TOILETS_DB_URL, TILES_DB_URL) to fetch:
TOILETS_DB as DIR/toilets.db, TILES_DB (when there is one) as DIR/tiles.mbtiles and the files of DUMP_DIR
(when there are any) under DIR/dumps/, each beside its checksum file <name>.sha256 (sha256sum's format).
Each file is placed under a temporary name and renamed into place before its checksum is, so a web server
serving DIR never serves half a file; a file already published unchanged is left alone. The source database
and the tiles must pass the checks a replica makes. Settings: TOILETS_DB, TILES_DB, DUMP_DIR.
Exit codes: 0 published, 1 not published (the message says why; what DIR held stays), 2 wrong arguments.`,
  options: {},
  positionals: { min: 1, max: 1, what: 'the folder to publish into' },
} as const;

export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const console = commandConsole(io);
  const parsed = parseCommand(COMMAND, argv, console);
  if (typeof parsed === 'number') return parsed;
  const dir = resolve(parsed.positionals[0]);
  try {
    const config = loadConfig(io.env);
    const published = await publish({ toiletsDb: config.toiletsDb, tilesDb: config.tilesDb, dumpDir: config.dumpDir }, dir);
    for (const file of published) console.log(`${file.changed ? 'published' : 'unchanged'} ${file.name} ${file.sha256}`);
    return 0;
  } catch (error) {
    const said = error instanceof ConfigError || error instanceof PublishError;
    console.error(said ? error.message : `publish-source: cannot publish into ${dir}: ${(error as Error).message}`);
    return 1;
  }
}

runAsScript(import.meta.url, main);
