// A toilet's details on its page, in plain words (English and German), the "details arrive with the next
// import" line is in test/source/older-layout.test.ts, and the pages of the key systems; then in Debian's
// chromium, phone (390x844) and desktop (1366x850): no CSP violation, no serious axe finding, the link from
// a toilet to its key's page, and with SCREENSHOTS=<dir> the screenshots of both pages for a person to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumPath, CSP_WATCH, launchBrowser, startSite, type Site } from './browser.js';
import { inspect, PHONE, shots, WIDE_DESKTOP as DESKTOP } from './people.js';
import { importDetailsExtract, RADAR_CHANGING_PLACES } from '../support/details-extract.js';

const browserPath = chromiumPath();
let site: Site;

before(async () => {
  site = await startSite('monaco', () => Date.parse('2024-06-05T08:00:00Z'), { importInto: (db, dir) => importDetailsExtract(dir, db).then(() => undefined) });
});
after(() => site?.close());

const page = async (path: string) => {
  const response = await fetch(`${site.base}${path}`);
  return { status: response.status, html: await response.text() };
};
/** The text of the page's "More details" section, tags dropped (inline ones, such as the mapper's words, without a space). */
const detailsText = (html: string) => (/<section aria-labelledby="h-details"[^]*?<\/section>/.exec(html)?.[0] ?? '').replace(/<\/?span[^>]*>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

test('the toilet page says every detail in plain English and German', async () => {
  const en = detailsText((await page(`/t/${RADAR_CHANGING_PLACES.id}?lang=en`)).html);
  for (const line of [
    'Opens with a RADAR key. What a RADAR key is and where to get one',
    'A Changing Places toilet: a hoist, an adult-sized changing bench and room for two carers.',
    'The changing table is in the wheelchair-accessible toilet and in a room of its own.',
    'The changing table is big enough for an adult.',
    'The door is 100 cm wide.', 'Step-free way in.', 'Grab rails beside the toilet.',
    'On wheelchair access, the mapper wrote: “Hoist and peninsular toilet; ask staff at the gateline if the door is locked.”',
    'Toilets: seated and urinals.', 'Kind: flush toilet.', 'You can wash your hands.', 'Soap provided.', 'Toilet paper provided.',
    'Drying hands: electric dryer.', 'On the ground floor.', 'Inside a building.', 'The mapper describes it: “Inside the station, next to platform 6.”',
  ]) assert.ok(en.includes(line), `${line} in: ${en}`);
  const de = detailsText((await page(`/t/${RADAR_CHANGING_PLACES.id}?lang=de`)).html);
  for (const line of ['Weitere Angaben', 'Öffnet mit einem RADAR-Schlüssel.', 'Der Wickeltisch ist in der rollstuhlgerechten Toilette und in einem eigenen Raum.', 'Stufenloser Zugang.', 'Im Erdgeschoss.']) {
    assert.ok(de.includes(line), `${line} in: ${de}`);
  }
  const fr = detailsText((await page(`/t/${RADAR_CHANGING_PLACES.id}?lang=fr`)).html);
  for (const line of ['Plus de détails', 'S’ouvrent avec une clé RADAR. Clé RADAR : ce que c’est et où se la procurer', 'La table à langer se trouve dans les toilettes accessibles en fauteuil roulant et dans une pièce qui lui est réservée.', 'Toilettes : assises et urinoirs.', 'le contributeur de la carte a écrit : « Hoist and peninsular toilet; ask staff at the gateline if the door is locked. »']) {
    assert.ok(fr.includes(line), `${line} in: ${fr}`);
  }
  const nl = detailsText((await page('/t/n1004?lang=nl')).html);
  for (const line of ['Meer details', 'Gaat open met een centrale sleutel', 'Toiletten: zittoilet en hurktoilet.', 'Op verdieping -1 (0 is de begane grond, -1 die eronder).', 'Buiten.']) {
    assert.ok(nl.includes(line), `${line} in: ${nl}`);
  }
  const berlin = detailsText((await page('/t/n1002?lang=en')).html);
  for (const line of ['Opens with a Eurokey (Euroschlüssel).', 'The changing table is in the women’s toilet.', 'Changing tables: 2.', 'The changing table is free to use.', 'The water is not for drinking.']) {
    assert.ok(berlin.includes(line), `${line} in: ${berlin}`);
  }
  assert.equal(detailsText((await page('/t/n1005')).html), '', 'a toilet without details has no such section');
});

test('each key system has a page saying what it is and where to get a key; an unknown one is a 404 that lists them', async () => {
  for (const [path, words] of [
    ['/keys/radar?lang=en', ['RADAR key', 'National Key Scheme', 'Where to get one', 'Disability Rights UK', 'disabilityrightsuk.org']],
    ['/keys/eurokey?lang=en', ['Eurokey', 'CBF Darmstadt', 'Where to get one', 'cbf-da.de']],
    ['/keys/eurokey?lang=de', ['Euroschlüssel', 'Wo man ihn bekommt', 'Schwerbehindertenausweis']],
    ['/keys/eurokey?lang=nl', ['Eurokey', 'Waar u er een krijgt', 'CBF Darmstadt', '1986', 'aG, B, H of BL', 'Pro Infirmis', 'cbf-da.de']],
    ['/keys/radar?lang=fr', ['Clé RADAR', 'National Key Scheme', '1981', 'Disability Rights UK', 'disabilityrightsuk.org']],
  ] as const) {
    const { status, html } = await page(path);
    assert.equal(status, 200, path);
    for (const word of words) assert.ok(html.includes(word), `${word} on ${path}`);
  }
  const chosen = await fetch(`${site.base}/keys/radar`, { headers: { 'accept-language': 'pt-PT,pt;q=0.9' } });
  assert.equal(chosen.headers.get('content-language'), 'pt-PT');
  assert.match(chosen.headers.get('vary') ?? '', /Accept-Language/);
  assert.ok((await chosen.text()).includes('Chave RADAR'), 'the key page in the browser\'s language');
  const unknown = await page('/keys/nks');
  assert.equal(unknown.status, 404);
  assert.ok(unknown.html.includes('href="/keys/radar"') && unknown.html.includes('href="/keys/eurokey"'));
});

describe('in a browser', { skip: browserPath === null ? 'chromium is not installed (apt-get install -y chromium)' : false, timeout: 300_000 }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser(browserPath!);
    if (shots !== null) mkdirSync(shots, { recursive: true });
  });
  after(() => browser?.close());

  test('the toilet page with details and the RADAR page, phone and desktop', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'en-GB' });
    await context.addInitScript(CSP_WATCH);
    const tab = await context.newPage();
    await tab.goto(`${site.base}/t/${RADAR_CHANGING_PLACES.id}`);
    await tab.getByRole('heading', { name: 'More details' }).waitFor();
    for (const viewport of [PHONE, DESKTOP]) {
      await tab.setViewportSize(viewport);
      await inspect(tab, 'toilet-details');
    }
    await tab.getByRole('link', { name: 'What a RADAR key is and where to get one' }).click();
    await tab.waitForURL(`${site.base}/keys/radar`);
    await tab.getByRole('heading', { name: 'Where to get one' }).waitFor();
    for (const viewport of [PHONE, DESKTOP]) {
      await tab.setViewportSize(viewport);
      await inspect(tab, 'key-radar');
    }
    await context.close();
  });
});
