// The frame of an operator command made of subcommands that features plug in (`npm run moderate -- <command>`):
// each feature's folder declares its subcommands (its words, whether it changes something, its lines of the
// help, what it runs), and the frame reads the arguments, picks the subcommand, checks its words and the
// reason every change is recorded with, runs it and maps its failure to the exit code. The help is the
// frame's usage line, then every subcommand's lines in the order of the features, then their notes. Node
// modules only: what a subcommand opens and how it refuses is the feature's.
import type { Console } from 'node:console';
import type { ParseArgsConfig } from 'node:util';
import { commandConsole, parseCommand, usageFailure, UsageError, type CommandIo } from './command.js';

/** A refusal a subcommand says as it is (exit 1): the thing asked cannot be done, the message says why. */
export class CommandRefusal extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** What a subcommand runs with: its words, the options given, the streams, and where it leaves what to close. */
export interface SubcommandRun {
  /** The subcommand's name as typed ('approve'). */
  command: string;
  /** Its words after the name. */
  args: string[];
  /** The options given (every subcommand's options are known to the frame: a word it does not take is refused by its run). */
  values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  /** The settings' environment. */
  env: NodeJS.ProcessEnv;
  console: Console;
  /** The stream of the command's log lines (JSON). */
  stderr: NodeJS.WritableStream;
  /** Prints `result` as JSON with --json, else as `text()`. */
  show(result: unknown, text: () => string): void;
  /** The usage failure of this command (exit 2): the line, then the usage. */
  usage(message: string): number;
  /** Closes `close` once the subcommand ended, whatever happened (last deferred, first closed, each awaited). */
  defer(close: () => void | Promise<void>): void;
}

export interface Subcommand {
  readonly name: string;
  /** Its words after the name, as the help writes them. */
  readonly words: readonly string[];
  /** How many of the last words may be left out. */
  readonly optional?: number;
  /** Whether it changes something: then it takes --reason, which the frame requires. */
  readonly changes: boolean;
  /** Its lines of the help. */
  readonly help: readonly string[];
  /** Its options besides the frame's (--reason, --json, --help). */
  readonly options?: Options;
  /**
   * Done (0), or the exit code of a usage failure (run.usage); a refusal throws (or rejects). A promise when
   * it waits for a store that answers asynchronously: the frame closes what it deferred once that is settled.
   */
  run(run: SubcommandRun): number | Promise<number>;
}

/** A feature's part of the command: its subcommands and the notes the help ends with (what their words mean). */
export interface CommandPart {
  readonly subcommands: readonly Subcommand[];
  readonly notes?: readonly string[];
}

export interface SubcommandFrame {
  /** As messages name it: "moderate". */
  readonly name: string;
  /** The first line of the help. */
  readonly usage: string;
  /** The last line of the help (the output and the exit codes). */
  readonly footer: string;
  /** Failures the frame says itself (settings, storage) in one line and exit 1; null: not one of them. */
  failure(error: unknown): string | null;
}

/** Runs the subcommand `argv` names among `parts`' (the features' in order); resolves to the exit code. */
export async function runSubcommand(frame: SubcommandFrame, parts: readonly CommandPart[], argv: string[], io: CommandIo): Promise<number> {
  const console = commandConsole(io);
  const subcommands = new Map(parts.flatMap((part) => part.subcommands).map((subcommand) => [subcommand.name, subcommand]));
  const spec = commandSpec(frame, parts, [...subcommands.values()]);
  const parsed = parseCommand(spec, argv, console);
  if (typeof parsed === 'number') return parsed;
  const { positionals: [name, ...args], values } = parsed;
  const subcommand = subcommands.get(name);
  const usage = (message: string) => usageFailure(spec, message, console);
  if (subcommand === undefined) return usage(`unknown command ${JSON.stringify(name)}: write one of ${[...subcommands.keys()].join(', ')}`);
  const { words, optional = 0, changes } = subcommand;
  if (args.length > words.length || args.length < words.length - optional) {
    return usage(`write ${[`${frame.name} --`, name, ...words].join(' ')}${changes ? ' --reason "TEXT"' : ''}`);
  }
  if (changes && String(values.reason ?? '').trim() === '') {
    return usage(`${name} needs --reason "TEXT" (why, in a few words): every action is recorded with one`);
  }
  const closes: (() => void | Promise<void>)[] = [];
  try {
    const show = (result: unknown, text: () => string) => console.log(values.json ? JSON.stringify(result, null, 2) : text());
    return await subcommand.run({ command: name, args, values, env: io.env, console, stderr: io.stderr, show, usage, defer: (close) => closes.push(close) });
  } catch (error) {
    return failed(frame, error, usage, console);
  } finally {
    for (const close of closes.reverse()) await close();
  }
}

/** The command's arguments as parseCommand reads them: every subcommand's options, its help, how many words. */
function commandSpec(frame: SubcommandFrame, parts: readonly CommandPart[], subcommands: readonly Subcommand[]) {
  const help = [frame.usage, ...subcommands.flatMap((subcommand) => subcommand.help), ...parts.flatMap((part) => part.notes ?? []), frame.footer].join('\n');
  const options: Options = Object.assign({ reason: { type: 'string' }, json: { type: 'boolean' } }, ...subcommands.map((subcommand) => subcommand.options ?? {}));
  const max = 1 + Math.max(0, ...subcommands.map((subcommand) => subcommand.words.length));
  return { name: frame.name, help, options, positionals: { min: 1, max, what: 'a command and its arguments' } };
}

function failed(frame: SubcommandFrame, error: unknown, usage: (message: string) => number, console: Console): number {
  if (error instanceof UsageError) return usage(error.message);
  const said = error instanceof CommandRefusal ? error.message : frame.failure(error);
  console.error(said ?? (error as Error).stack ?? String(error));
  return 1;
}
