// `[BENCH_BEFORE=DIST] npm run bench:gzip [-- --quick]`: what gzip answers cost (issue 42), alone. In
// process: CPU µs per call of each read plain, with its gzip form written from its pieces
// (src/rules/gzip-bytes.ts) and with zlib's gzip at level 1, alternating rounds, and the wire bytes of
// each. Over HTTP: bench/compression.ts's ABBA rounds (plain and gzip alternating on one server, with the
// server's CPU µs per request), for this build and, with BENCH_BEFORE, for another build's dist/ on the same
// database, the two servers started in turn so that a shared machine's drift falls on both. Writes
// bench/GZIP-RESULTS.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { toiletId } from '../src/toilets/table.js';
import type { FindParams } from '../src/schemas/params.js';
import { runOneSection } from './one-section.js';
import { cpuMicrosPerCall, seededRandom } from './measure.js';
import { startProcess, wrkAvailable } from './http.js';
import { compressionLines, compressionRatios, median } from './compression.js';
import { httpReadRequests, NO_FILTERS, pointsNearToilets } from './read-queries.js';
import { TARGETS } from './targets.js';

const NOW = Date.UTC(2026, 10, 23, 12); // a Monday, noon UTC
const ROUNDS = 5;
const HTTP_ROUNDS = 4;
const STARTS = 2;

/** The reads measured in process: each call plain or gzip, on the next of 4,096 queries. */
function inProcessTasks(db: string) {
  const dir = mkdtempSync(join(tmpdir(), 'gzip-bench-'));
  const config = loadConfig({ TOILETS_DB: db, OVERLAY_DB: join(dir, 'overlay.db'), ACCOUNTS_DB: join(dir, 'accounts.db'), PORT: '0', AREA_CACHE_SECONDS: '0', HTTP_THREADS: '1' });
  const app = createApp({ config, log: { info() {}, error() {} }, now: () => NOW });
  app.catalog.load();
  const t = app.catalog.snapshot.table;
  const reads = app.reads;
  const random = seededRandom(7);
  const points = pointsNearToilets(t, random, 4096);
  const boxes = points.map(({ lat, lon }) => ({ bbox: { west: lon - 0.05, south: lat - 0.05, east: lon + 0.05, north: lat + 0.05 }, limit: 20, ...NO_FILTERS }));
  const ids = points.map(() => toiletId(t, Math.floor(random() * t.count)));
  let i = 0;
  const next = () => (i = (i + 1) & 4095);
  const read: Record<string, () => Buffer | null> = {
    'nearest k=5': () => reads.findNear({ ...points[next()], limit: 5, ...NO_FILTERS } as FindParams, NOW) as Buffer,
    'area, limit 20': () => reads.inArea(boxes[next()], NOW),
    getToilet: () => reads.toilet(ids[next()], NOW),
  };
  const close = async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { reads, read, close };
}

async function inProcess(db: string, taskMs: number): Promise<string[]> {
  const { reads, read, close } = inProcessTasks(db);
  try {
    const lines = ['| read | plain bytes | gzip bytes (pieces) | zlib level 1 bytes | CPU µs plain | gzip (pieces) | zlib level 1 | plain ÷ gzip, median (spread) |', '|---|---|---|---|---|---|---|---|'];
    for (const [name, task] of Object.entries(read)) {
      const bytes = { plain: 0, gzip: 0, zlib: 0 };
      for (let n = 0; n < 500; n++) {
        reads.preparesGzip(true);
        const body = task()!;
        bytes.plain += body.length;
        bytes.zlib += gzipSync(body, { level: 1 }).length;
        bytes.gzip += reads.gzipOfAnswer().length;
      }
      const sides = {
        plain: () => (reads.preparesGzip(false), task()),
        gzip: () => (reads.preparesGzip(true), task(), reads.gzipOfAnswer()),
        zlib: () => (reads.preparesGzip(false), gzipSync(task()!, { level: 1 })),
      };
      const us = { plain: [] as number[], gzip: [] as number[], zlib: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? (['plain', 'gzip', 'zlib'] as const) : (['zlib', 'gzip', 'plain'] as const);
        for (const side of order) us[side].push(cpuMicrosPerCall(sides[side], taskMs));
      }
      const ratios = us.plain.map((plain, k) => plain / us.gzip[k]);
      const fmt = (v: number[]) => `${median(v).toFixed(1)} (${Math.min(...v).toFixed(1)}–${Math.max(...v).toFixed(1)})`;
      const per = (v: number) => Math.round(v / 500);
      lines.push(`| ${name} | ${per(bytes.plain)} | ${per(bytes.gzip)} | ${per(bytes.zlib)} | ${fmt(us.plain)} | ${fmt(us.gzip)} | ${fmt(us.zlib)} | ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)}) |`);
    }
    console.log(lines.join('\n'));
    return lines;
  } finally {
    await close();
  }
}

async function overHttp(db: string, mains: [string, string][], seconds: number, warmupSeconds: number): Promise<string[]> {
  const config = loadConfig({ TOILETS_DB: db, PORT: '0' });
  const app = createApp({ config, log: { info() {}, error() {} } });
  app.catalog.load();
  const t = app.catalog.snapshot.table;
  const { near, area, byId } = httpReadRequests(t, seededRandom(7));
  await app.close();
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', TOILETS_DB: db, RATE_LIMIT_PER_MINUTE: '0', AREA_RATE_LIMIT_PER_MINUTE: '0', AREA_CACHE_SECONDS: '0' };
  const lines: string[] = [];
  for (let start = 0; start < STARTS; start++) {
    for (const [label, main] of start % 2 === 0 ? mains : [...mains].reverse()) {
      const server = await startProcess([main], env);
      const exited = new Promise<void>((done) => server.child.once('exit', () => done()));
      try {
        const results = await compressionRatios({ port: server.port, pid: server.child.pid, reads: [['nearest (coordinates)', near], ['area (distinct boxes, limit 20)', area], ['getToilet', byId]], rounds: HTTP_ROUNDS, seconds, warmupSeconds });
        const table = ['', `${label}, start ${start + 1} (${new Date().toISOString()}):`, '', ...compressionLines(results, TARGETS.gzipRatioMin)];
        console.log(table.join('\n')); // a long run shows its progress
        lines.push(...table);
      } finally {
        server.child.kill('SIGTERM');
        await exited;
      }
    }
  }
  return lines;
}

runOneSection('Gzip answers against plain ones (issue 42)', 'bench:gzip', 'GZIP-RESULTS.md', async (db, mode) => {
  const before = process.env.BENCH_BEFORE;
  const mains: [string, string][] = [['this build', join(process.cwd(), 'dist', 'src', 'main.js')]];
  if (before) mains.push([`before (${before})`, join(resolve(before), 'src', 'main.js')]);
  const lines = ['', '## In process (one thread, CPU µs per call, ' + `${ROUNDS} alternating rounds)`, '', ...(await inProcess(db, mode.quick ? 300 : 1000))];
  if (wrkAvailable()) lines.push('', '## Over HTTP (wrk, 64 connections; ABBA rounds on one server, server CPU µs per request)', ...(await overHttp(db, mains, mode.quick ? 4 : 8, mode.quick ? 1 : 2)));
  return lines;
});
