// The finder, map first (issue 43), in Debian's chromium against the real server: on the demo data with
// its shipped basemap (a fresh install) and on Andorra imported without tiles (the plain map). A first
// visit shows markers and rows without any action, MapLibre loading only after the first rows; moving the
// map lists the toilets in view (phone and desktop); a row in focus marks its marker and a marker under
// the pointer its row; on a phone the map stays above the list as it scrolls, a tapped marker brings its
// row below it and markers never overlap;
// "Near me" with a granted position and a shared ?place= link mark the origin and number the markers like
// the rows; unnamed toilets get titles; axe-core and the CSP find nothing (SCREENSHOTS=<dir> writes them).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumPath, CSP_WATCH, launchBrowser, startSite, type Site } from './browser.js';
import { inspect, PHONE, WIDE_DESKTOP } from './people.js';

const NOW = Date.parse('2026-06-15T10:00:00Z');
const executable = chromiumPath();

// Browser globals inside page.evaluate callbacks (the project's one TypeScript program has no DOM types).
declare const window: any;
declare const document: any;
declare const getComputedStyle: any;

interface Case {
  name: string;
  start: () => Promise<Site>;
  /** Where "Near me" is, inside the coverage. */
  position: { latitude: number; longitude: number };
  place: string;
  basemap: 'own' | 'plain';
  /** Whether the whole coverage fits one area request (else the list is the nearest to the centre). */
  areaFirst: boolean;
}

const CASES: Case[] = [
  { name: 'monaco-demo', start: () => startSite('monaco', () => NOW, { demo: true }), position: { latitude: 43.7384, longitude: 7.4246 }, place: 'Monte-Carlo', basemap: 'own', areaFirst: true },
  {
    name: 'andorra-no-tiles', start: () => startSite('andorra', () => NOW, { env: { MAP_STYLE_URL: '' } }),
    position: { latitude: 42.5075, longitude: 1.5218 }, place: 'Andorra la Vella', basemap: 'plain', areaFirst: false,
  },
];

const rowIds = (page: Page): Promise<string[]> => page.evaluate(() => [...document.querySelectorAll('#result-list li')].map((li: any) => li.dataset.id));
const mapReady = (page: Page) => page.waitForFunction(() => document.body.dataset.mapState === 'ready' && window.toiletMap?.loaded() && window.toiletMapShown > 0);
const highlighted = (page: Page, id: string): Promise<boolean> => page.evaluate((which) => window.toiletMap.getFeatureState({ source: 'toilets', id: which }).highlight === true, id);
const sourceFeatures = (page: Page, source: string): Promise<number> => page.evaluate(async (name) => (await window.toiletMap.getSource(name).getData()).features.length, source);
/** Where a toilet's marker is drawn on the page (after spreading), in page pixels. */
const markerPoint = (page: Page, id: string): Promise<{ x: number; y: number }> => page.evaluate(async (which) => {
  const feature = (await window.toiletMap.getSource('toilets').getData()).features.find((f: any) => f.properties.id === which);
  const { x, y } = window.toiletMap.project(feature.geometry.coordinates);
  const rect = window.toiletMap.getCanvas().getBoundingClientRect();
  return { x: rect.left + x, y: rect.top + y };
}, id);
/** The least distance in screen pixels between two markers' centres. */
const closestMarkers = (page: Page): Promise<number> => page.evaluate(async () => {
  const points = (await window.toiletMap.getSource('toilets').getData()).features.map((f: any) => window.toiletMap.project(f.geometry.coordinates));
  let least = Infinity;
  for (let i = 0; i < points.length; i++) for (let j = i + 1; j < points.length; j++) least = Math.min(least, Math.hypot(points[i].x - points[j].x, points[i].y - points[j].y));
  return least;
});
/** Marker centres at least this far apart (web/src/map-markers.ts MARKER_GAP, less a rounding hair). */
const MARKER_GAP = 27.5;

