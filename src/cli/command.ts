// What every operator command (import, moderate, dump, backup, restore) shares, so they behave alike:
// arguments read by node:util's parseArgs in strict mode (an unknown option or a missing value is a usage
// error), `--help` that prints the help on stdout and does nothing else, usage errors that exit 2 with a
// line saying what to write and the usage, and the streams and environment a command runs with, so the
// tests call a command's main() in their own process while the script passes the process's own.
import { Console } from 'node:console';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The exit code of wrong arguments, in every command (README.md). */
export const EXIT_USAGE = 2;

/** Where a command reads its settings and writes its output: the process's own when run as a script. */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export function processIo(): CommandIo {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr };
}

/** A console writing to the command's own streams. */
export function commandConsole(io: CommandIo): Console {
  return new Console({ stdout: io.stdout, stderr: io.stderr });
}

/** Arguments the command cannot run with: said in one line, then the usage; exit 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandSpec<O extends Options> {
  /** As messages name it: "dump" (for `npm run dump`). */
  name: string;
  /** The help `--help` prints; its first line is the usage (`usage: npm run dump [--help]`). */
  help: string;
  /** The options besides --help (added to every command). */
  options: O;
  /** How many words besides the options the command takes, and what they are, for the message. */
  positionals: { min: number; max: number; what: string };
}

type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>>;

/**
 * The command's arguments, or the exit code to end with at once: 0 after printing the help for --help
 * (whatever else was given: it does nothing else), 2 after saying what is wrong for a usage error.
 */
export function parseCommand<const O extends Options>(spec: CommandSpec<O>, argv: string[], console: Console): Parsed<O> | number {
  if (argv.includes('--help') || argv.includes('-h')) {
    // before parsing: `--help` asks for the help even beside a mistyped option
    const end = argv.indexOf('--');
    const asked = argv.findIndex((word) => word === '--help' || word === '-h');
    if (end === -1 || asked < end) {
      console.log(spec.help);
      return 0;
    }
  }
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs({ args: argv, options: spec.options, allowPositionals: true, strict: true }) as Parsed<O>;
  } catch (error) {
    return usageFailure(spec, (error as Error).message, console);
  }
  const { min, max, what } = spec.positionals;
  const count = parsed.positionals.length;
  if (count < min || count > max) {
    const wanted = min === max ? `${min}` : `${min} to ${max}`;
    const takes = max === 0 ? 'no arguments besides its options' : `${wanted} argument${max === 1 ? '' : 's'} (${what})`;
    return usageFailure(spec, `${spec.name} takes ${takes}; got ${count === 0 ? 'none' : parsed.positionals.map((word) => JSON.stringify(word)).join(' ')}`, console);
  }
  return parsed;
}

/** Says a usage error (`<name>: <what is wrong>`, then the usage) on stderr; returns 2. */
export function usageFailure(spec: { name: string; help: string }, message: string, console: Console): number {
  console.error(`${spec.name}: ${message}\n${spec.help.split('\n')[0]}\n(npm run ${spec.name} -- --help for more)`);
  return EXIT_USAGE;
}

/**
 * Runs `main` with the process's arguments, streams and environment when `moduleUrl` is the script node
 * was started with (not when a test imports it), and ends with its exit code: once the output is written,
 * or at once with `exitAtOnce` (a command whose worker threads or handles must not keep it alive).
 */
export function runAsScript(moduleUrl: string, main: (argv: string[], io: CommandIo) => number | Promise<number>, options: { exitAtOnce?: boolean } = {}): void {
  const script = process.argv[1];
  if (script === undefined || realpathSync(script) !== fileURLToPath(moduleUrl)) return;
  void Promise.resolve(main(process.argv.slice(2), processIo())).then((code) => {
    if (options.exitAtOnce) process.exit(code);
    process.exitCode = code;
  });
}
