// startCheckout and openBillingPortal through the real server, the real `stripe` SDK and the stand-in:
// every status the spec lists (200, 400, 401, 403, 404, 409 for each reason, 502, 503 not open and not
// available), what goes to Stripe (subscription mode, net price of the tier, automatic tax with the
// address taken at checkout, the listing in both metadata, expiry, one customer per account), a double
// click (one session), buy → cancel in the portal → buy again, and the hosted page's cancel → the other tier.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, readSourceToilets, type Data } from '../community/support.js';
import { Browser, startAccountsService, valid } from '../accounts/support.js';
import { claimAs, runningListing } from '../partners/support.js';
import { approvedListing, buy, partnerOf, pay, problem, startBilled, type Billed } from './support.js';
import { SILENT } from '../support/server.js';
import { WEBHOOK_MAX_BYTES } from '../../src/billing/operations.js';
import { EXPIRY_MARGIN_SECONDS } from '../../src/billing/checkout.js';

const START = Date.parse('2024-06-05T08:00:00Z');

describe('startCheckout and openBillingPortal', () => {
  let data: Data;
  let billed: Billed;
  let toilets: string[];
  const clock = new Clock(START);
  let ip = 10;
  const nextIp = () => `198.51.100.${ip++}`;

  before(async () => {
    data = await importedData();
    billed = await startBilled(data, clock);
    toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
  });
  after(async () => {
    await billed.close();
    data.remove();
  });

  test('200: a checkout session in subscription mode for the tier, with what automatic tax needs; one customer per account', async () => {
    const { service, standIn } = billed;
    const { browser, listing } = await approvedListing(service, toilets[0], 'Café Azur', nextIp());
    const started = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'plus' } });
    assert.equal(started.status, 200, JSON.stringify(started.json));
    valid('HostedPageAnswer', started.json);
    assert.equal(started.headers.get('cache-control'), 'no-store');
    assert.ok(started.json.url.startsWith(`${standIn.url}/checkout/cs_test_`));

    const made = standIn.api.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    assert.equal(made.length, 1);
    const form = made[0].form as any;
    assert.equal(form.mode, 'subscription');
    assert.deepEqual(form.line_items, [{ price: standIn.env.STRIPE_PRICE_PLUS, quantity: '1' }]);
    assert.equal(form.automatic_tax.enabled, 'true');
    assert.deepEqual(form.customer_update, { address: 'auto', name: 'auto' });
    assert.equal(form.billing_address_collection, 'required');
    assert.deepEqual(form.metadata, { listing });
    assert.deepEqual(form.subscription_data.metadata, { listing });
    assert.equal(Number(form.expires_at), Math.floor(START / 1000) + 30 * 60 + EXPIRY_MARGIN_SECONDS, 'expires 30 minutes ahead (on the injected clock), and a margin for the way to Stripe');
    assert.ok(form.success_url.startsWith('https://toilets.example.test/partner?listing='));
    assert.match(form.cancel_url, /^https:\/\/toilets\.example\.test\/partner\/checkout-canceled\?listing=pl_[0-9a-f]{32}&attempt=[0-9a-f]{32}$/);
    assert.match(made[0].idempotencyKey!, new RegExp(`^checkout:${listing}:plus:[0-9a-f]{32}$`));
    const session = standIn.state.sessions.get(started.json.url.split('/').pop())!;
    assert.equal(session.customer, form.customer);

    // the same account's second listing reuses the customer
    await approvedListing(service, toilets[1], 'Café Azur II', nextIp());
    const second = await claimAs(service, toilets[2], 'Second Listing Co', nextIp());
    await service.app.partners.claims.approve(second.claim, 'ok');
    const customersBefore = standIn.state.customers.size;
    const other = await second.browser.request('POST', '/billing/checkout', { body: { listing: second.listing, tier: 'basic' } });
    assert.equal(other.status, 200);
    assert.equal(standIn.state.customers.size, customersBefore + 1, 'another account: another customer');
  });

  test('a double click makes one session: both answers name it', async () => {
    const { service, standIn } = billed;
    const { browser, listing } = await approvedListing(service, toilets[3], 'Double Click Bakery', nextIp());
    const sessionsBefore = standIn.state.sessions.size;
    const [first, second] = await Promise.all([
      browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } }),
      browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } }),
    ]);
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.equal(second.status, 200, JSON.stringify(second.json));
    assert.equal(first.json.url, second.json.url);
    assert.equal(standIn.state.sessions.size, sessionsBefore + 1, 'one session at Stripe');
    assert.equal(standIn.state.customers.size, new Set([...standIn.state.sessions.values()].map((s) => s.customer)).size, 'and one customer');

    // later, with that session still open: the same tier is refused (finish or cancel it), nothing new made
    const later = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } });
    assert.equal(later.status, 409);
    problem(later, 'checkout-open');
    assert.match(later.json.detail, /is open: finish it on the payment page, or cancel it there/);
    assert.equal(standIn.state.sessions.size, sessionsBefore + 1);
  });

  test('cancel on the hosted page, back through the cancel URL: the session is expired and the other tier answers 200', async () => {
    const { service, standIn } = billed;
    const { browser, listing } = await approvedListing(service, toilets[4], 'Kiosk du Port', nextIp());
    const basic = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } });
    const cancel = await fetch(`${basic.json.url}/cancel`, { method: 'POST', redirect: 'manual' });
    assert.equal(cancel.status, 303);
    const back = new URL(cancel.headers.get('location')!);
    // the browser follows the cancel URL to this service
    const returned = await fetch(`${service.url}${back.pathname}${back.search}`, { redirect: 'manual' });
    assert.equal(returned.status, 303);
    assert.equal(returned.headers.get('location'), `https://toilets.example.test/partner?listing=${listing}&checkout=canceled`);
    const first = standIn.state.sessions.get(basic.json.url.split('/').pop())!;
    assert.equal(first.status, 'expired');

    const plus = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'plus' } });
    assert.equal(plus.status, 200, JSON.stringify(plus.json));
    assert.notEqual(plus.json.url, basic.json.url);
  });

  test('asking for the other tier while a session is open expires it first', async () => {
    const { service, standIn } = billed;
    const { browser, listing } = await approvedListing(service, toilets[5], 'Tabac Central', nextIp());
    const basic = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } });
    const plus = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'plus' } });
    assert.equal(plus.status, 200, JSON.stringify(plus.json));
    assert.equal(standIn.state.sessions.get(basic.json.url.split('/').pop())!.status, 'expired');
    const page = await fetch(basic.json.url);
    assert.equal(page.status, 410, 'the first page cannot be paid any more');
  });

  test('buy → running label → cancel in the portal → label goes → buy again answers 200', async () => {
    const { service, standIn } = billed;
    const toilet = toilets[6];
    const { browser, listing } = await approvedListing(service, toilet, 'Gelateria Sole', nextIp());
    const subscription = await buy(billed, browser, listing, 'basic');
    assert.deepEqual(await partnerOf(service, toilet), { name: 'Gelateria Sole', tier: 'basic', conditions: null, opening_hours: null, open_now: 'unknown', closes_at: null });

    const again = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'plus' } });
    assert.equal(again.status, 409, 'a subscription exists');
    assert.match(again.json.detail, /billing portal/);

    const portal = await browser.request('POST', '/billing/portal', { body: { listing } });
    assert.equal(portal.status, 200, JSON.stringify(portal.json));
    valid('HostedPageAnswer', portal.json);
    const portalSession = [...standIn.state.portals.values()].at(-1)!;
    assert.equal(portalSession.return_url, `https://toilets.example.test/partner?listing=${listing}`);
    const canceled = await fetch(`${portal.json.url}/cancel`, { method: 'POST', body: new URLSearchParams({ subscription }), redirect: 'manual' });
    assert.equal(canceled.status, 303);
    await standIn.webhooks.idle();
    assert.equal(await partnerOf(service, toilet), null, 'the label goes at once');

    const closed = await browser.request('POST', '/billing/portal', { body: { listing } });
    assert.equal(closed.status, 409, 'no subscription any more');
    const bought = await buy(billed, browser, listing, 'plus');
    assert.notEqual(bought, subscription);
    assert.equal((await partnerOf(service, toilet))?.tier, 'plus');
    const customers = new Set([...standIn.state.subscriptions.values()].filter((s) => s.metadata.listing === listing).map((s) => s.customer));
    assert.equal(customers.size, 1, 'the second purchase reuses the customer');
  });

  test('deleting the account: 409 naming the listing, then with confirm_cancellation the subscription is canceled at Stripe', async () => {
    const { service, standIn } = billed;
    const toilet = toilets[12];
    const { browser, listing } = await approvedListing(service, toilet, 'Leaving Lounge', nextIp());
    const subscription = await buy(billed, browser, listing);
    const refused = await browser.request('DELETE', '/account', { body: {} });
    assert.equal(refused.status, 409);
    problem(refused, 'account-not-deletable');
    assert.match(refused.json.detail, new RegExp(`Leaving Lounge \\(${listing}\\) has a subscription`));
    assert.equal(standIn.state.subscriptions.get(subscription)!.status, 'active', 'nothing canceled yet');

    standIn.api.unreachable = true;
    try {
      const down = await browser.request('DELETE', '/account', { body: { confirm_cancellation: true } });
      assert.equal(down.status, 503, 'Stripe did not answer: nothing deleted, try again');
      assert.match(down.json.detail, /nothing was deleted/);
      const still = (await browser.request('GET', '/partner/listings')).json.listings.find((l: { id: string }) => l.id === listing);
      assert.equal(still.claim.status, 'approved', 'the claim is untouched: the Stripe hook runs before the local ones');
    } finally {
      standIn.api.unreachable = false;
    }
    const deleted = await browser.request('DELETE', '/account', { body: { confirm_cancellation: true } });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.json));
    assert.equal(standIn.state.subscriptions.get(subscription)!.status, 'canceled');
    await standIn.webhooks.idle();
    assert.equal(await partnerOf(service, toilet), null);
    assert.equal((await service.app.billing.store.read((tables) => tables.subscription(subscription)))?.account_id, null, 'kept for the listing, linked to no account');
  });

  test('400, 401, 403, 404 and the 409s of the claim and of a manual plan', async () => {
    const { service } = billed;
    const { browser, listing } = await approvedListing(service, toilets[7], 'Boulangerie Nord', nextIp());
    const invalid = await browser.request('POST', '/billing/checkout', { body: { listing: 'pl_x', tier: 'gold', extra: true } });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.json.invalid_params.map((p: { name: string }) => p.name).sort(), ['extra', 'listing', 'tier']);
    const portalInvalid = await browser.request('POST', '/billing/portal', { body: {} });
    assert.equal(portalInvalid.status, 400);

    const signedOut = new Browser(service, nextIp());
    for (const path of ['/billing/checkout', '/billing/portal']) {
      const anonymous = await signedOut.request('POST', path, { body: { listing } });
      assert.equal(anonymous.status, 401, path);
      problem(anonymous, 'sign-in-required');
      const elsewhere = await browser.request('POST', path, { body: { listing }, origin: 'https://evil.example' });
      assert.equal(elsewhere.status, 403, path);
      problem(elsewhere, 'other-origin');
    }

    // the portal takes the listing only
    const bodyFor = (path: string, listingId: string) => (path === '/billing/checkout' ? { listing: listingId, tier: 'basic' } : { listing: listingId });
    const stranger = await approvedListing(service, toilets[8], 'Someone Else', nextIp());
    for (const path of ['/billing/checkout', '/billing/portal']) {
      const theirs = await browser.request('POST', path, { body: bodyFor(path, stranger.listing) });
      assert.equal(theirs.status, 404, path);
      problem(theirs, 'not-found');
      const unknown = await browser.request('POST', path, { body: bodyFor(path, `pl_${'0'.repeat(32)}`) });
      assert.equal(unknown.status, 404, path);
    }

    const pending = await claimAs(service, toilets[9], 'Pending Pizza', nextIp());
    for (const path of ['/billing/checkout', '/billing/portal']) {
      const notApproved = await pending.browser.request('POST', path, { body: bodyFor(path, pending.listing) });
      assert.equal(notApproved.status, 409, path);
      problem(notApproved, 'claim-not-approved');
      assert.match(notApproved.json.detail, /is pending, not approved/);
    }

    const manual = await runningListing(service, toilets[10], 'Manual Plan Museum', nextIp());
    for (const path of ['/billing/checkout', '/billing/portal']) {
      const refused = await manual.browser.request('POST', path, { body: bodyFor(path, manual.listing) });
      assert.equal(refused.status, 409, path);
      assert.match(refused.json.detail, /set by hand/);
    }
  });

  test('502 when Stripe does not answer: nothing half-recorded, the next click works', async () => {
    const { service, standIn } = billed;
    const { browser, listing } = await approvedListing(service, toilets[11], 'Unlucky Bar', nextIp());
    standIn.api.unreachable = true;
    try {
      const down = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } });
      assert.equal(down.status, 502);
      problem(down, 'provider-unreachable');
      assert.equal((await service.app.billing.store.read((tables) => tables.checkout(listing))), null, 'no pending checkout left behind');
    } finally {
      standIn.api.unreachable = false;
    }
    const up = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } });
    assert.equal(up.status, 200);

    await pay(up.json.url);
    await standIn.webhooks.idle();
    standIn.api.unreachable = true;
    try {
      const portal = await browser.request('POST', '/billing/portal', { body: { listing } });
      assert.equal(portal.status, 502);
    } finally {
      standIn.api.unreachable = false;
    }
  });
});

