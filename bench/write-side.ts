// npm run bench:write-side [-- --visible N --writes N --concurrency C --rounds R]: what the write side on
// PostgreSQL costs (issue 47), in one run, printed as a table (nothing is written into the repository).
// (a) Write-to-visible: two replicas (`main.js`, one thread each) on one PostgreSQL database; a rating
// through A, one at a time, timed from its send until B's getToilet answer counts it (B asked one read
// after another, so a figure includes up to one read's round trip); p50/p99 over N writes. (b) The cost of
// a write: the same ratings on one replica with DATABASE_URL and on one with the SQLite files (the default),
// C in flight, R alternating rounds each (the order flips every round, so a loaded machine's drift falls
// on both); each write's ms to its 201 (p50/p99 over the rounds) and writes/s (the rounds' median), with
// the ratios. PostgreSQL keeps its durable defaults (fsync on), as SQLite commits with synchronous=FULL.
// The cluster (test/support/postgres.ts), the Porto import and `main.js` (test/support/server.ts) are the
// tests'; everything lives in temporary folders, removed at the end. Needs Debian's `postgresql`.
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readSourceToilets } from '../test/api/support.js';
import { startPostgres } from '../test/support/postgres.js';
import { importedData, startMain, type Data, type MainProcess } from '../test/support/server.js';
import { median } from './observability.js';
import { percentile } from './measure.js';
import { burst, prepareRatings, ratingsShown, writeToVisible, type Burst, type Visible } from './write-side-writes.js';

interface Options {
  visible: number;
  writes: number;
  concurrency: number;
  rounds: number;
}

function options(): Options {
  const { values } = parseArgs({ options: { visible: { type: 'string', default: '50' }, writes: { type: 'string', default: '200' }, concurrency: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' } } });
  const [visible, writes, concurrency, rounds] = [values.visible, values.writes, values.concurrency, values.rounds].map(Number);
  return { visible, writes, concurrency, rounds };
}

/** `main.js` over `data` with overlay files of its own in `name`, and `env` (DATABASE_URL or none). */
function replica(data: Data, name: string, env: Record<string, string> = {}): Promise<MainProcess> {
  mkdirSync(join(data.dir, name));
  return startMain({ ...data, overlayDb: join(data.dir, name, 'overlay.db') }, { env: { ACCOUNTS_DB: join(data.dir, name, 'accounts.db'), ...env } });
}

async function stop(server: MainProcess): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** (a): N ratings of one toilet through `a`, each timed until `b` counts it. */
async function visibleAcross(a: MainProcess, b: MainProcess, toilet: string, count: number): Promise<Visible[]> {
  const ratings = await prepareRatings(a.url, [toilet], count);
  let shown = await ratingsShown(b.url, toilet);
  const times: Visible[] = [];
  for (const rating of ratings) {
    times.push(await writeToVisible(a.url, b.url, rating, shown));
    shown++;
  }
  return times;
}

interface EngineFigures {
  ms: number[];
  perSecond: number[];
}

/** (b): R rounds on each engine, alternating, the order flipped every round. */
async function writeCost(engines: Record<'postgres' | 'sqlite', MainProcess>, toilets: string[], o: Options): Promise<Record<'postgres' | 'sqlite', EngineFigures>> {
  const figures = { postgres: { ms: [] as number[], perSecond: [] as number[] }, sqlite: { ms: [] as number[], perSecond: [] as number[] } };
  for (let round = 0; round < o.rounds; round++) {
    const order = round % 2 === 0 ? (['postgres', 'sqlite'] as const) : (['sqlite', 'postgres'] as const);
    for (const engine of order) {
      const ratings = await prepareRatings(engines[engine].url, toilets, o.writes);
      const done: Burst = await burst(engines[engine].url, ratings, o.concurrency);
      figures[engine].ms.push(...done.ms);
      figures[engine].perSecond.push((done.ms.length * 1000) / done.wallMs);
    }
  }
  return figures;
}

const ascending = (values: number[]) => [...values].sort((x, y) => x - y);
const ms = (value: number) => value.toFixed(1);

function table(o: Options, visible: Visible[], cost: Record<'postgres' | 'sqlite', EngineFigures>, loads: number[][]): string {
  const [v, answered, pg, lite] = [ascending(visible.map((t) => t.visibleMs)), ascending(visible.map((t) => t.answeredMs)), ascending(cost.postgres.ms), ascending(cost.sqlite.ms)];
  const [pgRate, liteRate] = [median(cost.postgres.perSecond), median(cost.sqlite.perSecond)];
  const ratio = (x: number, y: number) => (x / y).toFixed(2);
  return [
    '# Write side bench',
    '',
    `Command: \`npm run bench:write-side -- --visible ${o.visible} --writes ${o.writes} --concurrency ${o.concurrency} --rounds ${o.rounds}\` (${new Date().toISOString()}); ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; load average at the start ${loads[0].map((l) => l.toFixed(1)).join(' / ')}, at the end ${loads[1].map((l) => l.toFixed(1)).join(' / ')}.`,
    '',
    `## (a) Write-to-visible across two replicas: a rating through A until B's answer counts it (${v.length} writes, one at a time)`,
    '',
    '| from the send until | p50 ms | p99 ms | max ms |',
    '| --- | --- | --- | --- |',
    `| B's answer counts it | ${ms(percentile(v, 0.5))} | ${ms(percentile(v, 0.99))} | ${ms(v[v.length - 1])} |`,
    `| A's 201 (the same writes) | ${ms(percentile(answered, 0.5))} | ${ms(percentile(answered, 0.99))} | ${ms(answered[answered.length - 1])} |`,
    '',
    `## (b) A rating's cost, ${o.concurrency} in flight, ${o.rounds} alternating rounds of ${o.writes} writes on each engine`,
    '',
    '| storage | p50 ms | p99 ms | writes/s (median round) |',
    '| --- | --- | --- | --- |',
    `| SQLite files (default) | ${ms(percentile(lite, 0.5))} | ${ms(percentile(lite, 0.99))} | ${Math.round(liteRate)} |`,
    `| PostgreSQL (DATABASE_URL) | ${ms(percentile(pg, 0.5))} | ${ms(percentile(pg, 0.99))} | ${Math.round(pgRate)} |`,
    `| ratio PostgreSQL / SQLite | ${ratio(percentile(pg, 0.5), percentile(lite, 0.5))} | ${ratio(percentile(pg, 0.99), percentile(lite, 0.99))} | ${ratio(pgRate, liteRate)} |`,
    '',
    `writes/s of each round: SQLite ${cost.sqlite.perSecond.map(Math.round).join(', ')}; PostgreSQL ${cost.postgres.perSecond.map(Math.round).join(', ')}.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const o = options();
  const loads = [loadavg()];
  const cluster = await startPostgres({ durable: true });
  const data = await importedData('porto');
  const started: MainProcess[] = [];
  try {
    const url = cluster.database('write_side');
    const toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
    const [a, b] = [await replica(data, 'a', { DATABASE_URL: url }), await replica(data, 'b', { DATABASE_URL: url })];
    started.push(a, b);
    const visible = await visibleAcross(a, b, toilets[0], o.visible);
    // (b) compares one process with one: B would spend the shared cores on A's changes
    await stop(started.pop()!);
    const sqlite = await replica(data, 'sqlite');
    started.push(sqlite);
    const cost = await writeCost({ postgres: a, sqlite }, toilets, o);
    loads.push(loadavg());
    console.log(table(o, visible, cost, loads));
  } finally {
    await Promise.all(started.map(stop));
    cluster.stop();
    data.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
