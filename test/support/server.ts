// The one server harness of the tests: the real app (createApp, the same wiring as npm start) on an
// ephemeral loopback port over a real source database, with its own overlay database, an injected clock
// and quiet logs, and a request helper that checks what every answer must satisfy. The API, MCP, community
// and thread suites all start their servers here; their support files add only what is theirs (a client
// that solves challenges, the MCP endpoint's URL).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { App, AppOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/log.js';
import type { PlaceLookup } from '../../src/places/lookup.js';
import { findInvalid } from '../../src/schemas/validate.js';
import type { SchemaName } from '../../src/schemas/resources.js';
import type { Timers } from '../../src/source-fetch/remote-file.js';

/** Every absolute URL the service emits about itself starts with this (proves BASE_URL is honoured). */
export const BASE_URL = 'https://toilets.example.test';

/** Wednesday 5 June 2024, 08:00 UTC: 09:00 in Porto, when some of its toilets with hours are closed. */
export const FIXED_NOW = Date.parse('2024-06-05T08:00:00Z');

export const SILENT: Logger = { info() {}, error() {} };

/** Environment of every test server: loopback, an ephemeral port, BASE_URL, one thread, generous limits. */
export const SERVER_ENV = {
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

export interface Served {
  app: App;
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
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
  const app = createApp({ config, log: options.log ?? SILENT, now, places, sourceFetchTimers: options.sourceFetchTimers, clientDocumentFetchForTests: options.clientDocumentFetchForTests });
  try {
    if (options.prepareThreads) app.threads!.prepare(config.httpThreads - 1);
    app.catalog.load();
    if (options.watch) app.catalog.watch();
  } catch (error) {
    await app.close();
    throw error;
  }
  const port = await app.listen();
  const origin = `http://127.0.0.1:${port}`;
  const call = async (path: string, init?: RequestInit): Promise<Answer> => {
    const response = await fetch(origin + path, init);
    const text = await response.text();
    assert.equal(response.headers.get('set-cookie'), null, `${path} set a cookie`);
    const type = response.headers.get('content-type') ?? '';
    const json = /^application\/(problem\+)?json/.test(type) && text !== '' ? JSON.parse(text) : undefined;
    if (type.startsWith('application/problem+json')) {
      assertValid('Problem', json);
      assert.equal(json.status, response.status, 'problem status matches the HTTP status');
      assert.ok(json.type.startsWith(`${BASE_URL}/problems/`), `problem type ${json.type} lives under BASE_URL`);
    }
    const read = readSchemaOf(path);
    if (read !== null && response.status === 200 && json !== undefined) assertValid(read, json);
    return { status: response.status, headers: response.headers, text, json };
  };
  return { app, origin, port, call, close: () => app.close() };
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
