// The one server harness of the tests: the real app (createApp, the same wiring as npm start) over a real
// source database, with its own overlay database, an injected clock and quiet logs, reached in process
// (the server's inject(): no socket) unless the test's subject is the connection (`reach: 'socket'`, an
// ephemeral loopback port); a request helper that checks what every answer must satisfy; the community's
// service client (ALTCHA challenges solved, chosen client addresses) and the spawned `main.js`. Every
// suite starts its servers here; their support files add only what is theirs (the MCP endpoint's URL).
//
// In process, each server gets an origin of its own under .invalid, and fetch() to that origin (the
// tests' own calls, and the MCP SDK clients') is answered by that server's inject(); every other URL goes
// to the real fetch. A test that needs a socket and forgot to ask for one fails: nothing listens there.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { App, AppOptions } from '../../src/app.js';
import type { HttpServer } from '../../src/http/server.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import type { PlaceLookup } from '../../src/places/lookup.js';
import { findInvalid } from '../../src/schemas/validate.js';
import type { SchemaName } from '../../src/schemas/resources.js';
import { importedCopy, tempDir, type ExtractName } from './extracts.js';
import type { Timers } from '../../src/source-fetch/remote-file.js';

/** Every absolute URL the service emits about itself starts with this (proves BASE_URL is honoured). */
export const BASE_URL = 'https://toilets.example.test';

/** Wednesday 5 June 2024, 08:00 UTC: 09:00 in Porto, when some of its toilets with hours are closed. */
export const FIXED_NOW = Date.parse('2024-06-05T08:00:00Z');

export const SILENT: Logger = { info() {}, error() {} };

/**
 * Environment of every test server: loopback, an ephemeral port, BASE_URL, one thread, generous limits, and
 * the transport of the run's HTTP_TRANSPORT (`HTTP_TRANSPORT=node npm test` runs the suites on node:http;
 * default auto, as npm start).
 */
export const SERVER_ENV = {
  HTTP_TRANSPORT: process.env.HTTP_TRANSPORT ?? 'auto',
  PORT: '0',
  HOST: '127.0.0.1',
  BASE_URL,
  // one thread: these tests set the clock, which read threads cannot see (test/threads runs several)
  HTTP_THREADS: '1',
  RATE_LIMIT_PER_MINUTE: '1000000',
  AREA_RATE_LIMIT_PER_MINUTE: '1000000',
};

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body for JSON and problem+json answers, else undefined. */
  json: any;
}

/** How a test reaches its server: in process (inject) or over a loopback socket. */
export type Reach = 'inject' | 'socket';

export interface Served {
  app: App;
  /** e.g. http://127.0.0.1:41234, or http://inject-1.invalid in process */
  origin: string;
  /** The bound port; 0 in process. */
  port: number;
  /**
   * One request; checks what every answer must satisfy: no cookie, a valid Problem for problem+json,
   * and a 200 of a read valid against that read's schema.
   */
  call(path: string, init?: RequestInit): Promise<Answer>;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** The source database (TOILETS_DB): a file of the test's own. */
  db: string;
  /** OVERLAY_DB; default overlay.db beside `db`. */
  overlayDb?: string;
  /** Environment on top of SERVER_ENV. */
  env?: Record<string, string>;
  /** The injected clock (default FIXED_NOW); null: the real clock, which HTTP_THREADS above 1 needs. */
  now?: (() => number) | null;
  /** Replaces the place lookup; null: none (the default); 'embedded': the service's own, as npm start has. */
  places?: PlaceLookup | null | 'embedded';
  log?: Logger;
  /** Watch the database folder for replacements, as main.ts does. */
  watch?: boolean;
  /** Spawn the read threads before the load, as main.ts does. */
  prepareThreads?: boolean;
  /** Schedules the checks of TOILETS_DB_URL / TILES_DB_URL (default: real timers). */
  sourceFetchTimers?: Timers;
  /** OAuth client documents from a stand-in https host on loopback (test/oauth/document-host.ts). */
  clientDocumentFetchForTests?: AppOptions['clientDocumentFetchForTests'];
  /** Default 'inject'; 'socket' (a loopback port) when the connection is the subject, with several threads, and with PORT given. */
  reach?: Reach;
  /** Takes the access log's batches of lines (as main.ts's stdout does); default: dropped. */
  accessLines?: (lines: string) => void;
  /** Opens the write side's storage as npm start does (src/stores.ts: DATABASE_URL's PostgreSQL when set); default: the SQLite files. */
  openStorage?: boolean;
  /**
   * Opens the storage as openStorage does (DATABASE_URL in `env`) and keeps the accounts core in its
   * PostgreSQL, as the service will once the stores that reference the accounts move too (src/stores.ts).
   */
  accountsInPostgres?: boolean;
  /** The features' slices instead of src/features.ts (test/architecture/example-feature.test.ts). */
  slices?: AppOptions['slices'];
  /** Finds the native uWS module for HTTP_TRANSPORT (createApp's uwsProbe); default: the installed packages. */
  uwsProbe?: AppOptions['uwsProbe'];
}

const realFetch = globalThis.fetch;
/** The in-process servers by origin (see the header comment). */
const injected = new Map<string, HttpServer>();
let injectedCount = 0;

function routedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const origin = url.startsWith('http://inject-') ? new URL(url).origin : '';
  const server = injected.get(origin);
  return server === undefined ? realFetch(input, init) : server.inject(input, init);
}

