// The site in each of its languages in Chromium: every page rendered in French, Italian, Spanish,
// Portuguese, Dutch and German (chosen by the browser's Accept-Language) leaves no English on the page,
// in its text or its labels (placeholders, aria-label, alt, title), apart from proper names (marked
// translate="no"), the OpenStreetMap credit and the mappers' own words quoted in a toilet's details;
// among the pages are toilets with details and the key systems' pages (RADAR, Eurokey), and, signed in as
// a moderator with a pending claim, the account's contents, the moderation queue and the partner dashboard
// (the OAuth pages have their own test: test/oauth/page-texts.test.ts). The human check
// and the map's controls speak it too. The service worker keeps pages per language: offline, a page
// never comes back in another language than the one in use. SCREENSHOTS=<dir> writes the finder and a
// toilet page in French and Portuguese (phone), a toilet page on the desktop, a toilet's details in
// French and the Eurokey page in Dutch (phone).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumPath, CSP_WATCH, cspViolations, launchBrowser, startSite, type Site } from './browser.js';
import { CATALOGUES } from '../../src/web/text/catalogues.js';
import { LOCALES, type Language, type Message } from '../../src/web/text/catalogue.js';
import { en } from '../../src/web/text/en.js';
import { importDetailsExtract } from '../support/details-extract.js';
import { PHONE, WIDE_DESKTOP as DESKTOP } from './people.js';
import { serviceClient } from '../community/support.js';
import { createAccountInPage, virtualAuthenticator } from '../oauth/browser-consent.js';

declare const document: any;
declare const window: any;
declare const navigator: any;
declare const caches: any;

/** Wednesday 5 June 2024, 09:00 in Porto. */
const NOW = Date.parse('2024-06-05T08:00:00Z');
const PORTO = { latitude: 41.1466, longitude: -8.611 };
const TRANSLATED: Language[] = ['fr', 'it', 'es', 'pt', 'nl', 'de'];
/** English words that no sentence of these languages uses (Dutch writes "toilet" too). */
const ENGLISH_WORDS = ['the', 'and', 'you', 'your', 'with', 'this', 'that', 'near', 'toilets', 'search', 'sign', 'closed', 'free', 'are', 'not', 'from', 'here', 'please', 'again', 'only', 'who', 'may', 'fee', 'hours', 'walk', 'none', 'unknown', 'offline'];
const LEGIT: Partial<Record<Language, string[]>> = { de: ['offline'], it: ['offline'], nl: ['offline'] };

const forms = (message: Message): string[] => (typeof message === 'string' ? [message] : Object.entries(message).filter(([k]) => k !== 'plural').map(([, v]) => v as string));

/** English phrases of the catalogue (its texts cut at the placeholders), except those the language writes the same. */
function englishPhrases(lang: Language): string[] {
  const own = Object.values(CATALOGUES[lang]).flatMap((m) => forms(m!)).join('\n');
  return [...new Set(Object.values(en).flatMap((m) => forms(m)).flatMap((t) => t.split(/\{\w+\}/)))]
    .map((phrase) => phrase.replace(/^[\s.,:;()–·]+|[\s.,:;()–·]+$/g, ''))
    .filter((phrase) => phrase.length >= 8 && /\s/.test(phrase) && !own.includes(phrase));
}

/** Everything a person reads or hears on the page, except what is marked translate="no" and the map's credits. */
function pageWords(page: Page): Promise<string> {
  return page.evaluate(() => {
    const skip = (el: any) => el.closest('[translate="no"], .maplibregl-ctrl-attrib-inner, .mapper-words, script, style, noscript') !== null;
    // a proper name marked on the page is one in its title and description too
    const names: string[] = [...document.querySelectorAll('[translate="no"]')].map((el: any) => el.textContent).filter((name: string) => name.trim() !== '');
    const unnamed = (value: string) => names.reduce((rest, name) => rest.split(name).join(' '), value);
    const texts: string[] = [unnamed(document.title), unnamed(document.querySelector('meta[name=description]')?.getAttribute('content') ?? '')];
    const walker = document.createTreeWalker(document.body, 4 /* NodeFilter.SHOW_TEXT */);
    while (walker.nextNode()) if (!skip(walker.currentNode.parentElement)) texts.push(walker.currentNode.textContent);
    for (const el of document.querySelectorAll('*')) {
      if (skip(el)) continue;
      for (const name of ['placeholder', 'aria-label', 'alt', 'title', 'data-signed-in-text']) if (el.hasAttribute(name)) texts.push(el.getAttribute(name));
    }
    return texts.join('\n');
  });
}

