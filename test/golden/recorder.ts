// Records what clients see, for the golden test (golden.test.ts): the route table, the documents (OpenAPI,
// MCP server cards and answers, OAuth discovery, every /problems page) and status, headers and body of a
// fixed set of requests to every route, refusals included. Deterministic: the real app over the Monaco
// extract with the fixed test clock, fresh overlay and accounts databases, and the values that differ per
// request or per run (Date, nonces, random challenges, the temp folder) replaced by placeholders.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PROBLEM_TYPES } from '../../src/problems.js';
import { importedCopy, tempDir } from '../support/extracts.js';
import { serve, type Served } from '../support/server.js';

/** One request of the fixed set. */
export interface GoldenRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One answer as the golden file keeps it. */
export interface GoldenAnswer {
  request: GoldenRequest;
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, text, or `sha256:<hex> (<bytes> bytes)` for binary and long non-JSON bodies. */
  body: unknown;
}

export interface GoldenRecord {
  /** Every registered route (sorted: the order of registration is not visible to clients). */
  routes: unknown[];
  answers: GoldenAnswer[];
}

/**
 * Per-request or per-run headers, and the one the transport adds of itself (uWS's `uWebSockets: 20`; the
 * node transport sends none, and CI's Node 24 run has only that one): dropped.
 */
const DROPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'uwebsockets']);

/** Monaco: the harbour, a point with toilets around it. */
const MONACO = { lat: 43.7347, lon: 7.4206 };

/** A stand-in for every `:name` segment of a route pattern with no value of its own below. */
const SAMPLE_PARAMS: Record<string, string> = {
  id: 'n1', passkey: 'unknown-passkey', session: 'unknown-session', slug: 'not-found', file: 'missing.js',
  z: '0', x: '0', y: '0', client: 'unknown-client', grant: 'unknown-grant', subscription: 'unknown-subscription',
};

const SITE = 'https://toilets.example.test';

export async function recordGolden(): Promise<{ plain: GoldenRecord; billing: GoldenRecord }> {
  const dir = tempDir('golden');
  try {
    const db = join(dir.path, 'toilets.db');
    await importedCopy('monaco', db);
    const plain = await withServer(db, join(dir.path, 'plain'), {}, (served) => recordAll(served, true));
    const billing = await withServer(db, join(dir.path, 'billing'), BILLING_ENV, (served) => recordAll(served, false));
    return { plain, billing };
  } finally {
    dir.remove();
  }
}

/** Partner payments on, with a Stripe API base nobody listens on (no request here reaches Stripe). */
const BILLING_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_golden',
  STRIPE_WEBHOOK_SECRET: 'whsec_golden',
  STRIPE_PRICE_BASIC: 'price_basic',
  STRIPE_PRICE_PLUS: 'price_plus',
  STRIPE_API_BASE: 'http://127.0.0.1:9',
};

