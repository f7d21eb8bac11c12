// Replicas behind the deploy/ nginx (docs/SCALING.md): what availability costs in throughput, and how long
// a read takes when the replica nginx gave it to has just been killed. Throughput: nearest req/s (wrk) of
// two one-thread replicas behind nginx (toilet-finder.conf + upstream-replicas.conf), as a ratio to one
// process with two threads on the same cores, asked directly and behind nginx (upstream-one.conf), so the
// cost splits into nginx's and the second process's. Failover: a client sends reads one after another
// through nginx; a replica is SIGKILLed; the reads nginx gave it and passed to the other (two addresses in
// $upstream_addr) are timed, p50 and p99 over several kills, beside the reads before the kill. Rate limits
// off (RATE_LIMIT_PER_MINUTE=0), the demo data (Monaco), nginx with one worker.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { OUT_DIR } from './dataset.js';
import { runWrk, startProcess } from './http.js';
import { percentile } from './measure.js';
import { freePort, startNginx } from '../test/support/nginx.js';

const NEAREST = '/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=10';
const MAIN = join(process.cwd(), 'dist', 'src', 'main.js');
const NGINX_DIR = join(process.cwd(), 'deploy', 'nginx');
/** upstream-replicas.conf's fail_timeout: after it, nginx gives a replica that failed requests again. */
const FAIL_TIMEOUT_MS = 10_000;

export interface ReplicasBench {
  rounds: number;
  /** nearest req/s (medians): one process with two threads asked directly, the same behind nginx, two replicas behind nginx */
  direct: number;
  oneBehindNginx: number;
  replicas: number;
  kills: number;
  /** Reads passed from the killed replica to the other: how many, and their time (ms). */
  failedOver: { count: number; p50: number; p99: number };
  /** Reads through nginx before the kills (ms). */
  normal: { p50: number; p99: number };
  /** Reads that did not get a 200 (none expected). */
  failed: number;
}

interface Server {
  child: ChildProcess;
  port: number;
}

async function server(dir: string, threads: number, port = 0): Promise<Server> {
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', HTTP_THREADS: String(threads), RATE_LIMIT_PER_MINUTE: '0', AREA_RATE_LIMIT_PER_MINUTE: '0', TOILETS_DB: join(dir, 'toilets.db'), OVERLAY_DB: join(dir, `overlay-${threads}-${port}.db`), ACCOUNTS_DB: join(dir, `accounts-${threads}-${port}.db`), DUMP_DIR: join(dir, 'dumps') };
  const { child, port: bound } = await startProcess([MAIN], env);
  return { child, port: bound };
}

/** nginx on the shipped site with `upstream` (its ports replaced), answering which replicas it asked. */
async function nginx(dir: string, upstream: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const site = readFileSync(join(NGINX_DIR, 'toilet-finder.conf'), 'utf8')
    .replace('listen 80;', `listen 127.0.0.1:${port};\n    add_header X-Bench-Upstream "$upstream_addr" always;`)
    .replace('listen [::]:80;', '');
  const folder = mkdtempSync(join(dir, 'nginx-'));
  writeFileSync(join(folder, 'site.conf'), upstream + site);
  return { child: await startNginx(folder, port), port };
}

/** Reads one after another through nginx until `stop` is set: each one's time and which replicas answered. */
async function reads(port: number, until: { stop: boolean }, seen: { ms: number; upstreams: number; ok: boolean }[]): Promise<void> {
  while (!until.stop) {
    const started = performance.now();
    const answer = await fetch(`http://127.0.0.1:${port}${NEAREST}`).catch(() => null);
    await answer?.arrayBuffer();
    seen.push({ ms: performance.now() - started, upstreams: (answer?.headers.get('x-bench-upstream') ?? '').split(',').length, ok: answer?.status === 200 });
  }
}

export async function benchReplicasBehindNginx(seconds: number, rounds: number, kills: number): Promise<ReplicasBench> {
  const dir = mkdtempSync(join(tmpdir(), 'toilet-bench-replicas-'));
  mkdirSync(OUT_DIR, { recursive: true }); // wrk's script and request list
  // everything started, to end whatever happens (a restarted replica is added when it starts)
  const running: { child: ChildProcess }[] = [];
  const started = <T extends { child: ChildProcess }>(process: T): T => (running.push(process), process);
  try {
    // the first start imports the demo data into toilets.db, which the others then serve
    const two = started(await server(dir, 2));
    const one = started(await nginx(dir, readFileSync(join(NGINX_DIR, 'upstream-one.conf'), 'utf8').replace('127.0.0.1:8080', `127.0.0.1:${two.port}`)));
    const replicas = [started(await server(dir, 1)), started(await server(dir, 1))];
    const upstream = readFileSync(join(NGINX_DIR, 'upstream-replicas.conf'), 'utf8').replace('127.0.0.1:8081', `127.0.0.1:${replicas[0].port}`).replace('127.0.0.1:8082', `127.0.0.1:${replicas[1].port}`);
    const front = started(await nginx(dir, upstream));
    // rounds alternate the three (a loaded machine's drift falls on each alike); figures are medians
    const rps: Record<'direct' | 'one' | 'replicas', number[]> = { direct: [], one: [], replicas: [] };
    for (let round = 0; round < rounds; round++) {
      for (const [name, port] of [['direct', two.port], ['one', one.port], ['replicas', front.port]] as const) {
        rps[name].push((await runWrk(`replicas-${name}`, port, [`GET ${NEAREST}`], seconds)).requestsPerSecond);
      }
    }
    const median = (values: number[]) => percentile([...values].sort((x, y) => x - y), 0.5);

    const seen: { ms: number; upstreams: number; ok: boolean }[] = [];
    const until = { stop: false };
    const client = reads(front.port, until, seen);
    await sleep(1000);
    const before = seen.map((s) => s.ms).sort((x, y) => x - y);
    for (let kill = 0; kill < kills; kill++) {
      const victim = kill % 2;
      replicas[victim].child.kill('SIGKILL');
      await once(replicas[victim].child, 'close');
      replicas[victim] = started(await server(dir, 1, replicas[victim].port));
      await sleep(FAIL_TIMEOUT_MS + 500); // nginx gives the restarted replica requests again
    }
    until.stop = true;
    await client;
    const over = seen.filter((s) => s.upstreams === 2).map((s) => s.ms).sort((x, y) => x - y);
    return {
      rounds,
      direct: median(rps.direct),
      oneBehindNginx: median(rps.one),
      replicas: median(rps.replicas),
      kills,
      failedOver: { count: over.length, p50: percentile(over, 0.5), p99: percentile(over, 0.99) },
      normal: { p50: percentile(before, 0.5), p99: percentile(before, 0.99) },
      failed: seen.filter((s) => !s.ok).length,
    };
  } finally {
    for (const r of running) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}
