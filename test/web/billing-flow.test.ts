// Partner billing end to end in Debian's chromium (issue 33), through the partner dashboard: a business signs
// up with a passkey (the DevTools protocol's virtual authenticator) and claims a toilet on its page, a
// moderator approves the claim, the business chooses Plus on /partner and pays on the Stripe stand-in's
// hosted page (billing address), comes back to the dashboard, which says the payment is waiting for
// confirmation while the stand-in holds its events, and shows the plan running once they arrive; the
// partner label is then in nearest, area, getToilet and both MCP tools. "Manage billing" opens the
// stand-in's portal, where the subscription is canceled; back on the dashboard the label is gone from all
// five. Then a checkout canceled on the hosted page comes back as "nothing was charged" and the same tier
// can be chosen again; paid, it makes the account's deletion answer 409, which the account page explains
// by naming the listing and resolves with "Cancel the subscriptions and delete my account". A server
// without Stripe settings shows no pay buttons (test/web/partners.test.ts). Axe-core and the CSP on each of
// our pages; SCREENSHOTS=<dir> writes them (phone and desktop).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser as Chromium, Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Clock, importedData, readSourceToilets, type Data } from '../community/support.js';
import { startBilled, type Billed } from '../billing/support.js';
import { chromiumPath, launchBrowser } from './browser.js';
import { DESKTOP, inspect, person, PHONE, shots, signUp, type Person } from './people.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const executablePath = chromiumPath();
const BUSINESS = 'Café de Paris Monte-Carlo';

