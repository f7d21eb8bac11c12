// MCP tool calls over /mcp, the fast path and the SDK path side by side (bench/MCP-RESULTS.md and a
// section of bench/RESULTS.md): find_toilets_near and get_toilet in both revisions, each as calls/s over
// the bare-uWS ceiling answering a body of the same size, p50/p99 at 32 and 64 connections, and the
// server's CPU µs per call (user + system of all its threads, from /proc, over the measured run). Two
// servers over the same data, one with MCP_FAST_PATH=false, and the ceiling are measured in rounds, one
// after another within each round, so what the shared machine does to one round it does to all three;
// each figure is the median of the rounds with their spread. REST nearest is measured the same way on the
// server with the fast path and, when given, on a build of the code before it (`before`).
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { meanAnswerBytes, runWrkWithCpu, startProcess, type WrkResult } from './http.js';
import { toolCallRequestLines, type McpEra } from './mcp.js';
import { spread, type Spread } from './observability.js';

export type { Spread };
import { seededRandom } from './measure.js';
import { compressionLines, compressionRatios, type CompressionRatio } from './compression.js';
import { TARGETS } from './targets.js';

export interface McpPathsOptions {
  /** dist/src/main.js of this build. */
  main: string;
  /** dist/src/main.js of the build before the change, for REST's "not slower"; null: not measured. */
  before: string | null;
  db: string;
  env: NodeJS.ProcessEnv;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: readonly number[];
}

export interface PathFigures {
  name: string;
  bytes: number;
  connections: number;
  callsPerSecond: Spread;
  ceiling: Spread;
  ratio: Spread;
  p50Ms: Spread;
  p99Ms: Spread;
  cpuUsPerCall: Spread;
  non2xx: number;
}

interface Server {
  port: number;
  child: ChildProcess;
}

interface Workload {
  name: string;
  requests: string[];
  headers: Record<string, string>;
  /** Which server answers it: this build with or without the fast path, or the build before. */
  server: 'fast' | 'sdk' | 'before';
}

const CEILING = join(process.cwd(), 'dist', 'bench', 'ceiling.js');

export async function benchMcpPaths(options: McpPathsOptions): Promise<PathFigures[]> {
  const { rest, calls } = workloads(options.db);
  const servers = {
    fast: await start(options.main, options.env),
    sdk: await start(options.main, { ...options.env, MCP_FAST_PATH: 'false' }),
    before: options.before === null ? null : await start(options.before, options.env),
  };
  const threads = Number(options.env.HTTP_THREADS ?? 2);
  const figures: PathFigures[] = [];
  try {
    const loads: Workload[][] = [[{ ...rest, name: 'REST nearest (coordinates)', server: 'fast' }, ...(servers.before ? [{ ...rest, name: 'REST nearest, build before', server: 'before' as const }] : [])]];
    for (const [index, call] of calls.entries()) {
      const group: Workload[] = (['fast', 'sdk'] as const).map((server) => ({ ...call, name: `${call.name}, ${server === 'fast' ? 'fast path' : 'SDK path'}`, server }));
      // the first call also on the build before: the SDK on the main thread only, a server instance per request
      if (index === 0 && servers.before) group.push({ ...call, name: `${call.name}, build before`, server: 'before' });
      loads.push(group);
    }
    for (const group of loads) {
      for (const connections of options.connections) figures.push(...(await measureGroup(group, connections, servers as Record<string, Server | null>, threads, options)));
    }
  } finally {
    for (const server of Object.values(servers)) server?.child.kill('SIGTERM');
  }
  return figures;
}

