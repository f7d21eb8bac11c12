// The site's qualities beyond its flows, in Debian's chromium on the real Porto extract: every main flow by
// keyboard alone (search a place, toggle a filter, skip to the list, open a toilet, rate it with the human
// check) with the focus always visible and never dropped to <body> when the list is redrawn; no motion
// when the person asks for less (map camera jumps, no CSS transition or animation); and Chromium's own
// installability check of the web app manifest and its icons.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { tempDir } from '../support/extracts.js';
import { chromiumPath, CSP_WATCH, cspViolations, launchBrowser, startSite, type Site } from './browser.js';

// Browser globals inside page.evaluate callbacks (see site.test.ts for why they are declared here).
declare const window: any;
declare const document: any;
declare const getComputedStyle: any;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
/** Wednesday 5 June 2024, 09:00 in Porto. */
const NOW = Date.parse('2024-06-05T08:00:00Z');

interface Focused {
  tag: string;
  id: string;
  name: string | null;
  type: string | null;
  text: string;
  form: string | null;
  inList: boolean;
  /** A focus style is drawn: an outline or a box shadow. */
  visible: boolean;
}

/** The focused element, looking into shadow roots; null when focus is on <body> (lost). */
function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    let element = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element || element === document.body || element === document.documentElement) return null;
    const style = getComputedStyle(element);
    const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {
      tag: element.tagName.toLowerCase(), id: element.id, name: element.getAttribute('name'), type: element.getAttribute('type'),
      text: (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60), form: element.closest('form')?.dataset.op ?? element.closest('form')?.id ?? null,
      inList: element.closest('#result-list') !== null, visible: outlined || style.boxShadow !== 'none',
    };
  });
}

const describeFocus = (f: Focused) => `<${f.tag}${f.id ? '#' + f.id : ''}${f.name ? ` name=${f.name}` : ''}> "${f.text}"`;

/** Presses Tab (or Shift+Tab) until the focused element matches, checking at every step that focus is visible. */
async function tabTo(page: Page, match: (f: Focused) => boolean, what: string, back = false): Promise<Focused> {
  for (let step = 0; step < 80; step++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focused(page);
    assert.ok(now !== null, `focus fell to <body> while tabbing to ${what}`);
    assert.ok(now.visible, `no visible focus style on ${describeFocus(now)}`);
    if (match(now)) return now;
  }
  throw new Error(`${what} is not reachable with ${back ? 'Shift+Tab' : 'Tab'}`);
}

async function assertFocus(page: Page, match: (f: Focused) => boolean, what: string): Promise<void> {
  const now = await focused(page);
  assert.ok(now !== null, `focus fell to <body>: expected ${what}`);
  assert.ok(match(now), `focus is on ${describeFocus(now)}, expected ${what}`);
  assert.ok(now.visible, `no visible focus style on ${describeFocus(now)}`);
}

const listIds = (page: Page) => page.locator('#result-list li').evaluateAll((items) => items.map((li) => (li as any).dataset.id as string));

const browserPath = chromiumPath();