describe('503: partner payments not open, or not available', () => {
  let data: Data;
  const clock = new Clock(START);
  before(async () => {
    data = await importedData();
  });
  after(() => data.remove());

  test('without STRIPE_SECRET_KEY every billing operation answers 503 not open, with Retry-After', async () => {
    const service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' }, SILENT);
    try {
      const toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
      const { browser, listing } = await approvedListing(service, toilets[0], 'No Payments Here', '198.51.100.90');
      for (const path of ['/billing/checkout', '/billing/portal']) {
        const off = await browser.request('POST', path, { body: { listing } });
        assert.equal(off.status, 503, path);
        problem(off, 'payments-not-open');
        assert.ok(Number(off.headers.get('retry-after')) > 0);
      }
      const webhook = await fetch(`${service.url}/api/v1/billing/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' }, body: '{}' });
      assert.equal(webhook.status, 503);
      // the guard order: 503 (billing off) before 413 (size) before 400 (signature)
      const oversize = await fetch(`${service.url}/api/v1/billing/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'x'.repeat(WEBHOOK_MAX_BYTES + 1) });
      assert.equal(oversize.status, 503);
      problem({ json: (await oversize.json()) as { type: string } }, 'payments-not-open');
    } finally {
      await service.close();
    }
  });

  test('a Stripe refusal (an unknown price) answers 503 not available; its message is logged, never shown', async () => {
    const billed = await startBilled(data, clock, { STRIPE_PRICE_PLUS: 'price_nobody_made' });
    try {
      const toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
      const { browser, listing } = await approvedListing(billed.service, toilets[1], 'Wrong Price Ltd', '198.51.100.91');
      const refused = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'plus' } });
      assert.equal(refused.status, 503);
      problem(refused, 'payments-unavailable');
      assert.ok(!JSON.stringify(refused.json).includes('price_nobody_made'), 'the provider message stays in the log');
      assert.match(billed.log.text(), /No such price: 'price_nobody_made'/);
      assert.ok(!billed.log.text().includes(billed.standIn.env.STRIPE_SECRET_KEY), 'no secret in the log');
      assert.equal((await billed.service.app.billing.store.read((tables) => tables.checkout(listing))), null);
      const basic = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } });
      assert.equal(basic.status, 200, 'the other tier is configured right');
    } finally {
      await billed.close();
    }
  });
});
