// What partner listings cost the reads (issue 32): nearest k=5 and the assembled area answer (limit 200,
// the densest boxes) with 10% of the toilets partnered, against the same process without partners. The
// listings are made through the real operations (claim, approval, manual plan, profile with business
// hours so open_now/closes_at are computed; every fifth with the live switch closed). The two states are
// the overlay data the catalog applies (Snapshot.change, as at a load) with and without them, swapped
// between runs over the same snapshot, queries and clock. Each pair measures both, in an order that flips
// every pair, so a shared machine's drift falls on both sides. Measured in CPU time per call (measure.ts
// cpuMicrosPerCall), which other processes on the shared cores do not inflate as they do wall time; a
// pair's cost = CPU per call with / without - 1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../src/app.js';
import type { PartnerContext } from '../src/partners/context.js';
import { SqlitePartnerStore } from '../src/partners/sqlite-store.js';
import type { SqliteAccountEventLog } from '../src/accounts/event-log.js';
import { PartnerClaims } from '../src/partners/claims.js';
import { PartnerPlans } from '../src/partners/plans.js';
import { PartnerProfiles } from '../src/partners/profile.js';
import { loadConfig } from '../src/config.js';
import { toiletId } from '../src/toilets/table.js';
import type { FindParams } from '../src/schemas/params.js';
import type { OverlayChange } from '../src/toilets/snapshot.js';
import { cpuMicrosPerCall, seededRandom } from './measure.js';
import { densestBoxes, NO_FILTERS, pointsNearToilets } from './read-queries.js';
import { median } from './observability.js';
import { TARGETS } from './targets.js';

/** Alternating pairs measured: an odd number, so the median is one pair's cost. */
export const PARTNER_PAIRS = 7;
/** Share of the toilets with a showing listing. */
export const PARTNERED_SHARE = 0.1;
/** Every this many listings, one has its live switch closed (closed for 12 hours). */
const CLOSED_EVERY = 5;
/** Business hours in turn: weekday and weekend hours, a lunch break, a public-holiday rule. */
const BUSINESS_HOURS = ['Mo-Fr 08:00-20:00; Sa 09:00-14:00', 'Mo-Su 07:00-22:00', 'Mo-Sa 09:00-12:30,14:00-19:00; PH off'];
const NOW = Date.UTC(2026, 10, 23, 12); // a Monday, noon UTC

export const PARTNER_READS = ['nearest k=5', 'area 0.2°, limit 200, answer assembled'] as const;
export type PartnerRead = (typeof PARTNER_READS)[number];

export interface PartnerCost {
  toilets: number;
  listings: number;
  closed: number;
  /** Items of the measured area answers that carry a partner object (share). */
  partnerItemShare: number;
  /** How long making the listings through the operations took, ms. */
  setupMs: number;
  pairs: number;
  /** Per read: the CPU µs per call of each pair without and with partners, and the pair's cost. */
  byRead: Record<PartnerRead, { withoutUs: number[]; withUs: number[]; costs: number[] }>;
}

