// Shared by the community tests: the real app on a loopback port (test/support/server.ts) over a copy of
// the cached import of a real extract (test/support/extracts.ts), with its own overlay database, an
// injectable clock, real ALTCHA challenges solved with a cheap configuration, and requests from chosen
// client addresses (TRUST_PROXY=1 and X-Forwarded-For).
import { keptStream } from '../support/streams.js';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { App } from '../../src/app.js';
import { main as dumpCommand } from '../../src/dumps/dump-cli.js';
import { main as moderateCommand } from '../../src/moderation/moderate-cli.js';
import type { CommandIo } from '../../src/cli/command.js';
import { readSourceToilets } from '../api/support.js';
import { importedCopy, tempDir, type ExtractName } from '../support/extracts.js';
import { assertValid, BASE_URL, SERVER_ENV, serve } from '../support/server.js';

export { BASE_URL, assertValid, readSourceToilets };

/** The site's origin: what the site's own pages send as Origin. */
export const SITE_ORIGIN = new URL(BASE_URL).origin;

/** Environment of every test service: the test server's (loopback, generous request limits), a cheap proof of work. */
export const TEST_ENV = {
  ...SERVER_ENV,
  TRUST_PROXY: '1',
  AREA_CACHE_SECONDS: '300',
  ALTCHA_ALGORITHM: 'SHA-256',
  ALTCHA_COST: '1',
  ALTCHA_MAX_COUNTER: '20',
};

/** A clock the tests move by hand. */
export class Clock {
  constructor(public ms: number) {}
  readonly now = (): number => this.ms;
  set(iso: string): void {
    this.ms = Date.parse(iso);
  }
}

export interface Data {
  dir: string;
  toiletsDb: string;
  overlayDb: string;
  remove(): void;
}

/** A temp folder with a copy of the real import of an extract; the overlay database will sit beside it. */
export async function importedData(extract: ExtractName = 'monaco'): Promise<Data> {
  const dir = tempDir('toilet-community-test');
  const toiletsDb = join(dir.path, 'toilets.db');
  await importedCopy(extract, toiletsDb);
  return { dir: dir.path, toiletsDb, overlayDb: join(dir.path, 'overlay.db'), remove: dir.remove };
}

export interface Answer {
  status: number;
  headers: Headers;
  json: any;
}

export interface PostOptions {
  /** Client address (X-Forwarded-For); default 198.51.100.1. */
  ip?: string;
  /** Origin header; null sends none. Default: the site's origin. */
  origin?: string | null;
  headers?: Record<string, string>;
  /** challenge_token: true solves a fresh challenge (default); false sends none; a string is sent as is. */
  token?: boolean | string;
}

/** Requests to a running service at `url`, as its tests send them. */
export interface ServiceClient {
  /** A GET; problem answers are checked against the Problem schema. */
  get(path: string, ip?: string): Promise<Answer>;
  /** A POST of a JSON body (a string is sent as is) from the site's page. */
  post(path: string, body: unknown, options?: PostOptions): Promise<Answer>;
  /** A solved challenge_token from the service's own challenge endpoint. */
  token(ip?: string): Promise<string>;
  /** The toilet as getToilet shows it (asserts 200). */
  toilet(id: string): Promise<any>;
}

export interface Service extends ServiceClient {
  app: App;
  /** http://127.0.0.1:<port> */
  url: string;
  clock: Clock;
  close(): Promise<void>;
}

export async function startService(data: Data, clock: Clock, env: Record<string, string> = {}): Promise<Service> {
  const { app, origin, close } = await serve({ db: data.toiletsDb, overlayDb: data.overlayDb, env: { ...TEST_ENV, ...env }, now: clock.now });
  return { app, url: origin, clock, ...serviceClient(origin), close };
}