for (const c of CASES) {
  describe(`map first: ${c.name}`, { skip: executable === null ? 'chromium is not installed' : false }, () => {
    let site: Site;
    let browser: Browser;
    before(async () => {
      site = await c.start();
      browser = await launchBrowser(executable!);
    });
    after(async () => {
      await browser?.close();
      await site?.close();
    });

    const open = async (viewport: { width: number; height: number }, geolocation?: Case['position']): Promise<Page> => {
      const context = await browser.newContext({ viewport, locale: 'en-GB', serviceWorkers: 'block', ...(geolocation ? { geolocation, permissions: ['geolocation'] } : {}) });
      await context.addInitScript(CSP_WATCH);
      // when the first row appears: MapLibre must come after it
      await context.addInitScript(`new MutationObserver((_, o) => { const l = document.getElementById('result-list'); if (l && l.children.length) { window.__firstRows = performance.now(); o.disconnect(); } }).observe(document, { childList: true, subtree: true });`);
      return context.newPage();
    };

    for (const viewport of [PHONE, WIDE_DESKTOP]) {
      test(`a first visit shows the toilets on the map and in the list, without any action (${viewport.width}px)`, async () => {
        const page = await open(viewport);
        await page.goto(`${site.base}/`);
        await mapReady(page);
        const ids = await rowIds(page);
        assert.ok(ids.length > 0);
        assert.equal(await page.evaluate(() => window.toiletMapShown), ids.length, 'a marker per row');
        // toilets at one spot or close together on screen are spread apart, each one to tap
        await page.waitForFunction(async (count) => (await window.toiletMap.getSource('toilets').getData()).features.length === count, ids.length);
        assert.ok((await closestMarkers(page)) >= MARKER_GAP, `markers ${await closestMarkers(page)} px apart`);
        assert.equal(await page.evaluate(() => window.toiletMap.getStyle().layers.some((l: { id: string }) => l.id === 'place-names')), c.basemap === 'plain');
        const message = await page.locator('#find-message').textContent();
        assert.equal(message, c.areaFirst ? 'Toilets in the map view' : 'Toilets nearest the centre of the map; zoom in to see all toilets in view');
        if (c.basemap === 'plain') {
          await page.getByText(/^No basemap on this server yet: the operator adds it with npm run import -- --tiles/).waitFor();
          // on a phone the operator's note stays on screen with the map: one line, its whole text in the title
          const note = await page.locator('#map-message').evaluate((p) => ({ lines: Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)), title: p.title, text: p.textContent }));
          assert.equal(note.title, note.text);
          if (viewport === PHONE) assert.equal(note.lines, 1, 'one line under the phone map');
          else assert.ok(note.lines >= 1);
        } else assert.equal(await page.locator('#map-message').textContent(), '');
        if (!c.areaFirst) assert.ok((await sourceFeatures(page, 'overview')) > 0, 'the overview counts show the region');
        // MapLibre (the one script over 500 KB) was asked for after the first rows were drawn
        const timing = await page.evaluate(() => ({
          rows: window.__firstRows as number,
          maplibre: performance.getEntriesByType('resource').filter((e: any) => e.initiatorType === 'script' && e.decodedBodySize > 500_000).map((e: any) => e.startTime),
        }));
        assert.equal(timing.maplibre.length, 1);
        assert.ok(timing.maplibre[0] >= timing.rows, `MapLibre at ${timing.maplibre[0]} ms, first rows at ${timing.rows} ms`);
        // unnamed toilets say where they are
        await page.waitForFunction(() => [...document.querySelectorAll('#result-list li > a')].some((a: any) => /^Public toilet in /.test(a.textContent)));
        await page.waitForFunction(() => window.toiletMap.loaded());
        await inspect(page, `map-first-${c.name}`);
        await page.context().close();
      });
    }

    for (const viewport of [PHONE, WIDE_DESKTOP]) {
      test(`moving the map lists the toilets of the new view (${viewport.width}px)`, async () => {
        const page = await open(viewport);
        await page.goto(`${site.base}/`);
        await mapReady(page);
        const before = await rowIds(page);
        const box = (await page.locator('#map canvas').boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + box.width / 2 - box.width / 3, box.y + box.height / 2 - box.height / 4, { steps: 8 });
        await page.mouse.up();
        await page.waitForFunction((old) => [...document.querySelectorAll('#result-list li')].map((li: any) => li.dataset.id).join() !== old, before.join());
        assert.notDeepEqual(await rowIds(page), before);
        await page.context().close();
      });
    }

    test('on a phone the map stays above the list as it scrolls; a row in focus marks its marker; a tapped marker marks its row and brings it below the map', async () => {
      const context = await browser.newContext({ viewport: PHONE, locale: 'en-GB', serviceWorkers: 'block', hasTouch: true, isMobile: true });
      await context.addInitScript(CSP_WATCH);
      const page = await context.newPage();
      await page.goto(`${site.base}/`);
      await mapReady(page);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing wider than the phone (the row of filters scrolls on its own)');
      const ids = await rowIds(page);
      const last = ids[ids.length - 1];
      // the list scrolls under the map: the map's top stays at the screen's top
      await page.locator(`#result-list li[data-id="${last}"] a`).focus();
      await page.waitForFunction((id) => window.toiletMap.getFeatureState({ source: 'toilets', id }).highlight === true, last);
      const mapBox = (await page.locator('#map-wrap').boundingBox())!;
      assert.ok(Math.abs(mapBox.y) < 1, `the map's top at ${mapBox.y} px`);
      const focused = (await page.locator(`#result-list li[data-id="${last}"]`).boundingBox())!;
      assert.ok(focused.y >= mapBox.y + mapBox.height - 1 && focused.y + focused.height <= PHONE.height + 1, 'the row in focus shows below the map');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForFunction(() => window.toiletMap.loaded() && !window.toiletMap.isMoving());
      // a marker of a row below the first screen, the nearest the map's middle (clear of the map's buttons):
      // tapped, its row is marked and scrolled into sight below the map
      const canvas = (await page.locator('#map canvas').boundingBox())!;
      const middle = { x: canvas.x + canvas.width / 2, y: canvas.y + canvas.height / 2 };
      const below = await Promise.all(ids.slice(4).map(async (id) => ({ id, point: await markerPoint(page, id) })));
      const { id: tapped, point } = below.sort((a, b) => Math.hypot(a.point.x - middle.x, a.point.y - middle.y) - Math.hypot(b.point.x - middle.x, b.point.y - middle.y))[0];
      await page.touchscreen.tap(point.x, point.y);
      await page.waitForFunction((id) => document.querySelector(`#result-list li[data-id="${id}"]`)?.classList.contains('highlighted'), tapped);
      const row = (await page.locator(`#result-list li[data-id="${tapped}"]`).boundingBox())!;
      const mapAfter = (await page.locator('#map-wrap').boundingBox())!;
      assert.ok(row.y >= mapAfter.y + mapAfter.height - 1 && row.y + row.height <= PHONE.height + 1, `the tapped marker's row at ${row.y} px, the map ends at ${mapAfter.y + mapAfter.height}`);
      // the switch gives the map most of the screen and says so
      const small = mapAfter.height;
      await page.getByRole('button', { name: 'Larger map' }).click();
      await page.locator('#map-size[aria-pressed="true"]').waitFor();
      await page.waitForFunction((height) => document.getElementById('map-wrap').getBoundingClientRect().height > height * 1.5, small);
      await inspect(page, `map-first-${c.name}-phone-large`);
      await context.close();
    });

    test('a row in focus marks its marker; a marker under the pointer marks its row', async () => {
      const page = await open(WIDE_DESKTOP);
      await page.goto(`${site.base}/`);
      await mapReady(page);
      const [first, second] = await rowIds(page);
      await page.locator(`#result-list li[data-id="${first}"] a`).focus();
      await page.waitForFunction((id) => window.toiletMap.getFeatureState({ source: 'toilets', id }).highlight === true, first);
      await page.locator(`#result-list li[data-id="${second}"] a`).focus();
      await page.waitForFunction((id) => window.toiletMap.getFeatureState({ source: 'toilets', id }).highlight === true, second);
      assert.equal(await highlighted(page, first), false, 'one marker marked at a time');
      await page.locator('#place').focus(); // focus leaves the list
      await page.waitForFunction((id) => window.toiletMap.getFeatureState({ source: 'toilets', id }).highlight !== true, second);

      const point = await markerPoint(page, second);
      await page.mouse.move(point.x, point.y);
      await page.waitForFunction((id) => document.querySelector(`#result-list li[data-id="${id}"]`)?.classList.contains('highlighted'), second);
      await page.context().close();
    });

    test('"Near me" with a granted position lists the nearest, marks the origin and numbers the markers like the rows', async () => {
      const page = await open(PHONE, c.position);
      await page.goto(`${site.base}/`);
      await mapReady(page);
      await page.getByRole('button', { name: 'Near me' }).click();
      await page.getByText('Nearest to your position.').waitFor();
      await page.waitForFunction(async () => (await window.toiletMap.getSource('origin').getData()).features.length === 1);
      const numbers = await page.evaluate(async () => {
        const rows = [...document.querySelectorAll('#result-list li')].map((li: any) => [li.dataset.id, li.querySelector('.marker-number').textContent]);
        const markers = new Map((await window.toiletMap.getSource('toilets').getData()).features.map((f: any) => [f.properties.id, String(f.properties.number)]));
        return rows.map(([id, n]) => [n, markers.get(id)]);
      });
      assert.ok(numbers.length > 0);
      numbers.forEach(([row, marker], i) => assert.deepEqual([row, marker], [String(i + 1), String(i + 1)]));
      assert.match((await page.locator('#result-list li .dist').first().textContent())!, / m|km/);
      await page.context().close();
    });

    test('a shared ?place= link opens on the place with its origin marked', async () => {
      for (const viewport of [PHONE, WIDE_DESKTOP]) {
        const page = await open(viewport);
        await page.goto(`${site.base}/?place=${encodeURIComponent(c.place)}`);
        await page.getByText(/^Nearest to /).waitFor();
        await mapReady(page);
        await page.waitForFunction(async () => (await window.toiletMap.getSource('origin').getData()).features.length === 1);
        assert.ok((await rowIds(page)).length > 0);
        await page.waitForFunction(() => window.toiletMap.loaded());
        await inspect(page, `map-first-${c.name}-place`);
        await page.context().close();
      }
    });
  });
}
