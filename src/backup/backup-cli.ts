// npm run backup -- DIR: the command around backup.ts (see README, "Upgrades and backups"). main() takes the
// arguments, environment and output streams (src/cli/command.ts), so the tests run it in their own process.
import { loadConfig, ConfigError } from '../config.js';
import { storageTrouble } from '../storage/errors.js';
import { commandConsole, parseCommand, processIo, runAsScript, type CommandIo } from '../cli/command.js';
import { backUp, BackupError } from './backup.js';

const COMMAND = {
  name: 'backup',
  help: `usage: npm run backup -- DIR [--help]
Copies the overlay database (OVERLAY_DB) with its key file ($OVERLAY_DB.key) and the accounts database
(ACCOUNTS_DB) into the new folder DIR, with a manifest.json (when, each file's layout version and SHA-256),
consistent while the server runs and writes. DIR and its files are readable by the owner only: they hold
personal data and secrets. The source database is left out: \`npm run import\` writes it again.
Restore with \`npm run restore -- DIR\`.
Exit codes: 0 written, 1 not written (the message says why; nothing is left behind), 2 wrong arguments.`,
  options: {},
  positionals: { min: 1, max: 1, what: 'the new folder to write the backup to' },
} as const;

export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const console = commandConsole(io);
  const parsed = parseCommand(COMMAND, argv, console);
  if (typeof parsed === 'number') return parsed;
  try {
    const { dir, manifest } = await backUp(loadConfig(io.env), parsed.positionals[0], Date.now);
    for (const db of manifest.databases) console.log(`${db.name}: ${db.from} (layout version ${db.layout_version}, ${db.bytes} bytes)`);
    for (const key of manifest.key_files) console.log(`${key.of} key: ${key.file}`);
    console.log(`backed up to ${dir}`);
    return 0;
  } catch (error) {
    const trouble = storageTrouble(error);
    const said = error instanceof BackupError || error instanceof ConfigError;
    console.error(said ? error.message : trouble !== null ? `cannot back up: ${trouble} (${(error as Error).message}); nothing was written` : ((error as Error).stack ?? String(error)));
    return 1;
  }
}

runAsScript(import.meta.url, main);
