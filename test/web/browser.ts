// What the site's browser tests share: Debian's chromium driven by playwright-core (no browser download;
// .ci/run installs the package), a real app on a loopback port whose BASE_URL is http://localhost:<port>
// (the origin the page's contributions are checked against), a really imported extract, a cheap ALTCHA
// setting, and a stand-in for an operator's external map style on a second localhost port.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createApp, type App } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { importedCopy, tempDir, type ExtractName } from '../support/extracts.js';
import { SILENT } from '../support/server.js';
import { osmExtract } from '../support/paths.js';
import { buildTiles } from '../../importer/tiles.js';
import { importFromSource } from '../../importer/index.js';
import { DEMO_EXTRACT, installDemoTiles } from '../../src/first-import.js';

// Browser globals inside page.evaluate callbacks: declared here, in this module only, because the project's
// one TypeScript program cannot take the DOM types (they clash with Node's fetch types in the server code).
declare const window: any;
declare const document: any;

/** Debian's chromium, or null; with CI=true a missing browser throws instead (a skipped test would hide it). */
export function chromiumPath(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || null;
  } catch {
    if (process.env.CI === 'true') throw new Error('chromium is missing: apt-get install -y chromium (.ci/run does this)');
    return null;
  }
}

export async function launchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Site {
  app: App;
  base: string;
  /** The databases the app runs on (the operator's commands run on them too). */
  config: ReturnType<typeof loadConfig>;
  styleServer: Server;
  close(): Promise<void>;
}

/** A minimal external style (background only) on another localhost origin, with CORS as style hosts send it. */
async function startStyleServer(): Promise<{ server: Server; url: string }> {
  const style = JSON.stringify({ version: 8, sources: {}, layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#eae6df' } }] });
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    response.end(style);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://localhost:${(server.address() as { port: number }).port}/style.json` };
}

export interface SiteOptions {
  /** Build the extract's basemap tiles with tilemaker (TILES_DB); without them the map uses the external style. */
  tiles?: boolean;
  /** Serve the demo data shipped in data/demo/ with its basemap, as a first start does (the extract name is then ignored). */
  demo?: boolean;
  env?: Record<string, string>;
  /** Writes the source database itself (an extract of the test's own) instead of importing `extract`. */
  importInto?: (toiletsDb: string, dir: string) => Promise<void>;
}

export async function startSite(extract: ExtractName, now: () => number, options: SiteOptions = {}): Promise<Site> {
  const dir = tempDir();
  const toiletsDb = join(dir.path, 'toilets.db');
  if (options.demo) await importFromSource(DEMO_EXTRACT, toiletsDb, { quiet: true, demo: true });
  else if (options.importInto) await options.importInto(toiletsDb, dir.path);
  else await importedCopy(extract, toiletsDb);
  const tilesDb = join(dir.path, 'tiles.mbtiles');
  // a first start puts the demo's basemap beside its data (src/serve.ts)
  if (options.demo) installDemoTiles(tilesDb);
  if (options.tiles) {
    const outcome = await buildTiles(osmExtract(extract), tilesDb, { quiet: true });
    if (outcome.kind !== 'built') throw new Error(`the tiles were not built: ${outcome.message}`);
  }
  const style = await startStyleServer();
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: base,
    HTTP_THREADS: '1',
    TOILETS_DB: toiletsDb,
    RATE_LIMIT_PER_MINUTE: '1000000',
    AREA_RATE_LIMIT_PER_MINUTE: '1000000',
    ALTCHA_ALGORITHM: 'SHA-256',
    ALTCHA_COST: '1',
    ALTCHA_MAX_COUNTER: '20',
    TILES_DB: tilesDb,
    MAP_STYLE_URL: style.url,
    ...options.env,
  });
  const app = createApp({ config, log: SILENT, now });
  app.catalog.load();
  await app.listen();
  return {
    app,
    base,
    config,
    styleServer: style.server,
    close: async () => {
      await app.close();
      await new Promise((resolve) => style.server.close(resolve));
      dir.remove();
    },
  };
}

/** Collects Content-Security-Policy violations of every page of a context (read with cspViolations). */
export const CSP_WATCH = `window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`;

export async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

/** Solves the human check of a form (ALTCHA's checkbox), waiting until its token is in the form. */
export async function solveHumanCheck(page: Page, form: string): Promise<void> {
  const box = page.locator(`${form} altcha-widget input[type=checkbox]`);
  await box.waitFor();
  await box.click({ force: true }); // ALTCHA draws its own tick over the input and ticks it when solved
  await page.waitForFunction((selector) => {
    const input = document.querySelector(`${selector} input[name=challenge_token]`);
    return input !== null && input.value.length > 0;
  }, form);
}

/** axe-core's serious and critical findings on the page. */
export async function axeFindings(page: Page): Promise<string[]> {
  // evaluated through the DevTools protocol: a script tag would be (rightly) refused by the page's CSP
  await page.evaluate(readFileSync(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
