// Shared by the community tests: the operator's commands (moderate, dump) on the test's databases, in this
// process or as the compiled scripts; the service itself, its client and its clock are the shared harness's
// (test/support/server.ts), re-exported here for the community's tests.
import { keptStream } from '../support/streams.js';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { main as dumpCommand } from '../../src/dumps/dump-cli.js';
import { main as moderateCommand } from '../../src/moderation/moderate-cli.js';
import type { CommandIo } from '../../src/cli/command.js';
import { readSourceToilets } from '../api/support.js';
import { BUILD_DIR, TEST_ENV, type Data } from '../support/server.js';

export {
  assertValid, BASE_URL, BUILD_DIR, Clock, importedData, SITE_ORIGIN, serviceClient, startMain, startPortoService, startService, stopPortoService,
  TEST_ENV, TEST_START, type Answer, type Data, type MainProcess, type PortoService, type PostOptions, type Service, type ServiceClient,
} from '../support/server.js';
export { readSourceToilets };

/** A device id as the browser makes it: 32 lowercase hex digits. */
export function deviceId(n: number): string {
  return n.toString(16).padStart(32, '0');
}

export interface CommandRun {
  status: number;
  stdout: string;
  stderr: string;
  /** stdout as JSON, when it is. */
  json: any;
}

/** The environment an operator's command gets: the test service's, on the test's databases. */
function commandEnv(data: Data, env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...TEST_ENV, TOILETS_DB: data.toiletsDb, OVERLAY_DB: data.overlayDb, ...env };
}

function commandRun(status: number, stdout: string, stderr: string): CommandRun {
  let json: any;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { status, stdout, stderr, json };
}

/**
 * Runs one of the operator's commands (`npm run moderate`, `npm run dump`) as the compiled script, in its own
 * process, on the test's databases; as the arguments of `launcher` when given (e.g. nsenter). For what only
 * a real process shows (its exit code, its streams, other namespaces); `moderate` and `dump` run the same
 * code in this process.
 */
export function operatorCommand(script: 'moderate-cli' | 'dump-cli', data: Data, args: string[], env: Record<string, string> = {}, launcher: string[] = []): CommandRun {
  const [command, ...commandArgs] = [...launcher, process.execPath, join(BUILD_DIR, `src/community/${script}.js`), ...args];
  const result = spawnSync(command, commandArgs, { env: commandEnv(data, env), encoding: 'utf8' });
  return commandRun(result.status ?? -1, result.stdout, result.stderr);
}

/** Output streams that keep what the command writes (written synchronously: read once it returns). */
function capture(data: Data, env: Record<string, string>): { io: CommandIo; run(status: number): CommandRun } {
  const [stdout, stderr] = [keptStream(), keptStream()];
  return { io: { env: commandEnv(data, env), stdout, stderr }, run: (status) => commandRun(status, stdout.text, stderr.text) };
}

/** `npm run moderate -- ...args` on the test's databases, in this process (the script's main()). */
export async function moderate(data: Data, args: string[], env: Record<string, string> = {}): Promise<CommandRun> {
  const { io, run } = capture(data, env);
  return run(await moderateCommand(args, io));
}

/** `npm run dump` on the test's databases, in this process (the script's dump()). */
export async function dump(data: Data, env: Record<string, string> = {}, args: string[] = []): Promise<CommandRun> {
  const { io, run } = capture(data, env);
  return run(await dumpCommand(args, io));
}