export function serviceClient(url: string): ServiceClient {
  const request = async (path: string, init: RequestInit): Promise<Answer> => {
    const response = await fetch(url + path, init);
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const json = /^application\/(problem\+)?json/.test(type) && text !== '' ? JSON.parse(text) : undefined;
    if (type.startsWith('application/problem+json')) {
      assertValid('Problem', json);
      assert.equal(json.status, response.status);
    }
    return { status: response.status, headers: response.headers, json };
  };
  const token = async (ip = '198.51.100.1'): Promise<string> => {
    const answer = await request('/api/v1/challenge', { headers: { 'X-Forwarded-For': ip } });
    assert.equal(answer.status, 200);
    const solution = await solveChallenge({ challenge: answer.json, deriveKey });
    assert.ok(solution, 'the cheap test challenge is solvable');
    return Buffer.from(JSON.stringify({ challenge: answer.json, solution })).toString('base64');
  };
  return {
    get: (path, ip = '198.51.100.1') => request(path, { headers: { 'X-Forwarded-For': ip } }),
    post: async (path, body, options = {}) => {
      const ip = options.ip ?? '198.51.100.1';
      const tokenOption = options.token ?? true;
      let payload: string;
      if (typeof body === 'string') payload = body;
      else {
        const challenge = tokenOption === true ? await token(ip) : tokenOption === false ? undefined : tokenOption;
        payload = JSON.stringify(challenge === undefined ? body : { ...(body as object), challenge_token: challenge });
      }
      const origin = options.origin === undefined ? SITE_ORIGIN : options.origin;
      return request(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip, ...(origin === null ? {} : { Origin: origin }), ...options.headers },
        body: payload,
      });
    },
    token,
    toilet: async (id) => {
      const answer = await request(`/api/v1/toilets/${id}`, {});
      assert.equal(answer.status, 200, `getToilet ${id}: ${JSON.stringify(answer.json)}`);
      assertValid('ToiletAnswer', answer.json);
      return answer.json.toilet;
    },
  };
}

/** A device id as the browser makes it: 32 lowercase hex digits. */
export function deviceId(n: number): string {
  return n.toString(16).padStart(32, '0');
}

/** The compiled scripts beside this test (the same build the test runs from). */
export const BUILD_DIR = fileURLToPath(new URL('../../', import.meta.url));

export interface MainProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  /** What it wrote to stderr (the error log) so far. */
  stderr(): string;
  /** What it wrote to stdout (the information log) after `serving`, so far. */
  stdout(): string;
  /** The information log up to `serving`, that line included. */
  startLog(): string;
  /** Resolves with the first line of the information log after `serving` that `pattern` matches. */
  logged(pattern: RegExp): Promise<string>;
}

/**
 * Starts `node dist/src/main.js` (this build's, unless `main` names another command: another release's, as
 * its systemd unit starts it) on the test's databases, as the arguments of `launcher` when given (a command
 * that runs its arguments, e.g. unshare); resolves once it serves.
 */
export async function startMain(data: Data, options: { env?: Record<string, string>; launcher?: string[]; main?: string[] } = {}): Promise<MainProcess> {
  const [command, ...args] = [...(options.launcher ?? []), ...(options.main ?? [process.execPath, join(BUILD_DIR, 'src/main.js')])];
  const child = spawn(command, args, {
    env: { ...process.env, ...TEST_ENV, RATE_LIMIT_PER_MINUTE: '0', TOILETS_DB: data.toiletsDb, OVERLAY_DB: data.overlayDb, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  // every line of the information log is read (so the server never waits on a full pipe) and kept
  const lines: string[] = [];
  const watchers: { pattern: RegExp; found(line: string): void }[] = [];
  const logged = (pattern: RegExp, from = 0) =>
    new Promise<string>((found) => {
      const line = lines.slice(from).find((l) => pattern.test(l));
      if (line !== undefined) found(line);
      else watchers.push({ pattern, found });
    });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const watcher of [...watchers]) {
      if (!watcher.pattern.test(line)) continue;
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.found(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const serving = await Promise.race([logged(/"message":"serving"/), exited.then(() => null)]);
  if (serving === null) throw new Error(`the server exited with code ${child.exitCode} before serving: ${stderr}`);
  const after = lines.indexOf(serving) + 1;
  return {
    child,
    url: `http://127.0.0.1:${JSON.parse(serving).port}`,
    stderr: () => stderr,
    stdout: () => lines.slice(after).join('\n'),
    startLog: () => lines.slice(0, after).join('\n'),
    logged: (pattern) => logged(pattern, after),
  };
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
export function moderate(data: Data, args: string[], env: Record<string, string> = {}): CommandRun {
  const { io, run } = capture(data, env);
  return run(moderateCommand(args, io));
}

/** `npm run dump` on the test's databases, in this process (the script's dump()). */
export async function dump(data: Data, env: Record<string, string> = {}, args: string[] = []): Promise<CommandRun> {
  const { io, run } = capture(data, env);
  return run(await dumpCommand(args, io));
}

/** The moment the community tests start at (a Monday, well inside every counting window). */
export const TEST_START = '2026-06-15T10:00:00Z';

export interface PortoService {
  data: Data;
  clock: Clock;
  s: Service;
}

/** The real service over a fresh Porto import, with its own clock at TEST_START. */
export async function startPortoService(env: Record<string, string> = {}): Promise<PortoService> {
  const data = await importedData('porto');
  const clock = new Clock(Date.parse(TEST_START));
  return { data, clock, s: await startService(data, clock, env) };
}

export async function stopPortoService({ data, s }: PortoService): Promise<void> {
  await s.close();
  data.remove();
}
