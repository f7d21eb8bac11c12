// The one end-to-end path of partner billing in real Chromium (issue 33): a business claims a toilet, a
// moderator approves it, the business starts a checkout and pays on the Stripe stand-in's hosted page
// (filling the billing address), Stripe's webhook arrives, the partner label shows in nearest, area,
// getToilet and the MCP tools; then the business cancels in the stand-in's portal and the label goes from
// all four. The claim, the approval and the two operations go through the API (the partner dashboard page
// is not built yet); the provider's pages are clicked through in Chromium, which comes back to the site
// (BASE_URL http://localhost:<port>, the test server) from both.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser as Chromium, Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Clock, importedData, readSourceToilets, type Data, type Service } from '../community/support.js';
import { Browser, type Reply, type RequestOptions } from '../accounts/support.js';
import { SoftwareAuthenticator } from '../support/authenticator.js';
import { startBilled, type Billed } from '../billing/support.js';
import { chromiumPath, launchBrowser } from './browser.js';

/** The business's API client on the site's own origin (the Node browser of the account tests speaks for https://toilets.example.test). */
class SiteBrowser extends Browser {
  override readonly authenticator: SoftwareAuthenticator;
  constructor(service: Service, ip: string, readonly site: string) {
    super(service, ip);
    this.authenticator = new SoftwareAuthenticator(site);
  }
  override request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    return super.request(method, path, { origin: this.site, ...options });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const executablePath = chromiumPath();
const SCREENS = process.env.BILLING_SCREENSHOTS ?? null;

describe('partner billing in Chromium: checkout, webhook, label, portal cancel', { skip: executablePath === null ? 'chromium is not installed (CI=true fails instead)' : false }, () => {
  let data: Data;
  let billed: Billed;
  let chromium: Chromium;
  let BASE_URL: string;
  const clock = new Clock(Date.parse('2024-06-05T08:00:00Z'));

  before(async () => {
    data = await importedData();
    const port = await freePort();
    BASE_URL = `http://localhost:${port}`;
    billed = await startBilled(data, clock, { PORT: String(port), BASE_URL });
    chromium = await launchBrowser(executablePath!);
  });
  after(async () => {
    await chromium?.close();
    await billed?.close();
    data?.remove();
  });

  const openPage = (viewport: { width: number; height: number }): Promise<Page> => chromium.newPage({ viewport });

  async function labels(toilet: { id: string; lat: number; lon: number }): Promise<unknown[]> {
    const { service } = billed;
    const nearest = await service.get(`/api/v1/toilets/nearest?lat=${toilet.lat}&lon=${toilet.lon}&limit=1`);
    const area = await service.get(`/api/v1/toilets?bbox=${toilet.lon - 0.001},${toilet.lat - 0.001},${toilet.lon + 0.001},${toilet.lat + 0.001}`);
    const one = await service.toilet(toilet.id);
    const client = new Client({ name: 'billing-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
    try {
      const tool = (await client.callTool({ name: 'get_toilet', arguments: { id: toilet.id } })) as { structuredContent: { toilet: { partner: unknown } } };
      const near = (await client.callTool({ name: 'find_toilets_near', arguments: { lat: toilet.lat, lon: toilet.lon, limit: 1 } })) as { structuredContent: { results: { id: string; partner: unknown }[] } };
      assert.equal(near.structuredContent.results[0].id, toilet.id);
      return [
        nearest.json.results.find((r: { id: string }) => r.id === toilet.id).partner,
        area.json.results.find((r: { id: string }) => r.id === toilet.id).partner,
        one.partner,
        tool.structuredContent.toilet.partner,
        near.structuredContent.results[0].partner,
      ];
    } finally {
      await client.close();
    }
  }

  test('claim → approve → pay on the hosted page → label everywhere → cancel in the portal → label gone', async () => {
    const { service, standIn } = billed;
    const toilet = readSourceToilets(data.toiletsDb)[0];
    const browser = new SiteBrowser(service, '198.51.100.60', BASE_URL);
    await browser.signUp('Café de Paris Monte-Carlo');
    const claimed = await browser.request('POST', `/toilets/${toilet.id}/claims`, { body: { business_name: 'Café de Paris Monte-Carlo', contact_email: 'bonjour@cafe-de-paris.example' } });
    assert.equal(claimed.status, 201, JSON.stringify(claimed.json));
    service.app.partners.claims.approve(claimed.json.id, 'checked the business register'); // the moderator
    const listing = ((await browser.request('GET', '/partner/listings')).json.listings as { id: string; claim: { id: string } }[]).find((l) => l.claim.id === claimed.json.id)!.id;
    assert.deepEqual(await labels(toilet), [null, null, null, null, null]);

    const started = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'plus' } });
    assert.equal(started.status, 200, JSON.stringify(started.json));

    for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 800 }]] as const) {
      const look = await openPage(viewport);
      await look.goto(started.json.url);
      await look.getByText('plus VAT', { exact: false }).waitFor();
      if (SCREENS) await look.screenshot({ path: `${SCREENS}/checkout-${name}.png`, fullPage: true });
      await look.close();
    }

    const page = await openPage({ width: 390, height: 844 });
    await page.goto(started.json.url);
    assert.match(await page.locator('.price').innerText(), /19\.00 EUR per month\s+plus VAT/);
    await page.getByLabel('Street').fill('Place du Casino 1');
    await page.getByLabel('Postal code').fill('98000');
    await page.getByLabel('City').fill('Monaco');
    await page.getByLabel('Country').selectOption('MC');
    await Promise.all([page.waitForURL(`${BASE_URL}/partner?**`), page.getByRole('button', { name: 'Pay' }).click()]);
    assert.equal(new URL(page.url()).searchParams.get('checkout'), 'done');
    await standIn.webhooks.idle();

    const shown = { name: 'Café de Paris Monte-Carlo', tier: 'plus', conditions: null, opening_hours: null, open_now: 'unknown', closes_at: null };
    assert.deepEqual(await labels(toilet), [shown, shown, shown, shown, shown]);

    const portal = await browser.request('POST', '/billing/portal', { body: { listing } });
    assert.equal(portal.status, 200);
    await page.goto(portal.json.url);
    await page.getByText('active').waitFor();
    if (SCREENS) await page.screenshot({ path: `${SCREENS}/portal-phone.png`, fullPage: true });
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText('canceled').waitFor();
    await Promise.all([page.waitForURL(`${BASE_URL}/partner?listing=${listing}`), page.getByRole('link', { name: 'Return to the site' }).click()]);
    await standIn.webhooks.idle();
    assert.deepEqual(await labels(toilet), [null, null, null, null, null]);
    await page.close();
  });
});
