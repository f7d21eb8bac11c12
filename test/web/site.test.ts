// The site in Debian's chromium against the real server on the real Porto extract (fixed clock: some
// toilets are closed then, so every filter changes the results): find near me and by place, the filters on
// list and map, the area of a moved map and the 0.2° limit, a toilet's page, every contribution kind with
// its effect after a reload, an invalid field and a 429 shown to the person, offline after saving an area,
// the list-only fallback without WebGL2, the language switch, the demo-data notice, axe-core on every page
// in both layouts, the service worker's allow-list, and no CSP violation anywhere. One browser for the file.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeFindings, chromiumPath, CSP_WATCH, cspViolations, launchBrowser, solveHumanCheck, startSite, type Site } from './browser.js';
import { offlineKind } from '../../src/web/offline-policy.js';
import { noTilemaker } from '../support/tilemaker.js';

// Browser globals inside page.evaluate callbacks: declared here, in this module only, because the project's
// one TypeScript program cannot take the DOM types (they clash with Node's fetch types in the server code).
declare const window: any;
declare const document: any;
declare const navigator: any;
declare const caches: any;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** Wednesday 5 June 2024, 09:00 in Porto. */
const NOW = Date.parse('2024-06-05T08:00:00Z');
const PORTO = { latitude: 41.1466, longitude: -8.611 };
const FILTER_LABELS = { open_now: 'Open now', wheelchair: 'Wheelchair accessible', changing_table: 'Changing table', free: 'Free of charge', no_purchase_needed: 'No purchase needed' };

const browserPath = chromiumPath();

