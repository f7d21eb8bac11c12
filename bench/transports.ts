// The two transports side by side (issue 40): nearest, area, getToilet and MCP find_toilets_near on the
// service with HTTP_TRANSPORT=node and =uws, a bare node:http server and a bare uWS server answering the
// same bytes (bench/bare-server.ts: the service's header lines for that read and a body of its mean size),
// and, when given, the uWS service of an earlier build (BENCH_BEFORE). Every server runs one thread (Node 20
// serves node:http on one, transport-choice.ts; so every row has the same thread count). Each read runs in
// rounds; a round runs every server once, in an order that flips every round, so a shared machine's drift
// falls on all of them; ratios are taken within a round and reported as the median over the rounds and
// their spread (lowest..highest round), beside each server's CPU µs per request (all its threads, /proc).
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { OUT_DIR } from './dataset.js';
import { meanAnswerBytes, runWrkWithCpu, startProcess } from './http.js';
import { httpRequestLines } from './http-requests.js';
import type { BenchMode } from './mode.js';
import { spread, type Spread } from './observability.js';
import type { RecordedAnswer } from './bare-server.js';
import { TARGETS } from './targets.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'main.js');
const BARE = join(process.cwd(), 'dist', 'bench', 'bare-server.js');
const CONNECTIONS = 64;

/** The servers of a round, by the name the tables give them. */
const SERVICE_NODE = 'service, HTTP_TRANSPORT=node';
const SERVICE_UWS = 'service, HTTP_TRANSPORT=uws';
const BARE_NODE = 'bare node:http, same bytes';
const BARE_UWS = 'bare uWS, same bytes';
const BEFORE_UWS = 'service before, uWS';

interface Server {
  port: number;
  child: ChildProcess;
}

interface Read {
  name: string;
  requests: string[];
  headers: Record<string, string>;
}

export interface ReadFigures {
  read: string;
  bytes: number;
  /** Per server: req/s and CPU µs per request, per round. */
  rps: Map<string, number[]>;
  cpuUs: Map<string, number[]>;
}

/** The section's lines for bench/TRANSPORTS-RESULTS.md. */
export async function transportsSection(db: string, mode: BenchMode, before: string | null): Promise<string[]> {
  const rounds = 3;
  const seconds = mode.quick ? 3 : 5;
  const lines = await httpRequestLines(db);
  const reads: Read[] = [
    { name: 'nearest (coordinates)', requests: lines.near, headers: {} },
    { name: 'area (distinct boxes, limit 20)', requests: lines.area, headers: {} },
    { name: 'getToilet', requests: lines.byId, headers: {} },
    { name: 'MCP find_toilets_near (coordinates)', requests: lines.mcp.requests, headers: lines.mcp.headers },
  ];
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', TOILETS_DB: db, RATE_LIMIT_PER_MINUTE: '0', AREA_RATE_LIMIT_PER_MINUTE: '0', AREA_CACHE_SECONDS: '0', HTTP_THREADS: '1' };
  const services = new Map<string, Server>();
  const figures: ReadFigures[] = [];
  try {
    services.set(SERVICE_NODE, await startProcess([MAIN], { ...env, HTTP_TRANSPORT: 'node' }));
    services.set(SERVICE_UWS, await startProcess([MAIN], { ...env, HTTP_TRANSPORT: 'uws' }));
    if (before !== null) services.set(BEFORE_UWS, await startProcess([before], env));
    for (const read of reads) figures.push(await measureRead(read, services, rounds, { seconds, warmupSeconds: 1 }));
  } finally {
    for (const server of services.values()) server.child.kill('SIGTERM');
  }
  return transportLines(figures, rounds, seconds);
}

