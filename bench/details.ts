// What storing the toilets' details (issue 44) costs the reads: the same generated toilets as the
// previous release's layout (4, no details: the current import with its details blobs and column removed,
// which is what that release's importer wrote of them) and as this one's (5), each loaded by a server of
// this release in one process. Nearest k=5, the assembled area answer (limit 200, the densest boxes), and
// getToilet of toilets that have details, in alternating pairs (the order flips every pair, so a shared
// machine's drift falls on both sides), in CPU time per call (measure.ts cpuMicrosPerCall); ratio =
// after / before of the same pair. The searches never read the details; getToilet copies one slice.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { toiletId } from '../src/toilets/table.js';
import type { FindParams } from '../src/schemas/params.js';
import { DETAILS_BLOB, DETAILS_STARTS_BLOB } from '../src/source/columns.js';
import { cpuMicrosPerCall, seededRandom } from './measure.js';
import { densestBoxes, NO_FILTERS, pointsNearToilets } from './read-queries.js';
import { median } from './observability.js';
import { TARGETS } from './targets.js';

/** Alternating pairs measured: an odd number, so the median is one pair's ratio. */
export const DETAILS_PAIRS = 9;
const NOW = Date.UTC(2026, 10, 23, 12);

export const DETAILS_READS = ['nearest k=5', 'area 0.2°, limit 200, answer assembled', 'getToilet (toilets with details)'] as const;
export type DetailsRead = (typeof DETAILS_READS)[number];

export interface DetailsCost {
  toilets: number;
  withDetails: number;
  /** The details texts and their starts, bytes. */
  detailsBytes: number;
  pairs: number;
  byRead: Record<DetailsRead, { beforeUs: number[]; afterUs: number[]; ratios: number[] }>;
}

/** The previous layout of `db`'s toilets at `to`: what the importer of layout 4 wrote of the same extract. */
function previousLayout(db: string, to: string): void {
  copyFileSync(db, to);
  const file = new Database(to);
  try {
    file.prepare('DELETE FROM toilet_columns WHERE name IN (?, ?)').run(DETAILS_BLOB, DETAILS_STARTS_BLOB);
    file.exec(`ALTER TABLE toilets DROP COLUMN details; UPDATE meta SET value = '4' WHERE key = 'schema_version'`);
  } finally {
    file.close();
  }
}

function server(db: string, dir: string): App {
  const config = loadConfig({ TOILETS_DB: db, OVERLAY_DB: join(dir, 'overlay.db'), ACCOUNTS_DB: join(dir, 'accounts.db'), PORT: '0', AREA_CACHE_SECONDS: '0', HTTP_THREADS: '1' });
  const app = createApp({ config, log: { info() {}, error() {} }, now: () => NOW });
  app.catalog.load();
  return app;
}

