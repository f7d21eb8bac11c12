// npm run bench:cluster [-- --quick]: what running as a cluster costs. Today: the cluster-wide rate limits'
// cost per request as a ratio to the local limiter's (bench/cluster-limits.ts); prints the section and
// writes it to bench/CLUSTER-RESULTS.md. Needs redis-server (Debian's package).
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { benchClusterLimits } from './cluster-limits.js';
import { benchMode } from './mode.js';

async function main(): Promise<void> {
  const { quick } = benchMode();
  const r = await benchClusterLimits(quick ? 2_000_000 : 8_000_000, quick ? 3 : 5);
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
  ];
  const text = lines.join('\n') + '\n';
  writeFileSync(join(process.cwd(), 'bench', 'CLUSTER-RESULTS.md'), text);
  console.log(text);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