const browserPath = chromiumPath();

describe('the site in seven languages', { skip: browserPath === null ? 'chromium is not installed (apt-get install -y chromium)' : false, timeout: 900_000 }, () => {
  let site: Site;
  /** The extract whose toilets carry details (RADAR, Eurokey, another key), beside the key systems' pages. */
  let detailsSite: Site;
  let browser: Browser;
  let toilet: string;

  before(async () => {
    // the sign-in budget lifted: the pages above ask for sign-in options in every language before the signed-in test signs up
    site = await startSite('porto', () => NOW, { env: { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' } });
    detailsSite = await startSite('monaco', () => NOW, { importInto: (db, dir) => importDetailsExtract(dir, db).then(() => undefined) });
    browser = await launchBrowser(browserPath!);
    const found = (await (await fetch(`${site.base}/api/v1/toilets/nearest?lat=41.1466&lon=-8.611&limit=20`)).json()) as { results: { id: string; opening_hours: string | null }[] };
    toilet = `/t/${(found.results.find((r) => r.opening_hours !== null) ?? found.results[0]).id}`;
  });
  after(async () => {
    await browser?.close();
    await site?.close();
    await detailsSite?.close();
  });

  async function open(lang: Language, viewport = PHONE): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: LOCALES[lang], geolocation: PORTO, permissions: ['geolocation'] });
    await context.addInitScript(CSP_WATCH);
    return context.newPage();
  }

  /** The English left on the page: phrases of the English catalogue, and English words. */
  async function englishOn(page: Page, lang: Language): Promise<string[]> {
    const words = await pageWords(page);
    const phrases = englishPhrases(lang).filter((phrase) => words.includes(phrase));
    const legit = new Set(LEGIT[lang] ?? []);
    const tokens = new Set(words.toLowerCase().split(/[^\p{L}'’-]+/u));
    return [...phrases, ...ENGLISH_WORDS.filter((word) => !legit.has(word) && tokens.has(word))];
  }

  for (const lang of TRANSLATED) {
    test(`every page in ${lang} (from Accept-Language ${LOCALES[lang]}) leaves no English`, async () => {
      const page = await open(lang);
      const paths = ['/', '/?place=Trindade', toilet, '/t/n0', '/propose', '/licenses', '/offline', '/signup', '/signin', '/account/recover', '/moderation', '/partner', '/account'];
      const detailPaths = ['/t/n1001', '/t/n1002', '/t/n1004', '/keys/radar', '/keys/eurokey', '/keys/nope'];
      for (const [base, path] of [...paths.map((p) => [site.base, p]), ...detailPaths.map((p) => [detailsSite.base, p])]) {
        await page.goto(base + path);
        await page.waitForLoadState('networkidle');
        assert.equal(await page.getAttribute('html', 'lang'), LOCALES[lang], path);
        if (path.startsWith('/t/n100')) await page.locator('#h-details').waitFor();
        if (path === toilet) {
          // the human check in the page's language
          await page.locator('details.improve summary').first().click();
          await page.locator('altcha-widget label').first().waitFor();
        }
        if (path === '/') {
          // near me: the list and the map with its controls
          await page.locator('#near-me').click();
          await page.locator('#result-list li').first().waitFor();
          await page.locator('.maplibregl-ctrl-zoom-in').waitFor();
        }
        assert.deepEqual(await englishOn(page, lang), [], `${lang} ${path}`);
        assert.deepEqual(await cspViolations(page), [], `${lang} ${path}`);
      }
      await page.context().close();
    });
  }

  test('signed in: the account, the moderation queue and the partner dashboard leave no English in any language', async () => {
    // one account, a moderator with a pending claim, and a pending submission in the queue
    const setup = await browser.newContext({ viewport: PHONE, locale: 'en-GB' });
    const first = await setup.newPage();
    await virtualAuthenticator(setup, first);
    await createAccountInPage(first, site.base, 'Maria Moderadora', await serviceClient(site.base).token());
    const account = await (await first.request.get(`${site.base}/api/v1/account`)).json();
    await site.app.accounts.store.setModerator(account.id, true);
    const claimed = await first.request.post(`${site.base}/api/v1/toilets/${toilet.slice(3)}/claims`, { data: { business_name: 'Café Trindade', contact_email: 'cafe@example.org' }, headers: { Origin: site.base } });
    assert.equal(claimed.status(), 201, await claimed.text());
    const submitted = await serviceClient(site.base).post('/api/v1/submissions', { lat: 41.1496, lon: -8.6109, name: 'Jardim da Cordoaria' }, { origin: site.base });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.json));
    const storageState = await setup.storageState();
    await setup.close();
    const ready: [string, string][] = [['/account', '#passkey-list li'], ['/moderation', '.queue-item'], ['/partner', 'section.listing']];
    for (const lang of TRANSLATED) {
      const context = await browser.newContext({ viewport: PHONE, locale: LOCALES[lang], storageState });
      await context.addInitScript(CSP_WATCH);
      const page = await context.newPage();
      for (const [path, shown] of ready) {
        await page.goto(site.base + path);
        await page.locator(shown).first().waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(await page.getAttribute('html', 'lang'), LOCALES[lang], path);
        assert.deepEqual(await englishOn(page, lang), [], `${lang} ${path} signed in`);
        assert.deepEqual(await cspViolations(page), [], `${lang} ${path}`);
      }
      await context.close();
    }
  });

  test('the checks would see English: the English pages fail them', async () => {
    const page = await open('en');
    await page.goto(site.base + toilet + '?lang=en');
    const left = await englishOn(page, 'fr');
    assert.ok(left.includes('Accessibility and facilities') && left.includes('the'), left.join(' | '));
    await page.goto(detailsSite.base + '/keys/eurokey?lang=en');
    assert.ok((await englishOn(page, 'nl')).includes('Where to get one'), 'the key pages are checked too');
    await page.context().close();
  });

  test('screenshots: the finder and a toilet page in French and Portuguese on a phone, a toilet page on the desktop, details and a key page', { skip: process.env.SCREENSHOTS ? false : 'set SCREENSHOTS=<dir> to write them' }, async () => {
    for (const [lang, viewport, paths] of [['fr', PHONE, ['/', toilet]], ['pt', PHONE, ['/', toilet]], ['fr', DESKTOP, [toilet]], ['pt', DESKTOP, ['/']]] as const) {
      const page = await open(lang, viewport);
      for (const path of paths) {
        await page.goto(site.base + path);
        await page.waitForLoadState('networkidle');
        if (path === '/') {
          await page.getByRole('button', { name: lang === 'fr' ? 'Autour de moi' : 'Perto de mim' }).click();
          await page.locator('#result-list li').first().waitFor();
          await page.waitForFunction(() => window.toiletMapShown !== undefined || document.body.dataset.mapState === 'unavailable');
        }
        const name = `${lang}-${viewport.width}-${path === '/' ? 'finder' : 'toilet'}.png`;
        await page.screenshot({ path: join(process.env.SCREENSHOTS!, name), fullPage: path !== '/' });
      }
      await page.context().close();
    }
    for (const [lang, path, name] of [['fr', '/t/n1001', 'fr-390-details.png'], ['nl', '/keys/eurokey', 'nl-390-eurokey.png']] as const) {
      const page = await open(lang, PHONE);
      await page.goto(detailsSite.base + path);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(process.env.SCREENSHOTS!, name), fullPage: true });
      await page.context().close();
    }
  });

  test('offline, the service worker gives a page only in the language in use, else that language\'s offline page', async () => {
    const page = await open('pt', PHONE);
    await page.goto(site.base + '/');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.goto(site.base + toilet);
    await page.getByRole('heading', { name: 'Acessibilidade e equipamento' }).waitFor();
    // the switch to French: the cookie says French from now on, and the worker keeps French pages apart
    await page.goto(site.base + '/?lang=fr');
    await page.getByRole('button', { name: 'Autour de moi' }).waitFor();
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname + new URL(request.url).search);
      return urls;
    });
    assert.ok(kept.includes(`${toilet}?lang=pt`), kept.join(' '));
    assert.ok(kept.includes('/?lang=pt') && kept.includes('/?lang=fr') && kept.includes('/offline?lang=fr'), kept.join(' '));

    await page.context().setOffline(true);
    await page.goto(site.base + toilet);
    await page.getByRole('heading', { name: 'Vous êtes hors ligne' }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'fr', 'not the Portuguese copy');
    await page.goto(site.base + '/');
    await page.getByRole('button', { name: 'Autour de moi' }).waitFor();
    // asked for in Portuguese, the Portuguese copy comes back
    await page.goto(site.base + toilet + '?lang=pt');
    await page.getByRole('heading', { name: 'Acessibilidade e equipamento' }).waitFor();
    await page.context().setOffline(false);
    await page.context().close();
  });
});
