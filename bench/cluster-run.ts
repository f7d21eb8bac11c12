// npm run bench:cluster [-- --quick]: what running as a cluster costs: the cluster-wide rate limits' cost
// per request as a ratio to the local limiter's (bench/cluster-limits.ts), and two replicas behind the
// deploy/ nginx against one process with two threads, with the time of a read that fails over
// (bench/cluster-nginx.ts); prints the sections and writes them to bench/CLUSTER-RESULTS.md. Needs
// redis-server, nginx and wrk (Debian's packages).
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { benchClusterLimits } from './cluster-limits.js';
import { benchReplicasBehindNginx } from './cluster-nginx.js';
import { benchMode } from './mode.js';

async function main(): Promise<void> {
  const { quick } = benchMode();
  const r = await benchClusterLimits(quick ? 2_000_000 : 8_000_000, quick ? 3 : 5);
  const n = await benchReplicasBehindNginx(quick ? 5 : 10, 3, quick ? 4 : 10);
  const fmt = (ns: number) => ns.toFixed(0);
  const lines = [
    '# Cluster bench',
    '',
    `Command: \`npm run bench:cluster${quick ? ' -- --quick' : ''}\` (${new Date().toISOString()}); ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
    '',
    '## Per-IP rate limit with REDIS_URL, cost per request',
    '',
    `Two replicas' limiters in one process, each reconciling with one redis-server on loopback every 250 ms; ${(r.requestsPerRound / 1e6).toFixed(0)} M requests a round from 100,000 addresses in turn, none refused (every address has counts to send in every interval: the reconciliation's worst case). CPU time of this process per request (not wall time); median of ${r.rounds} alternating rounds. The ratio is to the same requests counted by local limiters.`,
    '',
    '| counted by | CPU ns per request | ratio to local |',
    '| --- | --- | --- |',
    `| local limiter (no REDIS_URL) | ${fmt(r.localNs)} | 1.00 |`,
    `| clustered limiter, read path only (what a read thread pays) | ${fmt(r.readPathNs)} | ${(r.readPathNs / r.localNs).toFixed(2)} |`,
    `| clustered limiter + reconciliation (read path + main thread) | ${fmt(r.clusteredNs)} | ${(r.clusteredNs / r.localNs).toFixed(2)} |`,
    `| redis-server's own CPU (INFO cpu) | ${fmt(r.redisNs)} | |`,
    '',
    `Reconciliations per replica per round: ${r.syncsPerRound.toFixed(1)}, ${Math.round(r.keysPerSync).toLocaleString('en')} addresses each; the main thread's CPU per address reconciled (sent, and both replicas' totals folded in): ${(r.reconcileNsPerKey / 1000).toFixed(1)} µs. The cost per request depends on how many requests an address sends per interval: at one request per address per 250 ms it is about that figure per request, on the main thread, never on a read thread's request.`,
    '',
    '## Two replicas behind nginx vs one process with two threads',
    '',
    `nearest (10 results, Monaco's demo data), wrk, 64 connections, ${quick ? 5 : 10} s each, median of ${n.rounds} rounds alternating the three; rate limits off; nginx with one worker on the same cores (deploy/nginx: toilet-finder.conf with upstream-one.conf or upstream-replicas.conf).`,
    '',
    '| served by | req/s | ratio to one process, two threads |',
    '| --- | --- | --- |',
    `| one process, two threads, asked directly | ${Math.round(n.direct).toLocaleString('en')} | 1.00 |`,
    `| the same, behind nginx | ${Math.round(n.oneBehindNginx).toLocaleString('en')} | ${(n.oneBehindNginx / n.direct).toFixed(2)} |`,
    `| two one-thread replicas behind nginx | ${Math.round(n.replicas).toLocaleString('en')} | ${(n.replicas / n.direct).toFixed(2)} |`,
    '',
    '## Failover time',
    '',
    `One client reading through nginx, one read after another; a replica SIGKILLed ${n.kills} times (in turn, each restarted and given requests again after fail_timeout). Reads nginx gave the killed replica and passed to the other (two addresses in $upstream_addr): ${n.failedOver.count}, p50 ${n.failedOver.p50.toFixed(1)} ms, p99 ${n.failedOver.p99.toFixed(1)} ms; reads before the kills: p50 ${n.normal.p50.toFixed(1)} ms, p99 ${n.normal.p99.toFixed(1)} ms. Reads not answered 200: ${n.failed}.`,
  ];
  const text = lines.join('\n') + '\n';
  writeFileSync(join(process.cwd(), 'bench', 'CLUSTER-RESULTS.md'), text);
  console.log(text);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
