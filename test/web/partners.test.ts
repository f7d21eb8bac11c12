// Partner pages in Debian's chromium against the real server on the Monaco extract: a business signs up
// from a toilet's "Sign in to claim" link and comes back, claims the toilet (its own field checks, then the
// 409 of a second claim explained); a moderator approves the claim in the web queue, correcting the name;
// the operator sets a plan with `npm run moderate -- plan` (in this process, as an operator would); the
// business edits the label on its dashboard (an hours syntax error shown as the field is left, then fixed,
// the preview in the public's words), closes the toilet with the live switch and reopens it; the toilet
// page and the nearest API show the partner label accordingly; on Plus the dashboard shows the monthly
// figures (Basic: a line saying so); and another account is told the toilet is held. Axe-core and the CSP on each page; SCREENSHOTS=<dir> writes the claim form, the dashboard (without
// and with a running plan, closed, Plus with its monthly figures) and the queue's claims, phone and desktop.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumPath, launchBrowser, startSite, type Site } from './browser.js';
import { DESKTOP, inspect, person, PHONE, shots, signUp } from './people.js';
import { moderate } from '../community/support.js';

/** A Monday, 10:00 in Monaco (CEST). */
const START = Date.parse('2024-06-03T08:00:00Z');
/** By the Monte-Carlo casino in the Monaco extract. */
const TOILET = 'n4316767608';

const browserPath = chromiumPath();