describe('partner billing in Chromium, through the dashboard', { skip: executablePath === null ? 'chromium is not installed (CI=true fails instead)' : false, timeout: 600_000 }, () => {
  let data: Data;
  let billed: Billed;
  let chromium: Chromium;
  let base: string;
  const clock = new Clock(Date.parse('2024-06-05T08:00:00Z'));

  before(async () => {
    data = await importedData();
    const port = await freePort();
    base = `http://localhost:${port}`;
    billed = await startBilled(data, clock, { PORT: String(port), BASE_URL: base });
    chromium = await launchBrowser(executablePath!);
    if (shots !== null) mkdirSync(shots, { recursive: true });
  });
  after(async () => {
    await chromium?.close();
    await billed?.close();
    data?.remove();
  });

  /** The page in both layouts: checked, and its screenshots taken. */
  async function inspectBoth(page: Page, name: string): Promise<void> {
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await inspect(page, name);
    }
  }

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

  /** The stand-in's hosted checkout page, paid with a billing address; back on the dashboard. */
  async function payOnHostedPage(page: Page, listing: string, price: RegExp): Promise<void> {
    await page.waitForURL(`${billed.standIn.env.STRIPE_API_BASE}/checkout/**`);
    assert.match(await page.locator('.price').innerText(), price);
    await page.getByLabel('Street').fill('Place du Casino 1');
    await page.getByLabel('Postal code').fill('98000');
    await page.getByLabel('City').fill('Monaco');
    await page.getByLabel('Country').selectOption('MC');
    await Promise.all([page.waitForURL(`${base}/partner?listing=${listing}&checkout=done`), page.getByRole('button', { name: 'Pay' }).click()]);
  }

  test('claim → approve → choose Plus on /partner → pay → pending, then running → label everywhere → portal cancel → gone; canceled checkout; deletion with a subscription', async () => {
    const { service, standIn } = billed;
    const toilet = readSourceToilets(data.toiletsDb)[0];
    const business: Person = await person(chromium, PHONE);
    const { page } = business;
    await signUp({ base }, business, 'Casino Café owner');

    // the claim on the toilet's page, approved by a moderator
    await page.goto(`${base}/t/${toilet.id}`);
    await page.getByText('Claim this toilet', { exact: true }).click();
    const form = page.locator('form[data-op=claim]');
    await form.getByLabel('Business name (2 to 80 characters; the label shows it)').fill(BUSINESS);
    await form.getByLabel('Contact e-mail (for the moderator only, never shown)').fill('bonjour@cafe-de-paris.example');
    await form.getByRole('button', { name: 'Send the claim' }).click();
    await form.getByText('Claim sent.', { exact: false }).waitFor();
    const [mine] = (await (await page.request.get(`${base}/api/v1/partner/listings`)).json()).listings as { id: string; claim: { id: string } }[];
    await service.app.partners.claims.approve(mine.claim.id, 'checked the business register'); // the moderator (the queue's page: partners.test.ts)
    const listing = mine.id;
    assert.deepEqual(await labels(toilet), [null, null, null, null, null]);

    // the dashboard offers the two tiers, net plus VAT, the amounts on the provider's page
    await page.goto(`${base}/partner`);
    const section = page.locator('section.listing');
    await section.getByText('Plan: none. The label does not show until a plan runs.').waitFor();
    await section.getByText('The price is net: VAT is added from your billing address. The payment page shows the amount before you pay.', { exact: false }).waitFor();
    assert.equal(await section.getByRole('button', { name: 'Manage billing' }).isVisible(), false, 'nothing to manage yet');
    await inspectBoth(page, 'billing-choose');

    // Plus, paid on the hosted page; the provider's events held back: the dashboard waits for them
    standIn.webhooks.hold();
    await section.getByRole('button', { name: 'Choose Plus and pay' }).click();
    await payOnHostedPage(page, listing, /19\.00 EUR per month\s+plus VAT/);
    await section.getByText('Payment received. Waiting for the payment provider to confirm it; the plan starts then.').waitFor();
    assert.equal(await section.getByRole('button', { name: /and pay$/ }).count(), 0, 'no second purchase offered while waiting');
    await inspectBoth(page, 'billing-pending');
    standIn.webhooks.release();
    await standIn.webhooks.idle();
    await section.getByText('Payment confirmed: your Plus plan runs and the label shows.').waitFor();
    await section.getByText('Plan: Plus, paid by subscription. The label shows in every answer.').waitFor();
    await section.getByRole('button', { name: 'Close for now (12 hours)' }).waitFor(); // the label's own controls
    assert.equal(await section.getByRole('button', { name: /and pay$/ }).count(), 0, 'no second purchase offered');
    await inspectBoth(page, 'billing-running');
    const shown = { name: BUSINESS, tier: 'plus', conditions: null, opening_hours: null, open_now: 'unknown', closes_at: null };
    assert.deepEqual(await labels(toilet), [shown, shown, shown, shown, shown]);

    // Manage billing: the portal, where the subscription is canceled; back on the dashboard, the label is gone
    await Promise.all([page.waitForURL(`${standIn.env.STRIPE_API_BASE}/portal/**`), section.getByRole('button', { name: 'Manage billing' }).click()]);
    await page.getByText('active').waitFor();
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText('canceled').waitFor();
    await standIn.webhooks.idle();
    await Promise.all([page.waitForURL(`${base}/partner?listing=${listing}`), page.getByRole('link', { name: 'Return to the site' }).click()]);
    await section.getByText('Plan: none. The label does not show until a plan runs.').waitFor();
    await section.getByRole('button', { name: 'Choose Basic and pay' }).waitFor();
    assert.deepEqual(await labels(toilet), [null, null, null, null, null]);

    // a checkout canceled on the hosted page: back on the dashboard, nothing charged; the same tier again is fine
    await section.getByRole('button', { name: 'Choose Basic and pay' }).click();
    await page.waitForURL(`${standIn.env.STRIPE_API_BASE}/checkout/**`);
    await Promise.all([page.waitForURL(`${base}/partner?listing=${listing}&checkout=canceled`), page.getByRole('button', { name: 'Cancel' }).click()]);
    await section.getByText('The payment was canceled. Nothing was charged; choose a plan whenever you like.').waitFor();
    await inspectBoth(page, 'billing-canceled');
    await section.getByRole('button', { name: 'Choose Basic and pay' }).click();
    await payOnHostedPage(page, listing, /9\.00 EUR per month\s+plus VAT/);
    await standIn.webhooks.idle();
    await section.getByText('Plan: Basic, paid by subscription. The label shows in every answer.').waitFor();

    // deleting the account while the subscription can charge: the 409 names the listing, then one click ends both
    await page.goto(`${base}/account`);
    await page.getByLabel('I understand: delete my account').check();
    await page.getByRole('button', { name: 'Delete my account now' }).click();
    await page.getByText('Your account has partner subscriptions that can still charge: see below before you delete it.').waitFor();
    const offer = page.locator('#delete-subscriptions');
    await offer.locator('li').first().waitFor();
    assert.deepEqual(await offer.locator('li').allInnerTexts(), [`${BUSINESS}${toilet.name ? `, ${toilet.name}` : ''} (listing ${listing})`]);
    await inspectBoth(page, 'delete-subscriptions');
    await Promise.all([page.waitForURL(`${base}/`), offer.getByRole('button', { name: 'Cancel the subscriptions and delete my account' }).click()]);
    await standIn.webhooks.idle();
    const subscriptions = [...standIn.state.subscriptions.values()].filter((s) => s.metadata.listing === listing);
    assert.deepEqual(subscriptions.map((s) => s.status), ['canceled', 'canceled']);
    assert.equal((await page.request.get(`${base}/api/v1/account`)).status(), 401, 'the account is gone');
    assert.deepEqual(await labels(toilet), [null, null, null, null, null]);
    await business.context.close();
  });
});