async function withServer<T>(db: string, folder: string, env: Record<string, string>, run: (served: Served) => Promise<T>): Promise<T> {
  const { mkdirSync, copyFileSync } = await import('node:fs');
  mkdirSync(folder, { recursive: true });
  copyFileSync(db, join(folder, 'toilets.db'));
  // over a loopback socket, as clients reach it (in process, the transport's own headers would be missing)
  const served = await serve({
    reach: 'socket',
    db: join(folder, 'toilets.db'),
    env: { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', ACCOUNTS_DB: join(folder, 'accounts.db'), TILES_DB: join(folder, 'tiles.mbtiles'), DUMP_DIR: join(folder, 'dumps'), ...env },
  });
  try {
    return await run(served);
  } finally {
    await served.close();
  }
}

async function recordAll(served: Served, documents: boolean): Promise<GoldenRecord> {
  const specs = served.app.server.routeSpecs();
  const routes = specs
    .map((spec) => ({ ...spec }))
    .sort((a, b) => (a.pattern + ' ' + a.method).localeCompare(b.pattern + ' ' + b.method));
  const requests: GoldenRequest[] = [];
  if (documents) requests.push(...documentRequests(), ...readRequests(await firstToiletId(served)));
  for (const spec of routes) requests.push(...routeRequests(spec.method, spec.pattern));
  const answers: GoldenAnswer[] = [];
  for (const request of requests) answers.push(await answer(served, request));
  return { routes, answers };
}

async function firstToiletId(served: Served): Promise<string> {
  const found = await served.call(`/api/v1/toilets/nearest?lat=${MONACO.lat}&lon=${MONACO.lon}&limit=1`);
  const id = found.json?.results?.[0]?.id;
  if (typeof id !== 'string') throw new Error(`no toilet near Monaco's harbour: ${found.text.slice(0, 200)}`);
  return id;
}

function documentRequests(): GoldenRequest[] {
  const mcp = (body: unknown, path = '/mcp'): GoldenRequest => ({
    method: 'POST', path,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify(body),
  });
  return [
    { method: 'GET', path: '/api/v1/openapi.json' },
    { method: 'GET', path: '/.well-known/mcp/server-card.json' },
    { method: 'GET', path: '/.well-known/mcp' },
    { method: 'GET', path: '/.well-known/oauth-authorization-server' },
    { method: 'GET', path: '/.well-known/oauth-protected-resource' },
    { method: 'GET', path: '/.well-known/oauth-protected-resource/mcp/account' },
    { method: 'GET', path: '/.well-known/oauth-authorization-server/mcp/account' },
    { method: 'GET', path: '/status' },
    { method: 'GET', path: '/healthz' },
    { method: 'GET', path: '/readyz' },
    ...Object.keys(PROBLEM_TYPES).sort().map((slug): GoldenRequest => ({ method: 'GET', path: `/problems/${slug}` })),
    { method: 'GET', path: '/problems/no-such-type' },
    mcp({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'golden', version: '1' } } }),
    mcp({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    mcp({ jsonrpc: '2.0', id: 3, method: 'server/discover' }),
    mcp({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'find_toilets_near', arguments: { lat: MONACO.lat, lon: MONACO.lon, limit: 3 } } }),
    mcp({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'find_toilets_near', arguments: { lat: 'north' } } }),
    mcp({ jsonrpc: '2.0', id: 6, method: 'no/such/method' }),
    mcp({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, '/mcp/account'),
    { method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json' }, body: '{not json' },
    { method: 'GET', path: '/no/such/path' },
  ];
}

function readRequests(id: string): GoldenRequest[] {
  const near = `/api/v1/toilets/nearest?lat=${MONACO.lat}&lon=${MONACO.lon}`;
  const box = 'bbox=7.40,43.72,7.44,43.75';
  return [
    { method: 'GET', path: near },
    { method: 'GET', path: `${near}&limit=5&wheelchair=true` },
    { method: 'GET', path: `${near}&open_now=true&limit=3` },
    { method: 'GET', path: `${near}&free=true&no_purchase_needed=true&limit=3` },
    { method: 'GET', path: `/api/v1/toilets/nearest?lat=91&lon=7.4` },
    { method: 'GET', path: `/api/v1/toilets/nearest?lat=43.7&lon=7.4&limit=0&unknown=1` },
    { method: 'GET', path: `/api/v1/toilets/nearest` },
    { method: 'GET', path: near, headers: { 'accept-encoding': 'gzip' } },
    { method: 'GET', path: near, headers: { origin: 'https://elsewhere.example' } },
    { method: 'HEAD', path: near },
    { method: 'OPTIONS', path: near, headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' } },
    { method: 'GET', path: `/api/v1/toilets?${box}` },
    { method: 'GET', path: `/api/v1/toilets?${box}&limit=2` },
    { method: 'GET', path: `/api/v1/toilets?bbox=7,43,20,50` },
    { method: 'GET', path: `/api/v1/toilets?bbox=x` },
    { method: 'GET', path: `/api/v1/toilets/${id}` },
    { method: 'GET', path: `/api/v1/toilets/${id}`, headers: { 'accept-language': 'fr' } },
    { method: 'GET', path: `/api/v1/toilets/n999999999999` },
    { method: 'GET', path: `/api/v1/toilets/not-an-id` },
    { method: 'GET', path: `/t/${id}` },
    { method: 'GET', path: `/t/n999999999999` },
    { method: 'GET', path: `/?lat=${MONACO.lat}&lon=${MONACO.lon}` },
    { method: 'DELETE', path: '/api/v1/toilets/nearest' },
  ];
}

/** The fixed requests every route gets: bare, and (with a body) an empty JSON object and a cross-site one. */
function routeRequests(method: string, pattern: string): GoldenRequest[] {
  const path = pattern.replace(/:([a-z_]+)/g, (_, name: string) => SAMPLE_PARAMS[name] ?? `sample-${name}`).replace(/\*$/, 'sample');
  if (method === 'GET') return [{ method, path }];
  const json = { 'content-type': 'application/json' };
  return [
    { method, path },
    { method, path, headers: { ...json, origin: SITE, 'sec-fetch-site': 'same-origin' }, body: '{}' },
    { method, path, headers: { ...json, origin: 'https://elsewhere.example' }, body: '{}' },
    { method, path, headers: { 'content-type': 'text/plain', origin: SITE }, body: 'plain' },
  ];
}

async function answer(served: Served, request: GoldenRequest): Promise<GoldenAnswer> {
  const response = await fetch(served.origin + request.path, { method: request.method, headers: request.headers, body: request.body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const [name, value] of [...response.headers.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (!DROPPED_HEADERS.has(name)) headers[name] = scrub(name === 'content-length' && bodyVaries(request, response.headers) ? '<varies>' : value);
  }
  const body = bodyOf(response.headers.get('content-type') ?? '', bytes);
  return { request, status: response.status, headers, body: isMetrics(request) && typeof body === 'string' ? metricNames(body) : body };
}

/** A body holding a random value or a measurement (the metrics, /status's uptime) has a length that varies with it. */
function bodyVaries(request: GoldenRequest, headers: Headers): boolean {
  return isMetrics(request) || request.path === '/status' || /nonce-/.test(headers.get('content-security-policy') ?? '');
}

function isMetrics(request: GoldenRequest): boolean {
  return request.path === '/metrics';
}

/** The metrics' values are measurements (times, memory): only their HELP and TYPE lines are fixed. */
function metricNames(text: string): string {
  return text.split('\n').filter((line) => line.startsWith('# ')).join('\n');
}

/** fetch has decoded a content coding already, so the body is the representation's. */
function bodyOf(type: string, bytes: Buffer): unknown {
  if (bytes.length === 0) return '';
  const text = bytes.toString('utf8');
  if (/json/.test(type)) {
    try {
      return scrubJson(JSON.parse(scrub(text)));
    } catch {
      return scrub(text);
    }
  }
  if (/^text\/event-stream/.test(type)) return scrub(text);
  if (/^text\/(html|plain)/.test(type)) return scrub(text);
  return digest(bytes);
}

function digest(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')} (${bytes.length} bytes)`;
}

/** JSON members whose values are random per request (human-check and passkey challenges). */
const RANDOM_MEMBERS = new Set(['salt', 'nonce', 'keyPrefix', 'keySignature', 'signature', 'challenge']);
/**
 * JSON members measured from the real process or the import's real clock, not the injected clock; and
 * /status's transport, which the Node running the test decides (uws on CI's Node 20, node on its Node 24).
 */
const MEASURED_MEMBERS = new Set(['uptime_seconds', 'imported_at', 'transport']);

function scrubJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, MEASURED_MEMBERS.has(key) ? '<measured>' : RANDOM_MEMBERS.has(key) && typeof member === 'string' ? '<random>' : scrubJson(member)]));
}

/** Values that differ per request: nonces and random challenges. */
function scrub(text: string): string {
  return text
    .replace(/nonce-[A-Za-z0-9+/=_-]+/g, 'nonce-<nonce>')
    .replace(/nonce="[A-Za-z0-9+/=_-]+"/g, 'nonce="<nonce>"');
}