/** Measures `pairs` alternating pairs, each read running `taskMs` of CPU per side. */
export async function partnerCost(db: string, taskMs: number, pairs: number): Promise<PartnerCost> {
  const dir = mkdtempSync(join(tmpdir(), 'partner-bench-'));
  const config = loadConfig({ TOILETS_DB: db, OVERLAY_DB: join(dir, 'overlay.db'), ACCOUNTS_DB: join(dir, 'accounts.db'), PORT: '0', AREA_CACHE_SECONDS: '0', HTTP_THREADS: '1' });
  const app = createApp({ config, log: { info() {}, error() {} }, now: () => NOW });
  try {
    app.catalog.load();
    const t = app.catalog.snapshot.table;
    const without = app.catalog.current().overlays;
    const started = performance.now();
    const { listings, closed } = await makeListings(app, Math.round(t.count * PARTNERED_SHARE));
    const setupMs = performance.now() - started;
    const withPartners = app.catalog.current().overlays;

    const random = seededRandom(42);
    const points = pointsNearToilets(t, random, 4096);
    const boxes = densestBoxes(app.reads, random, t, NOW);
    let i = 0;
    const next = () => (i = (i + 1) & 4095);
    const tasks: Record<PartnerRead, () => unknown> = {
      'nearest k=5': () => {
        const p = points[next()];
        return app.reads.findNear({ lat: p.lat, lon: p.lon, limit: 5, ...NO_FILTERS } as FindParams, NOW);
      },
      'area 0.2°, limit 200, answer assembled': () => app.reads.inArea(boxes[next()], NOW),
    };
    const partnerItemShare = partnerItems(boxes.map((box) => app.reads.inArea(box, NOW).toString()));

    const byRead = Object.fromEntries(PARTNER_READS.map((read) => [read, { withoutUs: [] as number[], withUs: [] as number[], costs: [] as number[] }])) as PartnerCost['byRead'];
    const measure = (overlays: OverlayChange) => {
      app.catalog.snapshot.change(overlays, NOW);
      return Object.fromEntries(PARTNER_READS.map((read) => [read, cpuMicrosPerCall(tasks[read], taskMs)])) as Record<PartnerRead, number>;
    };
    for (let pair = 0; pair < pairs; pair++) {
      const first = pair % 2 === 0 ? without : withPartners;
      const a = measure(first);
      const b = measure(first === without ? withPartners : without);
      const [off, on] = first === without ? [a, b] : [b, a];
      for (const read of PARTNER_READS) {
        const r = byRead[read];
        r.withoutUs.push(off[read]);
        r.withUs.push(on[read]);
        r.costs.push(on[read] / off[read] - 1);
      }
    }
    return { toilets: t.count, listings, closed, partnerItemShare, setupMs, pairs, byRead };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Claims, approves, plans and profiles `count` toilets spread evenly over the table, through the real
 * operations, as `npm run moderate` makes its changes: committed without a refresh per change, then shown
 * at once (refreshOverlays, as the server does for another process's commits). One transaction around
 * them all: this case measures the reads, not 40,000 commits.
 */
async function makeListings(app: App, count: number): Promise<{ listings: number; closed: number }> {
  const t = app.catalog.snapshot.table;
  const account = 'acc_partner_bench';
  const accounts = app.accounts.file;
  const context: PartnerContext = { store: new SqlitePartnerStore(accounts, app.accounts.events as SqliteAccountEventLog), now: () => NOW, toilets: app.catalog, changed: () => {} };
  const [claims, plans, profiles] = [new PartnerClaims(context), new PartnerPlans(context), new PartnerProfiles(context)];
  const step = t.count / count;
  let closed = 0;
  // the SQLite store runs each operation's transaction at once, as a savepoint of this one
  accounts.db.exec('BEGIN IMMEDIATE');
  accounts.db.prepare('INSERT INTO accounts (id, user_handle, display_name, created_at) VALUES (?, ?, ?, ?)').run(account, Buffer.from(account), 'Bench Partners', NOW);
  for (let n = 0; n < count; n++) {
    const claim = await claims.claim(account, toiletId(t, Math.floor(n * step)), { business_name: `Partner ${n}`, contact_email: 'partners@example.org' });
    await claims.approve(claim.id, 'bench');
    await plans.setManualPlan(claim.listing, n % 2 === 0 ? 'basic' : 'plus');
    const switchedOff = n % CLOSED_EVERY === 0;
    await profiles.update(account, claim.listing, { conditions: 'customers', opening_hours: BUSINESS_HOURS[n % BUSINESS_HOURS.length], ...(switchedOff ? { open_now: false } : {}) });
    if (switchedOff) closed++;
  }
  accounts.db.exec('COMMIT');
  app.catalog.refreshOverlays(null);
  return { listings: count, closed };
}

/** The share of items with a partner object in these area answers (each read before the next answer reuses its buffer). */
function partnerItems(answers: string[]): number {
  let items = 0;
  let partners = 0;
  for (const answer of answers) {
    for (const item of (JSON.parse(answer) as { results: { partner: unknown }[] }).results) {
      items++;
      if (item.partner !== null) partners++;
    }
  }
  return partners / items;
}

/** The section of the results: per read, each pair's means, the median cost and its spread, with the bound. */
export function partnerCostLines(r: PartnerCost): string[] {
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  const us = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');
  const lines = [
    '',
    `## Cost of partner listings (${r.toilets.toLocaleString('en')} toilets, in-process)`,
    '',
    `${r.listings.toLocaleString('en')} toilets (${pct(PARTNERED_SHARE)}) partnered through the real operations (claim, approval, manual plan, profile with`,
    `business hours; ${r.closed.toLocaleString('en')} with the live switch closed) in ${(r.setupMs / 1000).toFixed(1)} s; ${pct(r.partnerItemShare)} of the area items carry a partner.`,
    `${r.pairs} pairs in one process, each measuring the reads without and with the listings' overlay data (the order flips every`,
    'pair), in CPU µs per call (all threads of the process; other processes do not count); cost = with / without - 1',
    'of the same pair (`bench/partners.ts`).',
    '',
    '| read | CPU µs without, per pair | CPU µs with, per pair | median cost | spread (lowest..highest pair) | target | verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const read of PARTNER_READS) {
    const { withoutUs, withUs, costs } = r.byRead[read];
    const cost = median(costs);
    const [low, high] = [Math.min(...costs), Math.max(...costs)];
    // a miss that the pairs' own spread covers is reported as such, not as a failure
    const verdict = cost <= TARGETS.partnerCostMax ? 'PASS' : low <= TARGETS.partnerCostMax ? 'within spread' : 'FAIL';
    lines.push(`| ${read} | ${us(withoutUs)} | ${us(withUs)} | ${pct(cost)} | ${pct(low)}..${pct(high)} | ≤ ${pct(TARGETS.partnerCostMax)} | ${verdict} |`);
  }
  return lines;
}