/** Makes fetch() to `server`'s origin go in process; undone by the returned function. */
function injectAt(server: HttpServer): { origin: string; remove(): void } {
  const origin = `http://inject-${++injectedCount}.invalid`;
  injected.set(origin, server);
  globalThis.fetch = routedFetch as typeof fetch;
  return { origin, remove: () => void injected.delete(origin) };
}

export async function serve(options: ServeOptions): Promise<Served> {
  const config = loadConfig({
    ...SERVER_ENV,
    TOILETS_DB: options.db,
    ...(options.overlayDb === undefined ? {} : { OVERLAY_DB: options.overlayDb }),
    ...options.env,
  });
  const now = options.now === null ? undefined : (options.now ?? (() => FIXED_NOW));
  const places = options.places === 'embedded' ? undefined : (options.places ?? null);
  // loaded on the first serve: a test that takes only the constants or fresh() from here does not load the app
  const { createApp } = await import('../../src/app.js');
  const opened = options.openStorage || options.accountsInPostgres ? await (await import('../../src/stores.js')).openStorage(config, options.log ?? SILENT) : undefined;
  const storage = opened && options.accountsInPostgres ? { ...opened, accounts: opened.postgres ?? assert.fail('accountsInPostgres needs DATABASE_URL in env') } : opened;
  const app = createApp({ config, log: options.log ?? SILENT, now, places, storage, sourceFetchTimers: options.sourceFetchTimers, clientDocumentFetchForTests: options.clientDocumentFetchForTests, uwsProbe: options.uwsProbe, ...(options.accessLines ? { accessLines: options.accessLines } : {}), ...(options.slices ? { slices: options.slices } : {}) });
  try {
    if (options.prepareThreads) app.threads!.prepare(config.httpThreads - 1);
    app.catalog.load();
    if (options.watch) app.catalog.watch();
  } catch (error) {
    await app.close();
    throw error;
  }
  // a test that names a port (or several threads) means a socket
  const reach = options.reach ?? (config.httpThreads > 1 || options.env?.PORT !== undefined ? 'socket' : 'inject');
  let port = 0;
  let origin: string;
  let close = (): Promise<void> => app.close();
  if (reach === 'socket') {
    port = await app.listen();
    origin = `http://127.0.0.1:${port}`;
  } else {
    app.start();
    const at = injectAt(app.server);
    origin = at.origin;
    close = () => app.close().finally(at.remove);
  }
  const call = async (path: string, init?: RequestInit): Promise<Answer> => {
    const answer = await checkedAnswer(await fetch(origin + path, init));
    assert.equal(answer.headers.get('set-cookie'), null, `${path} set a cookie`);
    const read = readSchemaOf(path);
    if (read !== null && answer.status === 200 && answer.json !== undefined) assertValid(read, answer.json);
    return answer;
  };
  return { app, origin, port, call, close };
}

/** An answer read whole; a problem+json one checked against the Problem schema, its status and its type's home. */
async function checkedAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const json = /^application\/(problem\+)?json/.test(type) && text !== '' ? JSON.parse(text) : undefined;
  if (type.startsWith('application/problem+json')) {
    assertValid('Problem', json);
    assert.equal(json.status, response.status, 'problem status matches the HTTP status');
    assert.ok(json.type.startsWith(`${BASE_URL}/problems/`), `problem type ${json.type} lives under BASE_URL`);
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The success schema of the read a path addresses, or null for other paths. */
function readSchemaOf(path: string): SchemaName | null {
  const pathname = path.split('?')[0];
  if (pathname === '/api/v1/toilets/nearest') return 'FindResult';
  if (pathname === '/api/v1/toilets') return 'AreaResult';
  return /^\/api\/v1\/toilets\/[^/]+$/.test(pathname) ? 'ToiletAnswer' : null;
}

export function assertValid(schema: SchemaName, body: unknown): void {
  assert.deepEqual(findInvalid(schema, body), [], `answer is not a valid ${schema}: ${JSON.stringify(body).slice(0, 300)}`);
}

/** An answer as it came, for checks of status and headers across threads. */
export interface Plain {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One request over a connection of its own (no keep-alive: the kernel may give it to any thread). */
export function fresh(port: number, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Plain> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

// ---- The community's service: its environment, a clock moved by hand, a client, and main.js spawned ----

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
  /** The service's origin (an in-process one unless started with reach 'socket'). */
  url: string;
  clock: Clock;
  close(): Promise<void>;
}

/** The app over `data` with the community's environment, at `clock`; in process unless `reach` says socket. */
export async function startService(data: Data, clock: Clock, env: Record<string, string> = {}, reach?: Reach): Promise<Service> {
  const { app, origin, close } = await serve({ db: data.toiletsDb, overlayDb: data.overlayDb, env: { ...TEST_ENV, ...env }, now: clock.now, reach });
  return { app, url: origin, clock, ...serviceClient(origin), close };
}

export function serviceClient(url: string): ServiceClient {
  const request = async (path: string, init: RequestInit): Promise<Answer> => checkedAnswer(await fetch(url + path, init));
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


/** The moment the community tests start at (a Monday, well inside every counting window). */
export const TEST_START = '2026-06-15T10:00:00Z';

export interface PortoService {
  data: Data;
  clock: Clock;
  s: Service;
}

/** The real service over a fresh Porto import, with its own clock at TEST_START. */
export async function startPortoService(env: Record<string, string> = {}, reach?: Reach): Promise<PortoService> {
  const data = await importedData('porto');
  const clock = new Clock(Date.parse(TEST_START));
  return { data, clock, s: await startService(data, clock, env, reach) };
}

export async function stopPortoService({ data, s }: PortoService): Promise<void> {
  await s.close();
  data.remove();
}
