// npm run bench:overview: what the site's overview (src/overview) costs. Its levels are built once per data
// version and overlay change, so the figures are the build's CPU time for a million toilets (tiles' JSON
// included), as a ratio to a ceiling measured in the same run (sorting the million latitudes once: a
// machine-speed yardstick), the longest the main thread is blocked while they build on their thread (the
// event loop's greatest delay: wall time, so a loaded machine shows in it), and the bytes of its tiles
// (all of a level, kept in memory; the largest one a map asks for); the titles of unnamed toilets are built from the source
// database of BENCH_OVERVIEW_DB when set (e.g. the generated 100 000-toilet extract of bench/out/).
// A request for a level then serves the cached bytes. Writes bench/OVERVIEW-RESULTS.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildLevels, MAX_ZOOM } from '../src/overview/clusters.js';
import { buildOnThread } from '../src/overview/overview.js';
import { buildTitles } from '../src/overview/titles.js';
import { seededRandom } from './measure.js';

const TOILETS = 1_000_000;
const random = seededRandom(43);
// toilets gathered round 400 towns over Europe, as real data is
const towns = Array.from({ length: 400 }, () => [36 + random() * 24, -9 + random() * 33]);
const lat = new Float64Array(TOILETS);
const lon = new Float64Array(TOILETS);
for (let i = 0; i < TOILETS; i++) {
  const [townLat, townLon] = towns[Math.floor(random() * towns.length)];
  lat[i] = townLat + (random() - 0.5) * 0.3 * random();
  lon[i] = townLon + (random() - 0.5) * 0.4 * random();
}
const input = { count: TOILETS, lat, lon, hidden: new Int32Array(0) };

/** The least CPU ms of three runs (user + system). */
const cpuMs = (task: () => unknown) => {
  let least = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = process.cpuUsage();
    task();
    const used = process.cpuUsage(started);
    least = Math.min(least, (used.user + used.system) / 1000);
  }
  return least;
};
const buildMs = cpuMs(() => buildLevels(input));
const ceilingMs = cpuMs(() => Float64Array.from(lat).sort());

/** The main thread's longest stall (event-loop delay, ms) while the levels build on their thread; least of three. */
async function threadStallMs(): Promise<number> {
  let least = Infinity;
  for (let run = 0; run < 3; run++) {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    await buildOnThread(input);
    delay.disable();
    least = Math.min(least, delay.max / 1e6);
  }
  return least;
}
const stallMs = await threadStallMs();

/** Each tile's JSON opens one list of cells and one list per cell. */
const OPEN_BRACKET = '['.charCodeAt(0);
const levels = buildLevels(input).map(({ tiles, offsets, body }, zoom) => {
  let largest = 0;
  for (let t = 0; t < tiles.length; t++) if (offsets[t + 1] - offsets[t] > offsets[largest + 1] - offsets[largest]) largest = t;
  const largestBody = body.subarray(offsets[largest], offsets[largest + 1]);
  return { zoom, tiles: tiles.length, cells: body.filter((byte) => byte === OPEN_BRACKET).length - tiles.length, json: body.length, largest: largestBody.length, largestGzip: gzipSync(largestBody).length };
});

let titles = 'not measured (set BENCH_OVERVIEW_DB to a source database)';
const titleDb = process.env.BENCH_OVERVIEW_DB;
if (titleDb) {
  const db = new Database(titleDb, { readonly: true });
  const started = process.cpuUsage();
  const built = buildTitles(db);
  const used = process.cpuUsage(started);
  const toilets = (db.prepare('SELECT count(*) AS n FROM toilets').get() as { n: number }).n;
  db.close();
  titles = `${((used.user + used.system) / 1000).toFixed(0)} ms of CPU for ${built.size.toLocaleString('en')} titles of ${toilets.toLocaleString('en')} toilets (\`${titleDb.split('/').pop()}\`), once per data version, on the first titles request`;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const report = `# Overview benchmark

${TOILETS.toLocaleString('en')} generated toilets round 400 towns; the least CPU time (user + system) of three runs, so a loaded machine does not count.

| figure | ms | ratio to ceiling |
|---|---|---|
| ceiling: sorting the ${TOILETS.toLocaleString('en')} latitudes once | ${ceilingMs.toFixed(0)} | 1 |
| building levels 0–${MAX_ZOOM} and their tiles' JSON (once per data version and overlay change) | ${buildMs.toFixed(0)} | ${(buildMs / ceilingMs).toFixed(2)} |
| the main thread's longest stall while they build on their thread (event-loop delay, wall time, least of three) | ${stallMs.toFixed(0)} | ${(stallMs / ceilingMs).toFixed(2)} |

Titles of unnamed toilets: ${titles}.

A map view asks for the tiles it shows (512 pixels each: up to about 30 on a wide screen), each once.

| level | tiles | cells | all tiles, JSON KB (kept in memory) | largest tile, JSON KB | largest tile, gzip KB |
|---|---|---|---|---|---|
${levels.map((l) => `| ${l.zoom} | ${l.tiles.toLocaleString('en')} | ${l.cells.toLocaleString('en')} | ${kb(l.json)} | ${kb(l.largest)} | ${kb(l.largestGzip)} |`).join('\n')}
`;
writeFileSync(join(process.cwd(), 'bench', 'OVERVIEW-RESULTS.md'), report);
console.log(report);