/** The workloads of one comparison and their ceiling, in rounds; the ceiling answers a body of the first one's size. */
async function measureGroup(group: Workload[], connections: number, servers: Record<string, Server | null>, threads: number, options: McpPathsOptions): Promise<PathFigures[]> {
  const sample = group[0];
  const bytes = await meanAnswerBytes(servers[sample.server]!.port, sample.requests.slice(0, 50), sample.headers);
  const ceiling = await startProcess([CEILING, String(bytes), String(threads)], process.env);
  const runs = group.map(() => [] as { wrk: WrkResult; cpuUs: number }[]);
  const ceilings: number[] = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      ceilings.push((await run(ceiling.port, ceiling.child, ['GET /'], {}, connections, options)).wrk.requestsPerSecond);
      for (const [index, load] of group.entries()) {
        const server = servers[load.server]!;
        runs[index].push(await run(server.port, server.child, load.requests, load.headers, connections, options));
      }
    }
  } finally {
    ceiling.child.kill('SIGTERM');
  }
  return group.map((load, index) => {
    const rounds = runs[index];
    const ratios = rounds.map((r, round) => r.wrk.requestsPerSecond / ceilings[round]);
    return {
      name: load.name,
      bytes,
      connections,
      callsPerSecond: spread(rounds.map((r) => r.wrk.requestsPerSecond)),
      ceiling: spread(ceilings),
      ratio: spread(ratios),
      p50Ms: spread(rounds.map((r) => r.wrk.p50Ms)),
      p99Ms: spread(rounds.map((r) => r.wrk.p99Ms)),
      cpuUsPerCall: spread(rounds.map((r) => r.cpuUs)),
      non2xx: rounds.reduce((n, r) => n + r.wrk.non2xx, 0),
    };
  });
}

/** One wrk run after a warm-up, with the CPU the answering process spent per request meanwhile. */
function run(port: number, child: ChildProcess, requests: string[], headers: Record<string, string>, connections: number, options: McpPathsOptions) {
  return runWrkWithCpu({ name: `mcp-paths-${port}`, port, pid: child.pid!, requests, headers, connections, seconds: options.seconds, warmupSeconds: options.warmupSeconds });
}


function start(main: string, env: NodeJS.ProcessEnv): Promise<Server> {
  return startProcess([main], env);
}

/** REST nearest and the four tool calls, at points near toilets of the database (seeded, so runs compare). */
function workloads(db: string): { rest: Omit<Workload, 'server'>; calls: Omit<Workload, 'server'>[] } {
  const source = new Database(db, { readonly: true });
  const rows = source.prepare('SELECT id, lat, lon FROM toilets ORDER BY rowid').all() as { id: string; lat: number; lon: number }[];
  source.close();
  const random = seededRandom(11);
  const picked = Array.from({ length: 5000 }, () => rows[Math.floor(random() * rows.length)]);
  const near = picked.map((r) => ({ lat: Number((r.lat + (random() - 0.5) * 0.01).toFixed(5)), lon: Number((r.lon + (random() - 0.5) * 0.01).toFixed(5)) }));
  const rest = { name: 'REST nearest', requests: near.map((p) => `GET /api/v1/toilets/nearest?lat=${p.lat}&lon=${p.lon}`), headers: {} };
  const calls: Omit<Workload, 'server'>[] = [];
  for (const era of ['modern', 'legacy'] as McpEra[]) {
    const revision = era === 'modern' ? '2026-07-28' : '2025-11-25';
    const find = toolCallRequestLines({ calls: near.length, era, argumentsFor: (i) => near[i] });
    calls.push({ name: `find_toilets_near ${revision}`, ...find });
    const get = toolCallRequestLines({ calls: picked.length, era, tool: 'get_toilet', argumentsFor: (i) => ({ id: picked[i].id }) });
    calls.push({ name: `get_toilet ${revision}`, ...get });
  }
  return { rest, calls };
}