describe('the site in a browser', { skip: browserPath === null ? 'chromium is not installed (apt-get install -y chromium)' : false, timeout: 600_000 }, () => {
  let site: Site;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    site = await startSite('porto', () => NOW);
    browser = await launchBrowser(browserPath!);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  async function open(viewport: { width: number; height: number }, options: { locale?: string; noWebgl?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: options.locale ?? 'en-GB', geolocation: PORTO, permissions: ['geolocation'] });
    contexts.push(context);
    await context.addInitScript(CSP_WATCH);
    if (options.noWebgl) {
      await context.addInitScript(`{ const get = HTMLCanvasElement.prototype.getContext; HTMLCanvasElement.prototype.getContext = function (type, ...rest) { return type === 'webgl2' ? null : get.call(this, type, ...rest); }; }`);
    }
    return context.newPage();
  }

  /** Ids in the list, in order. */
  const listIds = (page: Page) => page.locator('#result-list li').evaluateAll((items) => items.map((li) => (li as any).dataset.id as string));
  /** What the map shows: the number of toilets given to it, once it has drawn them. */
  const mapCount = (page: Page) => page.evaluate(() => (window as unknown as { toiletMapShown?: number }).toiletMapShown ?? -1);
  const api = async (path: string): Promise<any> => (await fetch(site.base + path)).json();

  for (const [name, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    test(`${name}: near me lists the nearest toilets and the map shows the same ones`, async () => {
      const page = await open(viewport);
      await page.goto(site.base + '/');
      const request = page.waitForRequest((r) => r.url().includes('/api/v1/toilets/nearest?'));
      await page.getByRole('button', { name: 'Near me' }).click();
      assert.match((await request).url(), /lat=41\.14660&lon=-8\.61100/);
      await page.locator('#result-list li').first().waitFor();
      const expected = await api('/api/v1/toilets/nearest?lat=41.14660&lon=-8.61100&limit=20');
      assert.deepEqual(await listIds(page), expected.results.map((r: { id: string }) => r.id));
      assert.match(await page.locator('#result-list li').first().innerText(), /\d+ m · \d+ minutes? on foot, heading (north|south|east|west)/);
      await page.waitForFunction((n) => (window as unknown as { toiletMapShown?: number }).toiletMapShown === n, expected.results.length);
      assert.deepEqual(await cspViolations(page), []);
    });
  }

  test('the page gets its answers in gzip, and Chromium decodes them to the plain answers byte for byte', async () => {
    const page = await open(DESKTOP);
    await page.goto(site.base + '/');
    const answered = page.waitForResponse((r) => r.url().includes('/api/v1/toilets/nearest?'));
    await page.getByRole('button', { name: 'Near me' }).click();
    const response = await answered;
    assert.equal((await response.allHeaders())['content-encoding'], 'gzip');
    const plain = (path: string) => fetch(site.base + path, { headers: { 'Accept-Encoding': 'identity' } }).then((r) => r.text());
    const path = new URL(response.url()).pathname + new URL(response.url()).search;
    assert.equal((await response.body()).toString('latin1'), await plain(path));
    const id = JSON.parse(await plain(path)).results[0].id as string;
    for (const other of ['/api/v1/toilets?bbox=-8.63,41.13,-8.59,41.16&limit=50', `/api/v1/toilets/${id}`, '/api/v1/toilets/nearest?lat=41.1466&lon=-8.611&limit=20&open_now=true']) {
      const coded = page.waitForResponse((r) => r.url().endsWith(other));
      const text = await page.evaluate(async (url) => (await fetch(url)).text(), other);
      assert.equal((await (await coded).allHeaders())['content-encoding'], 'gzip', other);
      assert.equal(text, await plain(other), other);
    }
  });

  test('a place search, each filter changing both the list and the map', async () => {
    const page = await open(DESKTOP);
    await page.goto(site.base + '/');
    await page.getByLabel('Place').fill('Avenida dos Aliados');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Nearest to Avenida dos Aliados, Porto').waitFor();
    const unfiltered = await listIds(page);
    assert.equal(unfiltered.length, 20);
    for (const [filter, label] of Object.entries(FILTER_LABELS)) {
      const request = page.waitForResponse((r) => r.url().includes(`${filter}=true`) && r.url().includes('/nearest?'));
      await page.getByLabel(label).check();
      await request;
      const expected = await api(`/api/v1/toilets/nearest?place=Avenida%20dos%20Aliados&limit=20&${filter}=true`);
      const ids = expected.results.map((r: { id: string }) => r.id);
      await page.waitForFunction((want) => [...document.querySelectorAll('#result-list li')].map((li: any) => li.dataset.id).join() === want, ids.join());
      assert.notDeepEqual(ids, unfiltered, `${filter} changes the results`);
      await page.waitForFunction((n) => (window as unknown as { toiletMapShown?: number }).toiletMapShown === n, ids.length);
      const uncheck = page.waitForResponse((r) => r.url().includes('/nearest?') && !r.url().includes(`${filter}=true`));
      await page.getByLabel(label).uncheck();
      await uncheck;
    }
    assert.deepEqual(await cspViolations(page), []);
  });

  test('moving the map asks for its area once it settles; a view wider than 0.2° lists the nearest to its centre over the overview', async () => {
    const page = await open(DESKTOP);
    await page.goto(site.base + '/?place=Trindade');
    await page.getByText('Nearest to Trindade').waitFor();
    await page.waitForFunction(() => (window as unknown as { toiletMapShown?: number }).toiletMapShown! > 0);
    const area = page.waitForRequest((r) => r.url().includes('/api/v1/toilets?bbox='));
    await page.evaluate(() => (window as unknown as { toiletMap: { jumpTo(o: object): void } }).toiletMap.jumpTo({ center: [-8.6115, 41.1485], zoom: 15 }));
    const url = new URL((await area).url());
    const [west, south, east, north] = url.searchParams.get('bbox')!.split(',').map(Number);
    assert.ok(east - west <= 0.2 && north - south <= 0.2);
    await page.getByText('Toilets in the map view').waitFor();
    const expected = await api(url.pathname + url.search);
    assert.deepEqual(await listIds(page), expected.results.map((r: { id: string }) => r.id));
    assert.equal(await mapCount(page), expected.results.length);

    let wideRequests = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/toilets?')) wideRequests++;
    });
    const overview = page.waitForRequest((r) => /\/overview\/9\/\d+\/\d+\.json$/.test(r.url()));
    const nearest = page.waitForRequest((r) => r.url().includes('/api/v1/toilets/nearest?lat='));
    await page.evaluate(() => (window as unknown as { toiletMap: { jumpTo(o: object): void } }).toiletMap.jumpTo({ zoom: 9 }));
    await Promise.all([overview, nearest]);
    await page.getByText('Toilets nearest the centre of the map; zoom in to see all toilets in view').waitFor();
    assert.equal(wideRequests, 0, 'a wide view is never split into area requests');
  });

  test('the toilet page says every fact in plain words and works without JavaScript', async () => {
    const page = await open(PHONE);
    await page.goto(site.base + '/?place=Trindade');
    await page.locator('#result-list li a').first().click();
    await page.waitForURL(/\/t\//);
    for (const heading of ['Who may use it', 'Opening hours', 'Accessibility and facilities', 'How sure we are', 'Where each fact comes from', 'Directions']) {
      await page.getByRole('heading', { name: heading }).waitFor();
    }
    await page.getByText(/From OpenStreetMap/).first().waitFor();
    const context = await browser.newContext({ javaScriptEnabled: false });
    contexts.push(context);
    const noJs = await context.newPage();
    await noJs.goto(page.url());
    await noJs.getByRole('heading', { name: 'Who may use it' }).waitFor();
    await noJs.goto(site.base + '/?place=Trindade');
    assert.ok((await noJs.locator('#result-list li').count()) > 0, 'the landing page answers a place search without JavaScript');
  });

  test('confirm, rate, report and vote, each visible after a reload; a second new voter from one address gets 429 explained', async () => {
    const found = await api('/api/v1/toilets/nearest?lat=41.1466&lon=-8.611&limit=1');
    const id = found.results[0].id as string;
    const page = await open(PHONE);
    await page.goto(`${site.base}/t/${id}`);

    await page.getByText('It is here', { exact: true }).click();
    await solveHumanCheck(page, 'form[data-op=confirm]');
    await page.locator('form[data-op=confirm] button[type=submit]').click();
    await page.getByText('Thank you: confirmed once in the last 12 months.').waitFor();

    await page.getByText('Rate cleanliness', { exact: true }).click();
    await page.getByLabel('4 of 5').check();
    await solveHumanCheck(page, 'form[data-op=rate]');
    await page.locator('form[data-op=rate] button[type=submit]').click();
    await page.getByText('Thank you: cleanliness is now 4 of 5 (1 rating).').waitFor();

    await page.getByText('Correct a fact', { exact: true }).click();
    await page.getByLabel('Fact', { exact: true }).selectOption('name');
    await page.getByLabel('Correct value').fill('Trindade WC');
    await solveHumanCheck(page, 'form[data-op=vote]');
    await page.locator('form[data-op=vote] button[type=submit]').click();
    await page.getByText('Thank you: your vote counts.').waitFor();

    await page.getByText('Report a problem', { exact: true }).click();
    await page.getByLabel('Problem').selectOption('wrong_hours');
    await solveHumanCheck(page, 'form[data-op=report]');
    await page.locator('form[data-op=report] button[type=submit]').click();
    await page.locator('form[data-op=report] .form-status').getByText('Thank you: a moderator will check it.').waitFor();

    await page.reload();
    await page.getByText(/Confirmed once in the last 12 months/).waitFor();
    await page.getByText('Cleanliness 4 of 5 stars (1 rating).').waitFor();
    await page.getByText(/^Name: decided by \d of \d votes?/).waitFor();
    await page.getByText(/^Disputed:/).waitFor();

    // another person (another device) from the same address: one new voter per toilet and address a day
    const other = await open(DESKTOP);
    await other.goto(`${site.base}/t/${id}`);
    await other.getByText('Correct a fact', { exact: true }).click();
    await other.getByLabel('Correct value').fill('permissive');
    await solveHumanCheck(other, 'form[data-op=vote]');
    await other.locator('form[data-op=vote] button[type=submit]').click();
    await other.getByText('From this network, one new rating or vote per toilet and day is possible. Try again tomorrow.').waitFor();
    assert.deepEqual(await cspViolations(page), []);
  });

  test('contributions switched off: the form says so and when to try again', async () => {
    const off = await startSite('monaco', () => NOW, { env: { CONTRIBUTIONS_ENABLED: 'false' } });
    try {
      const id = ((await (await fetch(`${off.base}/api/v1/toilets/nearest?lat=43.7384&lon=7.4246&limit=1`)).json()) as { results: { id: string }[] }).results[0].id;
      const page = await open(PHONE);
      await page.goto(`${off.base}/t/${id}`);
      await page.getByText('It is here', { exact: true }).click();
      // the widget's challenge is refused already: the form says so before anything is sent
      await page.locator('form[data-op=confirm] altcha-widget input[type=checkbox]').click({ force: true });
      await page.getByText(/^Contributions are not possible right now\. Try again (in [\d,]+ seconds?|later)\.$/).waitFor();
    } finally {
      await off.close();
    }
  });

  test('a proposal: an invalid field is shown next to it, then the proposal is sent', async () => {
    const page = await open(DESKTOP);
    await page.goto(site.base + '/propose?lat=41.1466&lon=-8.611');
    await page.getByLabel('Opening hours (optional, e.g. Mo-Fr 08:00-18:00)').fill('x'.repeat(10) + ' nonsense hours');
    await page.getByLabel('Name (optional)').fill('Café toilet');
    await solveHumanCheck(page, '#propose');
    await page.getByRole('button', { name: 'Send' }).click();
    const hours = page.getByLabel('Opening hours (optional, e.g. Mo-Fr 08:00-18:00)');
    await page.waitForFunction(() => document.querySelector('#p-opening_hours')?.getAttribute('aria-invalid') === 'true');
    const errorId = await hours.getAttribute('aria-errormessage');
    assert.equal(await page.locator(`#${errorId}`).innerText(), 'These opening hours cannot be read. Write them like Mo-Fr 08:00-18:00; Sa 09:00-12:00.');
    await hours.fill('Mo-Fr 08:00-18:00');
    await solveHumanCheck(page, '#propose');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thank you: a moderator will check it.').waitFor();
    assert.equal(await hours.getAttribute('aria-invalid'), null);
  });

  test('without WebGL2 the page is a list with a word why', async () => {
    const page = await open(PHONE, { noWebgl: true });
    await page.goto(site.base + '/');
    await page.getByRole('button', { name: 'Near me' }).click();
    await page.locator('#result-list li').first().waitFor();
    await page.getByText(/The map is not available here \(this browser cannot draw the map\)/).waitFor();
    assert.equal(await page.locator('#map-wrap').isHidden(), true);
  });

  test('the language follows the browser and the switch', async () => {
    const page = await open(PHONE, { locale: 'de-DE' });
    await page.goto(site.base + '/');
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    await page.getByRole('button', { name: 'In meiner Nähe' }).waitFor();
    await page.locator('nav.lang summary').click();
    await page.getByRole('link', { name: 'Português' }).click();
    await page.getByRole('button', { name: 'Perto de mim' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-PT');
    await page.getByRole('link', { name: 'Propor uma casa de banho' }).click();
    await page.waitForURL(/\/propose\?lang=pt$/);
    await page.getByRole('heading', { name: 'Propor uma casa de banho' }).waitFor();
    // the choice sticks (the switch's cookie), over the browser's German
    await page.goto(site.base + '/licenses');
    await page.getByRole('heading', { name: 'Fontes de dados e licenças' }).waitFor();
    await page.locator('nav.lang summary').click();
    await page.getByRole('link', { name: 'English' }).click();
    await page.goto(site.base + '/');
    await page.getByRole('button', { name: 'Near me' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'en-GB');
  });

  test('the demo-data notice shows on the demo data (from the real /status), and not on an operator\'s data', async () => {
    const page = await open(PHONE);
    await page.goto(site.base + '/');
    await page.waitForLoadState('networkidle');
    assert.equal(await page.locator('#demo-notice').isHidden(), true, 'Porto, imported by an operator: no notice');
    const demo = await startSite('monaco', () => NOW, { demo: true });
    try {
      const status = (await (await fetch(`${demo.base}/status`)).json()) as { demo: boolean; region: string };
      assert.deepEqual([status.demo, status.region], [true, 'Monaco']);
      await page.goto(demo.base + '/');
      await page.getByText(/^Demo data: Monaco, as of July 2020\. Import your own region with npm run import/).waitFor();
    } finally {
      await demo.close();
    }
  });

  test('axe-core finds nothing serious on any page in either layout', async () => {
    const found = await api('/api/v1/toilets/nearest?lat=41.1466&lon=-8.611&limit=1');
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await open(viewport);
      for (const path of ['/', '/?place=Trindade', `/t/${found.results[0].id}`, '/propose', '/licenses', '/t/n0']) {
        await page.goto(site.base + path);
        await page.waitForLoadState('networkidle');
        assert.deepEqual(await axeFindings(page), [], `${path} at ${viewport.width}px`);
      }
    }
  });

  test('with basemap tiles of its own, the map draws our style from /tiles/ and a saved area keeps its tiles', { skip: noTilemaker }, async () => {
    const own = await startSite('monaco', () => NOW, { tiles: true });
    try {
      const context = await browser.newContext({ viewport: DESKTOP, geolocation: { latitude: 43.7384, longitude: 7.4246 }, permissions: ['geolocation'] });
      contexts.push(context);
      await context.addInitScript(CSP_WATCH);
      const page = await context.newPage();
      const tiles: number[] = [];
      page.on('response', (r) => {
        if (/\/tiles\/\d+\/\d+\/\d+\.pbf$/.test(r.url())) tiles.push(r.status());
      });
      await page.goto(own.base + '/');
      await page.getByRole('button', { name: 'Near me' }).click();
      await page.waitForFunction(() => (window as unknown as { toiletMapShown?: number }).toiletMapShown! > 0);
      await page.waitForFunction(() => (window as unknown as { toiletMap: { loaded(): boolean } }).toiletMap.loaded());
      const layers = await page.evaluate(() => (window as unknown as { toiletMap: { getStyle(): { layers: { id: string }[] } } }).toiletMap.getStyle().layers.map((l) => l.id));
      assert.ok(layers.includes('road') && layers.includes('toilet'), layers.join());
      assert.ok(tiles.some((status) => status === 200), `tiles answered ${tiles.join()}`);
      await page.getByRole('button', { name: 'Save this area for offline use' }).click();
      const saved = await page.getByText(/^Saved for offline use on/).innerText();
      const kept: string[] = await page.evaluate(async () => (await (await caches.open('saved-area')).keys()).map((r: { url: string }) => new URL(r.url).pathname));
      assert.ok(kept.some((path) => /^\/tiles\/14\//.test(path)), `${saved}: ${kept.join()}`);
      assert.deepEqual(await cspViolations(page), []);

      // proposing: the map opens on the last view, and a click drops the pin that fills the position
      await page.goto(own.base + '/propose');
      await page.waitForFunction(() => (window as unknown as { toiletMap?: { loaded(): boolean } }).toiletMap?.loaded() === true);
      await page.locator('#map canvas').click({ position: { x: 200, y: 120 } });
      const lat = Number(await page.getByLabel('Latitude').inputValue());
      const lon = Number(await page.getByLabel('Longitude').inputValue());
      assert.ok(Math.abs(lat - 43.73) < 0.05 && Math.abs(lon - 7.42) < 0.05, `pin at ${lat}, ${lon}`);
    } finally {
      await own.close();
    }
  });

  test('offline after saving an area: the page, the list and the saved toilets come back, marked with their date', async () => {
    const page = await open(DESKTOP);
    await page.goto(site.base + '/?place=Trindade');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload(); // now under the service worker's control
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.waitForFunction(() => (window as unknown as { toiletMapShown?: number }).toiletMapShown! > 0);
    const area = page.waitForResponse((r) => r.url().includes('/api/v1/toilets?bbox='));
    await page.evaluate(() => (window as unknown as { toiletMap: { jumpTo(o: object): void } }).toiletMap.jumpTo({ center: [-8.6115, 41.1485], zoom: 15 }));
    await area;
    await page.getByText('Toilets in the map view').waitFor();
    const online = await listIds(page);
    await page.getByRole('button', { name: 'Save this area for offline use' }).click();
    await page.getByText(/^Saved for offline use on .* \(\d+(\.\d)? (kB|MB)\)\.$/).waitFor();

    await page.context().setOffline(true);
    await page.goto(site.base + '/');
    await page.getByText(/Offline: showing data saved on/).waitFor();
    assert.deepEqual(await listIds(page), online);
    await page.context().setOffline(false);

    // what the worker kept: only the allow-list (public reads, tiles, hashed assets, public pages)
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    });
    assert.ok(kept.length > 0);
    for (const path of kept) assert.notEqual(offlineKind('GET', path), null, `${path} is not on the allow-list`);
    assert.ok(!kept.some((path) => path.startsWith('/api/v1/challenge') || path === '/status'));
  });
});
