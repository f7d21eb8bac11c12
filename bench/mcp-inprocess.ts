// CPU µs per MCP fast-path call in one process, without HTTP (docs/PERFORMANCE.md): node
// dist/bench/mcp-inprocess.js DB [BEFORE_DIST]. The request body's parse, FastPath.answer and what the
// server's write path makes of the answer (representation.ts: the gzip it prepared, or zlib's), as a
// request runs them, for find_toilets_near and get_toilet in both revisions, plain and for a client that
// takes gzip, beside the REST nearest read alone; with BEFORE_DIST (the dist/ of an earlier build) the
// same on that build's code in the same process, the two alternating round by round (ABBA), so what the
// shared machine does to one side it does to the other. Each figure: the median of the rounds, lowest–
// highest. CPU time (process.cpuUsage: every thread, GC included), which a loaded machine distorts far
// less than throughput.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMicrosPerCall, seededRandom } from './measure.js';
import { NO_FILTERS, pointsNearToilets } from './read-queries.js';
import { median } from './observability.js';
import type { App } from '../src/app.js';
import { toiletId, type ToiletTable } from '../src/toilets/table.js';

const NOW = Date.UTC(2026, 10, 23, 12);
const ROUNDS = 7;
const TASK_MS = 400;
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

type Task = () => unknown;

interface FastPathLike {
  answer(request: unknown, message: unknown, headers: readonly string[]): unknown;
}
type Represent = (reply: never, request: { method: string; acceptEncoding: string; ifNoneMatch: string }) => unknown;

/** A build's app over `db`, its fast path on the app's reads and its write path's representation (the modules of the build at `dist`). */
async function load(dist: string, db: string, dir: string): Promise<{ app: App; fast: FastPathLike; represent: Represent }> {
  const { createApp } = (await import(join(dist, 'src', 'app.js'))) as typeof import('../src/app.js');
  const { loadConfig } = (await import(join(dist, 'src', 'config.js'))) as typeof import('../src/config.js');
  const { ToolSet } = (await import(join(dist, 'src', 'mcp', 'tools.js'))) as typeof import('../src/mcp/tools.js');
  const { FastPath } = (await import(join(dist, 'src', 'mcp', 'fast-path.js'))) as typeof import('../src/mcp/fast-path.js');
  const { represent } = (await import(join(dist, 'src', 'http', 'representation.js'))) as typeof import('../src/http/representation.js');
  const log = { info() {}, error() {} };
  const config = loadConfig({ TOILETS_DB: db, OVERLAY_DB: join(dir, 'overlay.db'), ACCOUNTS_DB: join(dir, 'accounts.db'), PORT: '0', HTTP_THREADS: '1' });
  const app = createApp({ config, log, now: () => NOW });
  app.catalog.load();
  return { app, fast: new FastPath(new ToolSet({ reads: app.reads, places: null, now: () => NOW, log })) as FastPathLike, represent: represent as Represent };
}

function request(era: 'modern' | 'legacy', tool: string, gzip: boolean) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era === 'modern' ? '2026-07-28' : '2025-11-25',
    ...(era === 'modern' ? { 'mcp-method': 'tools/call', 'mcp-name': tool } : {}),
  };
  return { method: 'POST', path: '/mcp', query: '', params: {}, headers, ip: '127.0.0.1', body: null, signal: new AbortController().signal, acceptEncoding: gzip ? 'gzip' : '' };
}

/** The tasks of one build: each call's request body parsed, answered, and represented (as a request runs them). */
function tasksOf(app: App, fast: FastPathLike, represent: Represent, t: ToiletTable): Record<string, Task> {
  const points = pointsNearToilets(t, seededRandom(41), 4096);
  const byId = Array.from({ length: 4096 }, (_, i) => toiletId(t, (i * 7919) % t.count));
  let i = 0;
  const next = () => (i = (i + 1) & 4095);
  const call = (era: 'modern' | 'legacy', tool: string, gzip: boolean, args: (k: number) => Record<string, unknown>): Task => {
    const req = request(era, tool, gzip);
    const negotiation = { method: 'POST', acceptEncoding: req.acceptEncoding, ifNoneMatch: '' };
    const bodies = Array.from({ length: 4096 }, (_, k) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: k, method: 'tools/call', params: { name: tool, arguments: args(k), ...(era === 'modern' ? { _meta: ENVELOPE } : {}) } })));
    return () => {
      const answer = fast.answer(req, JSON.parse(bodies[next()].toString('utf8')), []);
      if (answer === null || answer instanceof Promise) throw new Error(`${tool} was not answered directly by the fast path`);
      return represent(answer as never, negotiation);
    };
  };
  const near = (k: number) => ({ lat: points[k].lat, lon: points[k].lon });
  const tasks: Record<string, Task> = {
    'REST nearest read alone (k=5)': () => {
      const p = points[next()];
      return app.reads.findNear({ lat: p.lat, lon: p.lon, limit: 5, ...NO_FILTERS }, NOW);
    },
  };
  for (const era of ['modern', 'legacy'] as const) {
    for (const gzip of [false, true]) {
      const how = `${era === 'modern' ? '2026-07-28' : '2025-11-25'}${gzip ? ', gzip' : ''}`;
      tasks[`find_toilets_near ${how}`] = call(era, 'find_toilets_near', gzip, near);
      tasks[`get_toilet ${how}`] = call(era, 'get_toilet', gzip, (k) => ({ id: byId[k] }));
    }
  }
  return tasks;
}

async function main(): Promise<void> {
  const [db, beforeDist] = process.argv.slice(2);
  if (!db) throw new Error('usage: node dist/bench/mcp-inprocess.js <toilets.db> [<dist of the build before>]');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-inprocess-'));
  try {
    const sides: [string, string][] = [['this build', join(process.cwd(), 'dist')], ...(beforeDist ? [['before', beforeDist] as [string, string]] : [])];
    const built: Record<string, Record<string, Task>> = {};
    for (const [index, [name, dist]] of sides.entries()) {
      const sideDir = join(dir, String(index));
      mkdirSync(sideDir);
      const { app, fast, represent } = await load(dist, db, sideDir);
      built[name] = tasksOf(app, fast, represent, app.catalog.snapshot.table);
    }
    const names = Object.keys(built['this build']);
    const us: Record<string, Record<string, number[]>> = Object.fromEntries(sides.map(([side]) => [side, Object.fromEntries(names.map((n) => [n, [] as number[]]))]));
    for (const [side] of sides) for (const name of names) cpuMicrosPerCall(built[side][name], TASK_MS / 4); // compiled before measuring
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const name of names) for (const [side] of order) us[side][name].push(cpuMicrosPerCall(built[side][name], TASK_MS));
    }
    const cell = (values: number[]) => `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
    const lines = [`| call | ${sides.map(([side]) => `${side}, CPU µs/call`).join(' | ')} |${sides.length > 1 ? ' this ÷ before |' : ''}`, `|---|${sides.map(() => '---|').join('')}${sides.length > 1 ? '---|' : ''}`];
    for (const name of names) {
      const ratio = sides.length > 1 ? ` ${(median(us['this build'][name]) / median(us.before[name])).toFixed(2)} |` : '';
      lines.push(`| ${name} | ${sides.map(([side]) => cell(us[side][name])).join(' | ')} |${ratio}`);
    }
    console.log(`${ROUNDS} rounds of ${TASK_MS} ms of CPU per call and side, alternating; median (lowest–highest).`);
    console.log(lines.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