/** The figures as a markdown table, with the targets. */
export function mcpPathsLines(figures: PathFigures[], rounds: number): string[] {
  const f = (s: Spread, digits: number) => `${s.median.toFixed(digits)} (${s.low.toFixed(digits)}–${s.high.toFixed(digits)})`;
  const lines = [
    '| workload | conns | answer bytes | calls/s | ceiling req/s | ratio to ceiling | p50 ms | p99 ms | server CPU µs/call | target |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const x of figures) {
    const target = x.name.endsWith('fast path') ? '≥ 0.3' : x.name.endsWith('SDK path') ? '≥ 0.06' : '';
    const verdict = target === '' ? '' : `${target}: ${x.ratio.median >= Number(target.slice(2)) ? 'PASS' : x.ratio.high >= Number(target.slice(2)) ? 'within spread' : 'FAIL'}`;
    const errors = x.non2xx > 0 ? ` (${x.non2xx} non-2xx)` : '';
    lines.push(`| ${x.name}${errors} | ${x.connections} | ${x.bytes} | ${f(x.callsPerSecond, 0)} | ${f(x.ceiling, 0)} | ${f(x.ratio, 3)} | ${f(x.p50Ms, 2)} | ${f(x.p99Ms, 2)} | ${f(x.cpuUsPerCall, 0)} | ${verdict} |`);
  }
  lines.push('', `Each cell: the median of ${rounds} rounds (lowest–highest round).`);
  return lines;
}

/** The whole section: both servers (and the build before, if given) started on `db` with rate limits lifted. */
export async function mcpPathsSection(db: string, quick: boolean, before: string | null): Promise<string[]> {
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', TOILETS_DB: db, RATE_LIMIT_PER_MINUTE: '0', AREA_RATE_LIMIT_PER_MINUTE: '0', AREA_CACHE_SECONDS: '0', ACCESS_LOG: 'false' };
  const rounds = quick ? 3 : 5;
  const seconds = quick ? 3 : 5;
  const figures = await benchMcpPaths({ main: join(process.cwd(), 'dist', 'src', 'main.js'), before, db, env, rounds, seconds, warmupSeconds: 1, connections: [32, 64] });
  const lines = ['', '## MCP tool calls: fast path and SDK path', ''];
  lines.push(
    'Two servers of this build over the same data (default threads, rate limits lifted, access log off), one with `MCP_FAST_PATH=false`;',
    'the ceiling is bench/ceiling.ts answering a body of the workload\'s mean answer size on as many threads. wrk: 1 thread,',
    `${seconds} s per run after 1 s unmeasured; every round runs the ceiling, then each workload of its group.`,
    '',
  );
  lines.push(...mcpPathsLines(figures, rounds));
  lines.push(...(await mcpCompressionLines(db, env, rounds, seconds)));
  const rest = figures.filter((x) => x.name.startsWith('REST'));
  for (const connections of new Set(rest.map((x) => x.connections))) {
    const [now, earlier] = ['REST nearest (coordinates)', 'REST nearest, build before'].map((name) => rest.find((x) => x.name === name && x.connections === connections));
    if (now && earlier) lines.push(`REST nearest at ${connections} connections, this build ÷ the build before: ${(now.ratio.median / earlier.ratio.median).toFixed(3)} (ratios to the same ceiling rounds).`);
  }
  return lines;
}

/** The fast path's gzip answers against its plain ones (bench/compression.ts), on a server of their own. */
async function mcpCompressionLines(db: string, env: NodeJS.ProcessEnv, rounds: number, seconds: number): Promise<string[]> {
  const { calls } = workloads(db);
  const server = await start(join(process.cwd(), 'dist', 'src', 'main.js'), env);
  let results: CompressionRatio[];
  try {
    results = await compressionRatios({ port: server.port, pid: server.child.pid!, reads: calls.map((c) => [`${c.name}, fast path`, c.requests, c.headers]), rounds, seconds, warmupSeconds: 1 });
  } finally {
    server.child.kill('SIGTERM');
  }
  return [
    '',
    '## MCP tool calls: gzip answers against plain ones (fast path, issue 42)',
    '',
    `${rounds} rounds per call, each running the calls plain and with \`Accept-Encoding: gzip\` one after the other (the order flips every`,
    'round); ratio = gzip calls/s ÷ plain calls/s of the same round; CPU: the server\'s, all threads, per call (median of the rounds).',
    'The gzip form is written from the answer\'s pieces (src/rules/gzip-bytes.ts), in the JSON body and in the 2025-era event stream.',
    '',
    ...compressionLines(results, TARGETS.gzipRatioMin),
  ];
}