// npm run bench:overview: what the site's overview (src/overview) costs. Its levels are built once per data
// version and overlay change, so the figure is the build's CPU time for a million toilets, as a ratio to a
// ceiling measured in the same run (sorting the million latitudes once: a machine-speed yardstick), and
// the bytes of its tiles (all of a level, kept in memory; the largest one a map asks for); the titles of unnamed toilets are built from the source
// database of BENCH_OVERVIEW_DB when set (e.g. the generated 100 000-toilet extract of bench/out/).
// A request for a level then serves the cached bytes. Writes bench/OVERVIEW-RESULTS.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { buildLevels, MAX_ZOOM } from '../src/overview/clusters.js';
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
const table = { count: TOILETS, lat, lon, traits: new Uint8Array(TOILETS) };

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
const buildMs = cpuMs(() => buildLevels(table));
const ceilingMs = cpuMs(() => Float64Array.from(lat).sort());
const levels = buildLevels(table).map((tiles, zoom) => {
  const bodies = [...tiles.values()].map((cells) => Buffer.from(JSON.stringify({ cells })));
  const largest = bodies.reduce((a, b) => (b.length > a.length ? b : a));
  return { zoom, tiles: tiles.size, cells: [...tiles.values()].reduce((n, cells) => n + cells.length, 0), json: bodies.reduce((n, b) => n + b.length, 0), largest: largest.length, largestGzip: gzipSync(largest).length };
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
| building levels 0–${MAX_ZOOM} (once per data version and overlay change) | ${buildMs.toFixed(0)} | ${(buildMs / ceilingMs).toFixed(2)} |

Titles of unnamed toilets: ${titles}.

A map view asks for the tiles it shows (512 pixels each: up to about 30 on a wide screen), each once.

| level | tiles | cells | all tiles, JSON KB (kept in memory) | largest tile, JSON KB | largest tile, gzip KB |
|---|---|---|---|---|---|
${levels.map((l) => `| ${l.zoom} | ${l.tiles.toLocaleString('en')} | ${l.cells.toLocaleString('en')} | ${kb(l.json)} | ${kb(l.largest)} | ${kb(l.largestGzip)} |`).join('\n')}
`;
writeFileSync(join(process.cwd(), 'bench', 'OVERVIEW-RESULTS.md'), report);
console.log(report);