describe('keyboard, reduced motion and installability', { skip: browserPath === null ? 'chromium is not installed (apt-get install -y chromium)' : false, timeout: 600_000 }, () => {
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

  async function open(viewport: { width: number; height: number }, reducedMotion: 'reduce' | 'no-preference' = 'no-preference'): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: 'en-GB', reducedMotion });
    contexts.push(context);
    await context.addInitScript(CSP_WATCH);
    return context.newPage();
  }

  // each layout rates another toilet: a second new rater of one toilet from one address is refused (429)
  for (const [name, viewport, nth] of [['phone', PHONE, 0], ['desktop', DESKTOP, 1]] as const) {
    test(`${name}: search, filter, open a toilet and rate it with the keyboard only`, async () => {
      const page = await open(viewport);
      await page.goto(site.base + '/');
      await tabTo(page, (f) => f.tag === 'a' && f.text === 'Skip to content', 'the skip link');
      await tabTo(page, (f) => f.id === 'place', 'the place field');
      await page.keyboard.type('Trindade');
      await page.keyboard.press('Enter');
      await page.getByText('Nearest to Trindade').waitFor();
      await assertFocus(page, (f) => f.id === 'place', 'the place field after the results came');

      await tabTo(page, (f) => f.name === 'open_now', 'the "Open now" filter');
      const before = await listIds(page);
      const filtered = page.waitForResponse((r) => r.url().includes('/nearest?') && r.url().includes('open_now=true'));
      await page.keyboard.press('Space');
      await filtered;
      await page.waitForFunction((old) => [...document.querySelectorAll('#result-list li')].map((li: any) => li.dataset.id).join() !== old, before.join());
      assert.equal(await page.locator('input[name=open_now]').isChecked(), true);
      await assertFocus(page, (f) => f.name === 'open_now', 'the filter after the list was redrawn');

      // the list is the next stop after the filters
      const first = await tabTo(page, (f) => f.inList, 'the first toilet of the list');
      assert.equal(first.tag, 'a');
      // the list redrawn under the focus (the map view changed): focus stays in the list, not on <body>
      await page.waitForFunction(() => (window as unknown as { toiletMapShown?: number }).toiletMapShown! > 0);
      const area = page.waitForResponse((r) => r.url().includes('/api/v1/toilets?bbox='));
      // zoom 15: the phone's map strip at 16 holds no toilet there
      await page.evaluate(() => (window as unknown as { toiletMap: { jumpTo(o: object): void } }).toiletMap.jumpTo({ center: [-8.6115, 41.1485], zoom: 15 }));
      await area;
      await page.getByText('Toilets in the map view').waitFor();
      await assertFocus(page, (f) => f.inList || f.id === 'results', 'the list after it was redrawn');

      // a fresh page: the skip link to the results, then Enter on a toilet
      await page.goto(site.base + '/?place=Trindade');
      await page.locator('#result-list li').first().waitFor();
      await tabTo(page, (f) => f.tag === 'a' && f.text === 'Skip to the results', 'the skip link to the results');
      await page.keyboard.press('Enter');
      await tabTo(page, (f) => f.inList && f.tag === 'a', 'the first toilet after skipping');
      for (let i = 0; i < nth; i++) await tabTo(page, (f) => f.inList && f.tag === 'a', 'the next toilet');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/t\//);

      await tabTo(page, (f) => f.tag === 'summary' && f.text === 'Rate cleanliness', 'the rating form');
      await page.keyboard.press('Enter');
      await page.locator('form[data-op=rate] altcha-widget input[type=checkbox]').waitFor(); // loaded when the form opens
      await tabTo(page, (f) => f.name === 'rating', 'the stars');
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      assert.equal(await page.getByLabel('4 of 5').isChecked(), true);
      await tabTo(page, (f) => f.type === 'checkbox' && f.form === 'rate', 'the human check');
      await page.keyboard.press('Space');
      await page.waitForFunction(() => (document.querySelector('form[data-op=rate] input[name=challenge_token]')?.value ?? '') !== '');
      await tabTo(page, (f) => f.tag === 'button' && f.form === 'rate', 'the rating form\'s send button');
      await page.keyboard.press('Enter');
      await page.getByText(/^Thank you: cleanliness is now 4 of 5/).waitFor();
      await assertFocus(page, (f) => f.form === 'rate', 'the rating form after sending');
      assert.deepEqual(await cspViolations(page), []);
    });
  }

  /** Camera moves of the page's own fit (move events per move: 1 for a jump, many for an animation), the map's fade, and the elements still in motion by CSS. */
  async function motionOf(reducedMotion: 'reduce' | 'no-preference'): Promise<{ moves: number[]; fade: number; moving: string[] }> {
    const page = await open(DESKTOP, reducedMotion);
    await page.goto(site.base + '/?place=Trindade');
    await page.waitForFunction(() => (window as unknown as { toiletMapShown?: number }).toiletMapShown! > 0);
    await page.evaluate(() => {
      const map = window.toiletMap;
      window.moves = [];
      let count = 0;
      map.on('movestart', () => (count = 0));
      map.on('move', () => count++);
      map.on('moveend', () => window.moves.push(count));
    });
    await page.getByLabel('Place').fill('Avenida dos Aliados');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Nearest to Avenida dos Aliados, Porto').waitFor();
    await page.waitForFunction(() => window.moves.length > 0);
    await page.locator('.maplibregl-ctrl-attrib-button').waitFor({ state: 'attached' });
    return page.evaluate(() => {
      // a probe with its own transition and animation, as MapLibre's and ALTCHA's stylesheets give their elements
      const probe = document.createElement('div');
      probe.className = 'probe';
      probe.style.transition = 'opacity 1s';
      probe.style.animation = 'spin 1s infinite';
      document.body.append(probe);
      const moving: string[] = [];
      for (const element of document.querySelectorAll('*')) {
        for (const pseudo of [null, '::before', '::after']) {
          const style = getComputedStyle(element, pseudo);
          const seconds = (list: string) => list.split(',').some((d: string) => parseFloat(d) > 0);
          if (seconds(style.transitionDuration) || (style.animationName !== 'none' && seconds(style.animationDuration))) moving.push(`${element.tagName.toLowerCase()}.${String(element.className)}${pseudo ?? ''}`);
        }
      }
      // MapLibre's option, read back from the map (it has no public getter)
      return { moves: window.moves, fade: window.toiletMap._fadeDuration, moving };
    });
  }

  test('reduced motion: the map jumps instead of flying, labels do not fade, and nothing moves by CSS', async () => {
    const calm = await motionOf('reduce');
    assert.ok(calm.moves.every((n) => n === 1), `camera moves with ${calm.moves.join()} frames`);
    assert.equal(calm.fade, 0);
    assert.deepEqual(calm.moving, []);
    // the same page without the preference does animate: the checks above can see motion
    const lively = await motionOf('no-preference');
    assert.ok(lively.moves.some((n) => n > 1), `camera moves with ${lively.moves.join()} frames`);
    assert.ok(lively.fade > 0);
    assert.ok(lively.moving.includes('div.probe'), `without the preference the probe moves: ${lively.moving.join()}`);
  });

  test('installable: Chromium finds no installability error, and the manifest\'s PNG icons have the sizes it says', async () => {
    // a profile on disk: Chromium never offers to install from an incognito context (what newContext makes)
    const profile = tempDir();
    const context = await chromium.launchPersistentContext(profile.path, { executablePath: browserPath!, args: ['--no-sandbox'], viewport: PHONE });
    try {
      const page = await context.newPage();
      await page.goto(site.base + '/');
      await page.evaluate(() => (window as unknown as { navigator: { serviceWorker: { ready: Promise<unknown> } } }).navigator.serviceWorker.ready);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string; errorArguments: { name: string; value: string }[] }[] };
      assert.deepEqual(installabilityErrors.map((e) => [e.errorId, ...e.errorArguments.map((a) => `${a.name}=${a.value}`)].join(' ')), []);
    } finally {
      await context.close();
      profile.remove();
    }

    const manifest = (await (await fetch(site.base + '/manifest.webmanifest')).json()) as { icons: { src: string; sizes: string; type: string; purpose: string }[] };
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    assert.ok(pngs.some((icon) => icon.purpose === 'maskable'), 'a maskable icon');
    for (const icon of pngs) {
      const response = await fetch(site.base + icon.src);
      assert.equal(response.headers.get('content-type'), 'image/png');
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.equal(bytes.subarray(1, 4).toString('ascii'), 'PNG');
      assert.equal(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`, icon.sizes, icon.src);
    }
  });
});
