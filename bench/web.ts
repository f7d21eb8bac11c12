// npm run bench:web: the site's time to the first list of results on the phone profile (390×844, 4× CPU
// throttling in Debian's chromium), as a ratio to a ceiling measured in the same run: the same browser
// loading the licence page (our HTML and stylesheet, no script) to DOMContentLoaded. The ratio is the cost
// of our script, its request to findToiletsNear and the list's rendering; absolute times depend on the
// machine. Also the first visit of / (map first: the rows of the coverage's view, no action). Writes
// bench/WEB-RESULTS.md.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { TARGETS } from './targets.js';

const RUNS = 7;
const MONACO = join(process.cwd(), '..', 'shared', 'data', 'osm', 'monaco-2020-07-19.osm.pbf');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function throttled(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/** Marks when the result list first has rows. */
const FIRST_ROWS = `new MutationObserver((_, observer) => { const list = document.getElementById('result-list'); if (list && list.children.length) { window.__firstList = performance.now(); observer.disconnect(); } }).observe(document, { childList: true, subtree: true });`;

async function firstRows(page: Page): Promise<number> {
  // a function, not a string: the page's CSP (no 'unsafe-eval') refuses a string predicate
  await page.waitForFunction(() => (globalThis as { __firstList?: number }).__firstList !== undefined);
  return page.evaluate<number>('window.__firstList');
}

const dir = mkdtempSync(join(tmpdir(), 'bench-web-'));
try {
  const db = join(dir, 'toilets.db');
  execFileSync(process.execPath, [join(process.cwd(), 'dist', 'importer', 'cli.js'), MONACO, '--db', db, '--quiet']);
  const app = createApp({ config: loadConfig({ PORT: '0', HOST: '127.0.0.1', HTTP_THREADS: '1', TOILETS_DB: db, RATE_LIMIT_PER_MINUTE: '0', AREA_RATE_LIMIT_PER_MINUTE: '0' }), log: { info() {}, error() {} } });
  app.catalog.load();
  const port = await app.listen();
  const base = `http://localhost:${port}`;
  const browser = await chromium.launch({ executablePath: execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim(), args: ['--no-sandbox'] });
  const firstList: number[] = [];
  const firstVisit: number[] = [];
  const ceiling: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // a fresh context each run: a first visit, nothing cached, no service worker yet
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
    const page = await context.newPage();
    await throttled(page);
    await page.goto(`${base}/licenses`, { waitUntil: 'domcontentloaded' });
    ceiling.push(await page.evaluate<number>("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"));
    await context.close();

    const listContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
    const listPage = await listContext.newPage();
    await listPage.addInitScript(FIRST_ROWS);
    await throttled(listPage);
    // the list a search from coordinates draws (near me without the geolocation prompt)
    await listPage.goto(`${base}/?lat=43.7384&lon=7.4246`);
    firstList.push(await firstRows(listPage));
    await listContext.close();
    // the first visit of / (map first): the toilets of the coverage's view, without any action
    const visitContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
    const visitPage = await visitContext.newPage();
    await visitPage.addInitScript(FIRST_ROWS);
    await throttled(visitPage);
    await visitPage.goto(`${base}/`);
    firstVisit.push(await firstRows(visitPage));
    await visitContext.close();
  }
  await browser.close();
  await app.close();
  const ratio = median(firstList) / median(ceiling);
  const target = TARGETS.webFirstListRatio;
  const verdict = ratio <= target ? 'ok' : 'over';
  const report = `# Site benchmark\n\nPhone profile (390×844, touch), 4× CPU throttling, Debian chromium, Monaco, first visit (nothing cached), median of ${RUNS}.\n\n| figure | ms | ratio to ceiling | target | verdict |\n|---|---|---|---|---|\n| ceiling: licence page to DOMContentLoaded | ${median(ceiling).toFixed(0)} | 1 | – | – |\n| first list of results (\`/?lat=…&lon=…\`) | ${median(firstList).toFixed(0)} | ${ratio.toFixed(2)} | ≤ ${target} | ${verdict} |\n| first visit of \`/\` (map first): rows of the view, no action | ${median(firstVisit).toFixed(0)} | ${(median(firstVisit) / median(ceiling)).toFixed(2)} | – | – |\n`;
  writeFileSync(join(process.cwd(), 'bench', 'WEB-RESULTS.md'), report);
  console.log(report);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
