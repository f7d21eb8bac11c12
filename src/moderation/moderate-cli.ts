// npm run moderate -- <command>: the operator's command line (see README, "Contributions and moderation"),
// a frame (src/cli/subcommands.ts) that every feature on the list (src/features.ts) plugs its subcommands
// into from its own folder: its slice names its command module (`commands`), loaded here, and only here,
// before the command runs. The subcommands work on the same databases as the server, opened and migrated
// as the server does; a running server shows each action within about a second. main() takes the
// arguments, environment and output streams, so the tests run the command in their own process; run as a
// script, it is given the process's own.
import { ConfigError } from '../config.js';
import { storageTrouble } from '../storage/errors.js';
import { NewerDatabaseError } from '../storage/migrations.js';
import { processIo, runAsScript, type CommandIo } from '../cli/command.js';
import { runSubcommand, type CommandPart, type SubcommandFrame } from '../cli/subcommands.js';
import type { FeatureSlice } from '../feature.js';
import { FEATURES } from '../features.js';

const FRAME: SubcommandFrame = {
  name: 'moderate',
  usage: 'usage: npm run moderate -- <command> [--reason TEXT] [--limit N] [--json] [--help]',
  footer: '--json prints machine-readable output. Exit codes: 0 done, 1 refused (the message says why), 2 wrong arguments.',
  failure(error) {
    if (error instanceof ConfigError || error instanceof NewerDatabaseError) return error.message;
    const trouble = storageTrouble(error);
    // every action is one transaction: refused whole
    if (trouble !== null) return `the overlay database cannot be changed now: ${trouble} (${(error as Error).message}); nothing was changed, run the command again once that is mended`;
    return null;
  },
};

/** The subcommands of the features `slices` lists, in its order (a test adds an example feature's). */
export async function commandPartsOf(slices: readonly FeatureSlice[]): Promise<CommandPart[]> {
  const modules = await Promise.all(slices.flatMap((slice) => (slice.commands ? [slice.commands()] : [])));
  return modules.map((module) => module.COMMANDS);
}

const PARTS = await commandPartsOf(FEATURES);

/** Runs the command `argv` (the words after `npm run moderate --`) among `parts`; resolves to its exit code. */
export function moderate(parts: readonly CommandPart[], argv: string[], io: CommandIo = processIo()): Promise<number> {
  return runSubcommand(FRAME, parts, argv, io);
}

/** Runs the command `argv` with the subcommands of src/features.ts's features. */
export function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  return moderate(PARTS, argv, io);
}

runAsScript(import.meta.url, main);
