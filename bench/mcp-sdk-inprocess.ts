// What the SDK path costs beside the fast path, and what the instance pool gives it (issue 41;
// docs/PERFORMANCE.md): node dist/bench/mcp-sdk-inprocess.js DB [ROUNDS]. Two apps over the same data in
// one process, one with MCP_FAST_PATH off, each asked 2026-07-28 tools/call requests through
// server.inject() (the whole route, guard chain included, without a socket); the SDK app once with its
// pool and once with InstancePool.take building a fresh instance each time, as before the pool. The
// three alternate round by round (reversed every other round), CPU µs per call (process.cpuUsage: GC and
// the injected client's web objects included, the same for all three, so read the differences), median of
// the rounds with lowest–highest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from './measure.js';
import { median } from './observability.js';
import { pointsNearToilets } from './read-queries.js';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { InstancePool } from '../src/mcp/instance-pool.js';
import { toiletId } from '../src/toilets/table.js';

const NOW = Date.UTC(2026, 10, 23, 12);
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const TOOLS = ['find_toilets_near', 'get_toilet'] as const;
const pooled = InstancePool.prototype.take;
function unpooled(this: InstancePool) {
  return (this as unknown as { make: () => ReturnType<InstancePool['take']> }).make();
}

function appOver(db: string, dir: string, fastPath: boolean): App {
  const env = { TOILETS_DB: db, OVERLAY_DB: join(dir, `overlay-${fastPath}.db`), ACCOUNTS_DB: join(dir, `accounts-${fastPath}.db`), PORT: '0', HTTP_THREADS: '1' };
  const config = loadConfig({ ...env, RATE_LIMIT_PER_MINUTE: '0', ACCESS_LOG: 'false', MCP_FAST_PATH: String(fastPath) });
  const app = createApp({ config, log: { info() {}, error() {} }, now: () => NOW });
  app.catalog.load();
  return app;
}

/** A task calling `tool` on `app` with rotating arguments; it fails loudly on anything but a result. */
function caller(app: App, tool: (typeof TOOLS)[number], args: (k: number) => Record<string, unknown>): () => Promise<void> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool, 'accept-encoding': 'identity' };
  let i = 0;
  return async () => {
    i = (i + 1) & 1023;
    const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: tool, arguments: args(i), _meta: ENVELOPE } });
    const response = await app.server.inject('/mcp', { method: 'POST', headers, body });
    const text = await response.text();
    if (response.status !== 200 || !text.startsWith('{"result"')) throw new Error(`${tool}: ${response.status} ${text.slice(0, 200)}`);
  };
}

async function cpuMicros(task: () => Promise<void>, calls: number): Promise<number> {
  const start = process.cpuUsage();
  for (let n = 0; n < calls; n++) await task();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

async function main(): Promise<void> {
  const [db, roundsText = '5'] = process.argv.slice(2);
  if (!db) throw new Error('usage: node dist/bench/mcp-sdk-inprocess.js <toilets.db> [rounds]');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-inprocess-'));
  try {
    const fast = appOver(db, dir, true);
    const sdk = appOver(db, dir, false);
    const table = fast.catalog.snapshot.table;
    const points = pointsNearToilets(table, seededRandom(41), 1024);
    const args = {
      find_toilets_near: (k: number) => ({ lat: points[k].lat, lon: points[k].lon }),
      get_toilet: (k: number) => ({ id: toiletId(table, (k * 7919) % table.count) }),
    };
    const tasks: Record<string, { run: () => Promise<void>; take: typeof pooled; calls: number }> = {};
    for (const tool of TOOLS) {
      tasks[`${tool}, fast path`] = { run: caller(fast, tool, args[tool]), take: pooled, calls: 3000 };
      tasks[`${tool}, SDK path with the pool`] = { run: caller(sdk, tool, args[tool]), take: pooled, calls: 600 };
      tasks[`${tool}, SDK path, an instance per call`] = { run: caller(sdk, tool, args[tool]), take: unpooled, calls: 600 };
    }
    const names = Object.keys(tasks);
    const measure = (name: string, calls: number) => {
      InstancePool.prototype.take = tasks[name].take;
      return cpuMicros(tasks[name].run, calls);
    };
    for (const name of names) await measure(name, 300); // compiled and pooled before measuring
    const us = Object.fromEntries(names.map((name) => [name, [] as number[]]));
    for (let round = 0; round < Number(roundsText); round++) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) us[name].push(await measure(name, tasks[name].calls));
    }
    InstancePool.prototype.take = pooled;
    console.log(`${roundsText} alternating rounds; CPU µs per call through server.inject(), median (lowest–highest).`);
    console.log('| call | CPU µs/call |\n|---|---|');
    for (const name of names) console.log(`| ${name} | ${median(us[name]).toFixed(0)} (${Math.min(...us[name]).toFixed(0)}–${Math.max(...us[name]).toFixed(0)}) |`);
    await Promise.all([fast.close(), sdk.close()]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
