// npm run restore -- DIR: the command around restore.ts (see README, "Upgrades and backups"). main() takes
// the arguments, environment and output streams (src/cli/command.ts), so the tests run it in their own process.
import { loadConfig, ConfigError } from '../config.js';
import { storageTrouble } from '../storage/errors.js';
import { NewerDatabaseError } from '../storage/migrations.js';
import { commandConsole, parseCommand, processIo, runAsScript, type CommandIo } from '../cli/command.js';
import { NotABackupError } from './manifest.js';
import { SOURCE_LEFT_OUT } from './owned.js';
import { restore, RestoreError } from './restore.js';

const COMMAND = {
  name: 'restore',
  help: `usage: npm run restore -- DIR [--help]
Puts the backup in DIR (written by \`npm run backup\`) where OVERLAY_DB, $OVERLAY_DB.key and ACCOUNTS_DB say,
for a server that is stopped. It checks the whole backup first (manifest, SHA-256 of every file, that this
release can open each database, migrating an older one) and never writes over a file: move the old ones
aside first. The source database is not in a backup: import it again.
Exit codes: 0 restored, 1 not restored (the message says why; nothing was placed), 2 wrong arguments.`,
  options: {},
  positionals: { min: 1, max: 1, what: 'the backup folder' },
} as const;

export function main(argv: string[], io: CommandIo = processIo()): number {
  const console = commandConsole(io);
  const parsed = parseCommand(COMMAND, argv, console);
  if (typeof parsed === 'number') return parsed;
  try {
    const { manifest, restored } = restore(loadConfig(io.env), parsed.positionals[0]);
    console.log(`restored the backup of ${manifest.created_at}:`);
    for (const file of restored) console.log(`  ${file.what} → ${file.to}${file.layoutVersion === undefined ? '' : ` (layout version ${file.layoutVersion})`}`);
    console.log(`${SOURCE_LEFT_OUT}; then start the server`);
    return 0;
  } catch (error) {
    const said = error instanceof RestoreError || error instanceof NotABackupError || error instanceof NewerDatabaseError || error instanceof ConfigError;
    const trouble = storageTrouble(error);
    console.error(said ? error.message : trouble !== null ? `cannot restore: ${trouble} (${(error as Error).message}); nothing was placed` : ((error as Error).stack ?? String(error)));
    return 1;
  }
}

runAsScript(import.meta.url, main);