describe('partner pages in a browser', { skip: browserPath === null ? 'chromium is not installed (apt-get install -y chromium)' : false, timeout: 600_000 }, () => {
  let site: Site;
  let browser: Browser;
  const nowMs = START;

  before(async () => {
    site = await startSite('monaco', () => nowMs, { env: { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' } });
    browser = await launchBrowser(browserPath!);
    if (shots !== null) mkdirSync(shots, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  /** The page in both layouts: checked, and its screenshots taken. */
  async function inspectBoth(page: Page, name: string): Promise<void> {
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await inspect(page, name);
    }
  }

  /** The partner object of the toilet in the nearest answer, once the server shows `expected` there (its overlay follows the operator's commit within a second). */
  async function partnerInNearest(page: Page, expected: (partner: any) => boolean): Promise<any> {
    for (;;) {
      const answer = await (await page.request.get(`${site.base}/api/v1/toilets/nearest?lat=43.7394&lon=7.4276&limit=3`)).json();
      const partner = answer.results.find((r: { id: string }) => r.id === TOILET)?.partner;
      if (expected(partner)) return partner;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const operator = (args: string[]) => moderate({ dir: '', toiletsDb: site.config.toiletsDb, overlayDb: site.config.overlayDb, remove: () => {} }, args);

  test('claim → approve in the queue → plan → label on the dashboard → live switch → public answers', async () => {
    const business = await person(browser, DESKTOP);
    const { page } = business;

    // signed out, the toilet page offers to sign in and come back; without an account, to sign up and come back
    await page.goto(`${site.base}/t/${TOILET}`);
    assert.equal(await page.locator('details.claim-form').isHidden(), true, 'no form signed out');
    await page.getByRole('link', { name: 'Sign in to claim this toilet' }).click();
    await page.waitForURL(`${site.base}/signin?next=%2Ft%2F${TOILET}`);
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.waitForURL(`${site.base}/signup?next=%2Ft%2F${TOILET}`);
    await signUp(site, business, 'Casino Café owner', { open: false, landing: `/t/${TOILET}` });

    // the claim form: its own checks first, in words beside the fields
    await page.getByText('Claim this toilet', { exact: true }).click();
    const form = page.locator('form[data-op=claim]');
    await form.getByLabel('Website (optional, starting with http:// or https://)').fill('ftp://cafe.example');
    await form.getByRole('button', { name: 'Send the claim' }).click();
    await form.getByText('Give the business name: 2 to 80 characters.').waitFor();
    await form.getByText('Give a contact e-mail address such as name@example.org.').waitFor();
    await form.getByText('Give the website as an address starting with http:// or https://, or leave the field empty.').waitFor();
    assert.equal(await form.getByLabel('Business name (2 to 80 characters; the label shows it)').getAttribute('aria-invalid'), 'true');
    await inspectBoth(page, 'claim-form-errors');
    await form.getByLabel('Business name (2 to 80 characters; the label shows it)').fill('Cafe de Paris');
    await form.getByLabel('Contact e-mail (for the moderator only, never shown)').fill('owner@cafe.example');
    await form.getByLabel('Phone (optional, for the moderator only)').fill('+377 98 06 76 76');
    await form.getByLabel('Website (optional, starting with http:// or https://)').fill('https://cafe.example');
    await form.getByLabel('Note for the moderator (optional): how can they check that you run this toilet?').fill('Call the café and ask for the manager.');
    await inspectBoth(page, 'claim-form');
    await form.getByRole('button', { name: 'Send the claim' }).click();
    await form.getByText('Claim sent. A moderator checks it; your business page shows its status.').waitFor();
    // a second claim: the 409 explained as this account's own
    await form.getByLabel('Business name (2 to 80 characters; the label shows it)').fill('Cafe de Paris');
    await form.getByLabel('Contact e-mail (for the moderator only, never shown)').fill('owner@cafe.example');
    await form.getByRole('button', { name: 'Send the claim' }).click();
    await form.getByText('You have claimed this toilet already (the claim is waiting for a moderator). Your business page shows it.').waitFor();

    // the dashboard, from the header's account area
    await page.getByRole('link', { name: 'Business', exact: true }).click();
    await page.waitForURL(`${site.base}/partner`);
    const listing = page.locator('section.listing');
    await listing.getByText('Waiting for a moderator.', { exact: false }).waitFor();
    await inspectBoth(page, 'dashboard-pending');

    // a moderator approves it in the queue, correcting the name
    const mod = await person(browser, DESKTOP);
    await signUp(site, mod, 'Moderator Mia');
    const modAccount = await (await mod.page.request.get(`${site.base}/api/v1/account`)).json();
    await site.app.accounts.store.setModerator(modAccount.id, true);
    await mod.page.goto(`${site.base}/moderation`);
    const item = mod.page.locator('.queue-item', { hasText: 'Cafe de Paris' });
    await item.waitFor();
    await item.getByText('Contact: owner@cafe.example').waitFor();
    await item.getByText('Phone: +377 98 06 76 76').waitFor();
    await item.getByText('Website (not checked, do not just follow): https://cafe.example').waitFor();
    await item.getByText('No other claim on it.').waitFor();
    await item.getByRole('link', { name: new RegExp(TOILET) }).waitFor();
    await inspectBoth(mod.page, 'moderation-claims');
    await item.getByLabel('Business name the label shows (correct it if needed)').fill('Café de Paris Monte-Carlo');
    await item.getByLabel('Reason (recorded with the action)').fill('called the café');
    await item.getByRole('button', { name: 'Approve' }).click();
    await mod.page.getByText(/^Done: approved clm_[0-9a-f]{24}: listing pl_[0-9a-f]{32} on n4316767608 shows as "Café de Paris Monte-Carlo" once a plan runs$/).waitFor();
    assert.equal(await mod.page.locator('.queue-item', { hasText: 'Cafe de Paris' }).count(), 0, 'gone from the queue');
    const logged = site.app.community.store.readable.prepare("SELECT details FROM moderation_log WHERE action = 'approve_claim'").pluck().get() as string;
    assert.deepEqual(JSON.parse(logged), { name: 'Café de Paris Monte-Carlo', by: modAccount.id }, 'logged as the command line logs it, with the moderator');

    // approved, no plan yet: the dashboard says so and offers no label form
    await page.reload();
    await listing.getByText(/^Approved /).waitFor();
    await listing.getByText('Plan: none. The label does not show until a plan runs.', { exact: false }).waitFor();
    assert.equal(await listing.locator('form.profile').count(), 0);
    // this site takes no partner payments (no Stripe settings): no pay buttons, and words saying so
    await listing.getByText('Partner payments are not open on this site: its operator has not set them up. Ask the operator of this site for a plan.').waitFor();
    assert.equal(await listing.getByRole('button', { name: /and pay$/ }).count(), 0);
    await inspectBoth(page, 'dashboard-no-plan');

    // the operator sets a plan by hand
    const { listings } = await (await page.request.get(`${site.base}/api/v1/partner/listings`)).json();
    const planned = await operator(['plan', listings[0].id, 'basic', '--reason', 'billed by invoice']);
    assert.equal(planned.status, 0, planned.stderr);
    await page.reload();
    await listing.getByText('Plan: Basic, set by the operator of this site. The label shows in every answer.').waitFor();
    await listing.getByText('The operator of this site set this plan by hand, so there is nothing to pay or manage here. Ask the operator to change or end it.').waitFor();
    assert.equal(await listing.getByRole('button', { name: 'Manage billing' }).count(), 0, 'a manual plan has no billing buttons');

    // the label: an hours syntax error shown when the field is left, then fixed; the preview in the public's words
    const hours = listing.getByLabel('Business hours', { exact: true });
    await hours.fill('Mo-Su 08:00-');
    await listing.getByText('Free for everyone').click(); // leaves the field
    await listing.getByText('These hours cannot be read. Correct them (e.g. Mo-Fr 08:00-18:00) or leave the field empty.').waitFor();
    assert.equal(await hours.getAttribute('aria-invalid'), 'true');
    await hours.fill('Mo-Su 08:00-20:00');
    await hours.blur();
    await listing.getByText('These hours can be read.').waitFor();
    assert.equal(await hours.getAttribute('aria-invalid'), null);
    const preview = listing.locator('.preview');
    await preview.getByText('Partner label: Café de Paris Monte-Carlo (Basic)').waitFor();
    await preview.getByText('The business says: free for everyone.').waitFor();
    await preview.getByText('The business says: open now, until 20:00.').waitFor();
    await preview.getByText('Business hours: Mo-Su 08:00-20:00').waitFor();
    await listing.getByRole('button', { name: 'Save the label' }).click();
    await listing.getByText('Saved. Every answer shows the change now.').waitFor();
    await listing.getByText('With Plus, this dashboard also shows month by month how often the toilet was shown in answers and how often it was opened.').waitFor();
    await inspectBoth(page, 'dashboard-plan');
    assert.deepEqual(await partnerInNearest(page, (p) => p?.conditions === 'everyone'), {
      name: 'Café de Paris Monte-Carlo', tier: 'basic', conditions: 'everyone', opening_hours: 'Mo-Su 08:00-20:00', open_now: true, closes_at: '2024-06-03T20:00:00+02:00',
    });

    // the live switch: closed until 22:00 in Monaco (12 hours from 10:00), then reopened
    await listing.getByRole('button', { name: 'Close for now (12 hours)' }).click();
    await listing.getByText('Closed until 22:00 (the toilet’s local time).', { exact: false }).waitFor();
    await preview.getByText('The business says: closed now.').waitFor();
    await inspectBoth(page, 'dashboard-closed');
    assert.equal((await partnerInNearest(page, (p) => p?.open_now === false)).closes_at, null);
    await page.goto(`${site.base}/t/${TOILET}`);
    await page.locator('.partner-label').getByText('The business says: closed now.').waitFor();
    await page.locator('.partner-label').getByText('The business says: free for everyone.').waitFor();
    await page.goto(`${site.base}/partner`);
    await listing.getByRole('button', { name: 'Reopen now' }).click();
    await listing.getByText('Open: the label follows your hours.').waitFor();
    assert.equal((await partnerInNearest(page, (p) => p?.open_now === true)).closes_at, '2024-06-03T20:00:00+02:00');
    await page.goto(`${site.base}/t/${TOILET}`);
    await page.locator('.partner-label').getByText('The business says: open now, until 20:00.').waitFor();

    // Plus: the monthly figures, counted from the first answer that shows the Plus label
    assert.equal((await operator(['plan', listings[0].id, 'plus', '--reason', 'upgraded by invoice'])).status, 0);
    await partnerInNearest(page, (p) => p?.tier === 'plus'); // shown once
    await page.goto(`${site.base}/t/${TOILET}`); // opened once
    await page.goto(`${site.base}/partner`);
    const figures = listing.getByRole('table', { name: 'Monthly figures' });
    await figures.waitFor();
    assert.equal(await figures.locator('tbody tr').count(), 13, 'this month and the 12 before it');
    assert.deepEqual(await figures.locator('tbody tr').first().locator('th, td').allTextContents(), ['June 2024', '1', '1']);
    await inspectBoth(page, 'dashboard-figures');

    // the plan ends while the dashboard is open: the 409 said in words
    await page.goto(`${site.base}/partner`);
    const closeButton = listing.getByRole('button', { name: 'Close for now (12 hours)' });
    await closeButton.waitFor();
    assert.equal((await operator(['plan', listings[0].id, 'none', '--reason', 'invoice unpaid'])).status, 0);
    await closeButton.click();
    await listing.getByText('This listing has no running plan, so the label cannot be changed. Choose a plan first.').waitFor();
    assert.equal(await partnerInNearest(page, (p) => p === null), null);

    // another account is told that another business holds the toilet
    await mod.page.goto(`${site.base}/t/${TOILET}`);
    await mod.page.getByText('Claim this toilet', { exact: true }).click();
    const other = mod.page.locator('form[data-op=claim]');
    await other.getByLabel('Business name (2 to 80 characters; the label shows it)').fill('Rival Bar');
    await other.getByLabel('Contact e-mail (for the moderator only, never shown)').fill('rival@bar.example');
    await other.getByRole('button', { name: 'Send the claim' }).click();
    await other.getByText('Another business holds this toilet', { exact: false }).waitFor();
    await business.context.close();
    await mod.context.close();
  });
});
