// `npm run import` in the test's own process: cli.ts's main(), the function the script runs, given streams
// that keep what it prints (a terminal stand-in when the test says how wide) and the progress's clock.
import { main as importCommand } from '../../importer/cli.js';
import { keptStream } from '../support/streams.js';
export { keptStream };

export interface CommandRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run import -- ...args` in this process (cli.ts's main(), as the script runs it), with what it
 * prints kept; `now` is the progress's clock.
 */
export async function runImportCommand(args: string[], options: { env?: NodeJS.ProcessEnv; now?: () => number } = {}): Promise<CommandRun> {
  const [stdout, stderr] = [keptStream(), keptStream()];
  const status = await importCommand(args, { env: options.env ?? process.env, stdout, stderr, now: options.now });
  return { status, stdout: stdout.text, stderr: stderr.text };
}