/** Measures `pairs` alternating pairs, each read running `taskMs` of CPU per side. */
export async function detailsCost(db: string, taskMs: number, pairs: number): Promise<DetailsCost> {
  const dir = mkdtempSync(join(tmpdir(), 'details-bench-'));
  const [beforeDir, afterDir] = [join(dir, 'before'), join(dir, 'after')];
  mkdirSync(beforeDir);
  mkdirSync(afterDir);
  previousLayout(db, join(beforeDir, 'toilets.db'));
  copyFileSync(db, join(afterDir, 'toilets.db'));
  const before = server(join(beforeDir, 'toilets.db'), beforeDir);
  const after = server(join(afterDir, 'toilets.db'), afterDir);
  try {
    const t = after.catalog.snapshot.table;
    const details = t.details!;
    if (before.catalog.snapshot.table.details !== null || details === null) throw new Error('the two layouts did not load as expected');
    const withDetails: string[] = [];
    for (let row = 0; row < t.count && withDetails.length < 4096; row++) if (details.starts[row + 1] > details.starts[row]) withDetails.push(toiletId(t, row));
    const random = seededRandom(44);
    const points = pointsNearToilets(t, random, 4096);
    const boxes = densestBoxes(after.reads, random, t, NOW);
    const tasksOf = (app: App): Record<DetailsRead, () => unknown> => {
      let i = 0;
      const next = () => (i = (i + 1) & 4095);
      return {
        'nearest k=5': () => {
          const p = points[next()];
          return app.reads.findNear({ lat: p.lat, lon: p.lon, limit: 5, ...NO_FILTERS } as FindParams, NOW);
        },
        'area 0.2°, limit 200, answer assembled': () => app.reads.inArea(boxes[next()], NOW),
        'getToilet (toilets with details)': () => app.reads.toilet(withDetails[next() % withDetails.length], NOW),
      };
    };
    const tasks = { before: tasksOf(before), after: tasksOf(after) };
    // Unmeasured, both sides: the first calls compile the read paths, which must not fall on the first pair's side.
    for (const side of [tasks.before, tasks.after]) for (const read of DETAILS_READS) cpuMicrosPerCall(side[read], taskMs / 4);
    const byRead = Object.fromEntries(DETAILS_READS.map((read) => [read, { beforeUs: [] as number[], afterUs: [] as number[], ratios: [] as number[] }])) as DetailsCost['byRead'];
    for (let pair = 0; pair < pairs; pair++) {
      for (const read of DETAILS_READS) {
        const order = pair % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
        const us = { before: 0, after: 0 };
        for (const side of order) us[side] = cpuMicrosPerCall(tasks[side][read], taskMs);
        byRead[read].beforeUs.push(us.before);
        byRead[read].afterUs.push(us.after);
        byRead[read].ratios.push(us.after / us.before);
      }
    }
    return { toilets: t.count, withDetails: countWithDetails(details.starts), detailsBytes: details.bytes.byteLength + details.starts.byteLength, pairs, byRead };
  } finally {
    await Promise.all([before.close(), after.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

function countWithDetails(starts: Uint32Array): number {
  let n = 0;
  for (let row = 0; row + 1 < starts.length; row++) if (starts[row + 1] > starts[row]) n++;
  return n;
}

/** The section of the results: per read, each pair's CPU µs before and after, the median ratio and its spread. */
export function detailsCostLines(r: DetailsCost): string[] {
  const us = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');
  const lines = [
    '',
    `## Cost of toilet details (${r.toilets.toLocaleString('en')} toilets, in-process)`,
    '',
    `${r.withDetails.toLocaleString('en')} toilets (${((r.withDetails / r.toilets) * 100).toFixed(1)}%) have details; their texts and starts take ${(r.detailsBytes / 2 ** 20).toFixed(1)} MiB of shared memory,`,
    'beside the columns the searches read. Before: the same toilets in the previous layout (no details), after: this',
    `layout, both loaded by this release in one process; ${r.pairs} pairs, the order flipping every pair, in CPU µs per call;`,
    'ratio = after / before of the same pair (`bench/details.ts`). getToilet answers carry the details after, not before.',
    '',
    '| read | CPU µs before, per pair | CPU µs after, per pair | median ratio | spread (lowest..highest pair) | target | verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const read of DETAILS_READS) {
    const { beforeUs, afterUs, ratios } = r.byRead[read];
    const ratio = median(ratios);
    const [low, high] = [Math.min(...ratios), Math.max(...ratios)];
    const bounded = read !== 'getToilet (toilets with details)';
    const verdict = !bounded ? 'reported' : ratio <= TARGETS.detailsRatioMax ? 'PASS' : low <= TARGETS.detailsRatioMax ? 'within spread' : 'FAIL';
    lines.push(`| ${read} | ${us(beforeUs)} | ${us(afterUs)} | ${ratio.toFixed(3)} | ${low.toFixed(3)}..${high.toFixed(3)} | ${bounded ? `≤ ${TARGETS.detailsRatioMax}` : 'none (the answer is longer)'} | ${verdict} |`);
  }
  return lines;
}