async function measureRead(read: Read, services: Map<string, Server>, rounds: number, pace: { seconds: number; warmupSeconds: number }): Promise<ReadFigures> {
  const uws = services.get(SERVICE_UWS)!;
  const bytes = await meanAnswerBytes(uws.port, read.requests.slice(0, 100), read.headers);
  const file = join(OUT_DIR, `answer-${read.name.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ headers: await answerHeaders(uws.port, read), body: JSON.stringify({ filler: 'x'.repeat(Math.max(0, bytes - 14)) }) } satisfies RecordedAnswer));
  const servers = new Map(services);
  try {
    servers.set(BARE_NODE, await startProcess([BARE, 'node', file], process.env));
    servers.set(BARE_UWS, await startProcess([BARE, 'uws', file], process.env));
    const figures: ReadFigures = { read: read.name, bytes, rps: new Map(), cpuUs: new Map() };
    const names = [...servers.keys()];
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const server = servers.get(name)!;
        const run = await runWrkWithCpu({ name: `transports-${server.port}`, port: server.port, pid: server.child.pid!, requests: read.requests, headers: read.headers, connections: CONNECTIONS, ...pace });
        if (run.wrk.non2xx > 0) throw new Error(`${run.wrk.non2xx} non-2xx answers from ${name} to ${read.name}`);
        push(figures.rps, name, run.wrk.requestsPerSecond);
        push(figures.cpuUs, name, run.cpuUs);
      }
    }
    return figures;
  } finally {
    servers.get(BARE_NODE)?.child.kill('SIGTERM');
    servers.get(BARE_UWS)?.child.kill('SIGTERM');
  }
}

function push(map: Map<string, number[]>, name: string, value: number): void {
  map.set(name, [...(map.get(name) ?? []), value]);
}

/** Header lines the transport writes itself, left to each bare server's own. */
const TRANSPORT_HEADERS = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'uwebsockets']);

/** The header lines of the service's answer to the read's first request, as sent (names' case kept). */
function answerHeaders(port: number, read: Read): Promise<string[]> {
  const [, method, path, body] = /^([A-Z]+) (\S+) ?(.*)$/.exec(read.requests[0])!;
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method, path, headers: { ...read.headers, 'Accept-Encoding': 'identity' } }, (res) => {
      res.resume();
      const headers: string[] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) if (!TRANSPORT_HEADERS.has(res.rawHeaders[i].toLowerCase())) headers.push(res.rawHeaders[i], res.rawHeaders[i + 1]);
      res.on('end', () => resolve(headers));
    });
    sent.on('error', reject);
    sent.end(method === 'GET' ? undefined : body);
  });
}

/** Ratios of one server's req/s (or CPU µs per request) to another's, round by round. */
function ratios(figures: ReadFigures, over: string, under: string, of: 'rps' | 'cpuUs' = 'rps'): Spread | null {
  const a = figures[of].get(over);
  const b = figures[of].get(under);
  return a === undefined || b === undefined ? null : spread(a.map((value, round) => value / b[round]));
}

function transportLines(figures: ReadFigures[], rounds: number, seconds: number): string[] {
  const f = (s: Spread | null, digits: number) => (s === null ? '–' : `${s.median.toFixed(digits)} (${s.low.toFixed(digits)}..${s.high.toFixed(digits)})`);
  const target = TARGETS.nodeTransportRatio;
  const lines = [
    '',
    '## The node:http transport beside uWS (one thread each)',
    '',
    `Every server on one thread; wrk: 1 thread, ${CONNECTIONS} connections, ${seconds} s per run after 1 s unmeasured; ${rounds} rounds per read,`,
    'each running every server once in an order that flips every round. Rate limits lifted, area cache off, metrics and access log on',
    '(the defaults). The bare servers answer every request with the service\'s header lines for that read and a body of its mean size.',
    `Each cell: the median of the rounds (lowest..highest round); ratios are taken within a round.`,
    '',
    '| read | answer bytes | server | req/s | CPU µs/request |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const x of figures) {
    for (const [name, rps] of x.rps) lines.push(`| ${x.read} | ${x.bytes} | ${name} | ${f(spread(rps), 0)} | ${f(spread(x.cpuUs.get(name)!), 1)} |`);
  }
  const withBefore = figures.some((x) => x.rps.has(BEFORE_UWS));
  lines.push(
    '',
    `| read | node ÷ bare node:http (target ≥ ${target}) | verdict | node ÷ uWS transport | node ÷ bare uWS | uWS transport ÷ bare uWS |${withBefore ? ' uWS transport ÷ before (target ≥ 0.97) | CPU µs/request, uWS transport ÷ before |' : ''}`,
    `| --- | --- | --- | --- | --- | --- |${withBefore ? ' --- | --- |' : ''}`,
  );
  for (const x of figures) {
    const node = ratios(x, SERVICE_NODE, BARE_NODE)!;
    const verdict = node.median >= target ? 'PASS' : node.high >= target ? 'within spread' : 'FAIL';
    const cells = [x.read, f(node, 2), verdict, f(ratios(x, SERVICE_NODE, SERVICE_UWS), 2), f(ratios(x, SERVICE_NODE, BARE_UWS), 2), f(ratios(x, SERVICE_UWS, BARE_UWS), 2)];
    if (withBefore) cells.push(f(ratios(x, SERVICE_UWS, BEFORE_UWS), 3), f(ratios(x, SERVICE_UWS, BEFORE_UWS, 'cpuUs'), 3));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push(...costLines(figures));
  return lines;
}

/**
 * Where the node transport's CPU per request goes, from the rounds' medians: the service's own work (the
 * uWS service's CPU less the bare uWS server's), node:http's (the bare node:http server's), and the rest.
 * The bare node:http server's share of a request with the service's work added is the most any node:http
 * transport of this service can reach against it.
 */
function costLines(figures: ReadFigures[]): string[] {
  const cpu = (x: ReadFigures, name: string) => spread(x.cpuUs.get(name)!).median;
  const lines = [
    '',
    'CPU µs per request (medians of the rounds), split: the service\'s own work = the uWS service less the bare uWS server; node:http\'s =',
    'the bare node:http server\'s; the rest = the node service less both: the node transport\'s adapters, and what node:http costs more in',
    'the service\'s process (its heap, its caches) than in a bare one. The last column is the most a node:http transport with no rest at all',
    'could reach against the bare node:http server: node:http ÷ (node:http + the service\'s own work).',
    '',
    '| read | node service | service\'s own work | node:http | the rest | bound for node ÷ bare node:http |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const x of figures) {
    const own = cpu(x, SERVICE_UWS) - cpu(x, BARE_UWS);
    const http = cpu(x, BARE_NODE);
    const node = cpu(x, SERVICE_NODE);
    lines.push(`| ${x.read} | ${node.toFixed(1)} | ${own.toFixed(1)} | ${http.toFixed(1)} | ${(node - own - http).toFixed(1)} | ${(http / (http + own)).toFixed(2)} |`);
  }
  return lines;
}
