// receiveStripeEvent through the real server, signed by the `stripe` SDK's own helper and delivered by the
// stand-in: the guard order (503 → 413 → 400 signature), forged, old, changed and missing signatures, the
// 512 KB limit, duplicates, Stripe down (502, not recorded, the retry redoes it), out-of-order events, a
// body that lies (the state read from Stripe wins), 100 events from one address in a minute, unknown types,
// and the plan rules: tier from the price (upgrade, retired price), past-due grace, statuses that do not run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, readSourceToilets, type Data } from '../community/support.js';
import { valid } from '../accounts/support.js';
import { approvedListing, buy, partnerOf, problem, startBilled, type Billed } from './support.js';
import { WEBHOOK_MAX_BYTES } from '../../src/billing/operations.js';

const START = Date.parse('2024-06-05T08:00:00Z');
const DAY_MS = 86_400_000;

describe('receiveStripeEvent', () => {
  let data: Data;
  let billed: Billed;
  let toilets: string[];
  const clock = new Clock(START);
  let next = 0;
  /** A toilet and a business of their own for each test. */
  const fresh = async (name: string) => {
    const toilet = toilets[next++];
    const listed = await approvedListing(billed.service, toilet, name, `198.51.100.${next + 20}`);
    return { ...listed, toilet };
  };
  const subscriptionEvent = (id: string, subscription: string, status = 'active') =>
    JSON.stringify({ id, object: 'event', type: 'customer.subscription.updated', created: Math.floor(clock.ms / 1000), data: { object: { id: subscription, object: 'subscription', status } } });

  before(async () => {
    data = await importedData();
    // the service's own per-IP budget, to show the webhook neither counts toward it nor is refused by it
    billed = await startBilled(data, clock, { RATE_LIMIT_PER_MINUTE: '60' });
    toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
  });
  after(async () => {
    await billed.close();
    data.remove();
  });

  test('a forged, old, changed or missing signature answers 400 and changes nothing', async () => {
    const { standIn, service } = billed;
    const { browser, listing, toilet } = await fresh('Signed Café');
    const subscription = await buy(billed, browser, listing);
    standIn.webhooks.hold(); // the cancel's own event stays back: only the forgeries reach the service
    standIn.state.cancel(subscription);
    const payload = subscriptionEvent('evt_forged_0001', subscription);

    const forged = await standIn.webhooks.post(payload, { secret: 'whsec_somebody_else' });
    assert.equal(forged.status, 400);
    problem({ json: JSON.parse(forged.body) }, 'invalid-signature');
    assert.match(JSON.parse(forged.body).detail, /does not match the body/);

    const old = await standIn.webhooks.post(payload, { timestampSeconds: Math.floor(clock.ms / 1000) - 301 });
    assert.equal(old.status, 400);
    assert.match(JSON.parse(old.body).detail, /older than 5 minutes/);
    const justInTime = await standIn.webhooks.post(subscriptionEvent('evt_in_time_0001', 'sub_nobody_has'), { timestampSeconds: Math.floor(clock.ms / 1000) - 299 });
    assert.equal(justInTime.status, 200, 'within the tolerance');

    const signature = (await import('stripe')).default.webhooks.generateTestHeaderString({ payload, secret: standIn.env.STRIPE_WEBHOOK_SECRET, timestamp: Math.floor(clock.ms / 1000) });
    const changed = await standIn.webhooks.post(payload.replace('"active"', '"activE"'), { signature });
    assert.equal(changed.status, 400, 'one byte changed');
    const reformatted = await standIn.webhooks.post(JSON.stringify(JSON.parse(payload), null, 1), { signature });
    assert.equal(reformatted.status, 400, 'the same JSON with other bytes');
    const missing = await fetch(`${service.url}/api/v1/billing/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload });
    assert.equal(missing.status, 400);
    assert.match(((await missing.json()) as { detail: string }).detail, /header is missing/);

    assert.equal((await service.app.billing.store.read((tables) => tables.eventHandled('evt_forged_0001'))), false);
    assert.equal((await partnerOf(service, toilet))?.tier, 'basic', 'the plan still runs: nothing was read');
    standIn.webhooks.release();
    await standIn.webhooks.idle();
    assert.equal(await partnerOf(service, toilet), null, 'the real event ends it');
  });

  test('a signed body that is not an event answers 400 listing what is missing', async () => {
    const reply = await billed.standIn.webhooks.post(JSON.stringify({ id: 'not-an-event', data: {} }));
    assert.equal(reply.status, 400);
    const body = JSON.parse(reply.body);
    problem({ json: body }, 'invalid-parameters');
    assert.deepEqual(body.invalid_params.map((p: { name: string }) => p.name), ['id', 'type', 'data.object']);
  });

  test('413 above 512 KB, before any parsing or signature check; exactly 512 KB reaches the signature check', async () => {
    const url = `${billed.service.url}/api/v1/billing/webhook`;
    const over = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' }, body: 'x'.repeat(WEBHOOK_MAX_BYTES + 1) });
    assert.equal(over.status, 413);
    problem({ json: (await over.json()) as { type: string } }, 'payload-too-large');
    const limit = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' }, body: 'x'.repeat(WEBHOOK_MAX_BYTES) });
    assert.equal(limit.status, 400);
    problem({ json: (await limit.json()) as { type: string } }, 'invalid-signature');
    assert.equal(WEBHOOK_MAX_BYTES, 512 * 1024);
  });

  test('a repeated event id answers 200 duplicate and changes nothing', async () => {
    const { standIn, service } = billed;
    const { browser, listing, toilet } = await fresh('Twice Told Tavern');
    const subscription = await buy(billed, browser, listing);
    const created = standIn.webhooks.events.find((e) => e.type === 'customer.subscription.created' && (e.data.object as { id: string }).id === subscription)!;
    // Stripe's subscription is unpaid by now, but that event is held back: only the old one comes again
    standIn.webhooks.hold();
    standIn.state.setStatus(subscription, 'unpaid');
    const again = await standIn.webhooks.post(JSON.stringify(created));
    assert.equal(again.status, 200);
    valid('WebhookAnswer', JSON.parse(again.body));
    assert.deepEqual(JSON.parse(again.body), { received: true, duplicate: true });
    assert.equal((await partnerOf(service, toilet))?.tier, 'basic', 'a duplicate reads and writes nothing');
    standIn.webhooks.release();
    await standIn.webhooks.idle();
    assert.equal(await partnerOf(service, toilet), null, 'unpaid does not run');
    const first = standIn.webhooks.attempts.find((a) => a.eventId === created.id)!;
    assert.deepEqual(JSON.parse(first.body), { received: true });
  });

  test('Stripe down: 502 without recording the id, and the retry redoes the work', async () => {
    const { standIn, service } = billed;
    const { browser, listing, toilet } = await fresh('Down Time Diner');
    const subscription = await buy(billed, browser, listing);
    standIn.api.unreachable = true;
    const firstAttempt = new Promise<void>((resolve, reject) => {
      standIn.webhooks.once('attempt', (attempt) => {
        assert.equal(attempt.status, 502);
        problem({ json: JSON.parse(attempt.body) }, 'provider-unreachable');
        void service.app.billing.store
          .read((tables) => tables.eventHandled(attempt.eventId))
          .then((handled) => {
            assert.equal(handled, false, 'not recorded');
            standIn.api.unreachable = false;
            resolve();
          })
          .catch(reject);
      });
    });
    const canceledEvent = standIn.state.cancel(subscription);
    await firstAttempt;
    await standIn.webhooks.idle();
    const event = standIn.webhooks.last('customer.subscription.deleted')!;
    assert.equal((canceledEvent as { id: string }).id, subscription);
    assert.deepEqual(
      standIn.webhooks.attempts.filter((a) => a.eventId === event.id).map((a) => a.status),
      [502, 200],
    );
    assert.equal((await service.app.billing.store.read((tables) => tables.eventHandled(event.id))), true);
    assert.equal(await partnerOf(service, toilet), null);
  });

  test('out of order: an older update arriving after the deletion leaves the subscription canceled', async () => {
    const { standIn, service } = billed;
    const { browser, listing, toilet } = await fresh('Backwards Bistro');
    const subscription = await buy(billed, browser, listing);
    standIn.webhooks.hold();
    standIn.state.switchPrice(subscription, standIn.env.STRIPE_PRICE_PLUS); // updated (plus, active)
    standIn.state.cancel(subscription); // deleted
    standIn.webhooks.release(true); // deleted first, then the older updated
    await standIn.webhooks.idle();
    assert.equal(await partnerOf(service, toilet), null);
    assert.equal((await service.app.billing.store.read((tables) => tables.subscription(subscription)))?.status, 'canceled');

    // and the other way round on a new purchase: deleted of the old subscription after the new one's created
    const renewed = await buy(billed, browser, listing, 'plus');
    assert.equal((await partnerOf(service, toilet))?.tier, 'plus');
    await standIn.webhooks.post(JSON.stringify(standIn.webhooks.events.find((e) => e.type === 'customer.subscription.deleted' && (e.data.object as { id: string }).id === subscription)));
    const lateId = `evt_late_${subscription.slice(4)}`;
    const late = await standIn.webhooks.post(JSON.stringify({ id: lateId, object: 'event', type: 'customer.subscription.deleted', data: { object: { id: subscription } } }));
    assert.equal(late.status, 200);
    assert.equal((await partnerOf(service, toilet))?.tier, 'plus', "an old subscription's late event does not stop the new one");
    assert.equal((await service.app.billing.store.read((tables) => tables.currentOfListing(listing)))?.subscription_id, renewed);
  });

  test('a checkout.session.completed whose body lies: the session read from Stripe wins', async () => {
    const { standIn, service } = billed;
    const { browser, listing, toilet } = await fresh('Honest Hut');
    const started = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'plus' } });
    const sessionId = started.json.url.split('/').pop();
    const lie = JSON.stringify({
      id: 'evt_lie_0000000001',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: sessionId, object: 'checkout.session', status: 'complete', payment_status: 'paid', subscription: 'sub_made_up', metadata: { listing } } },
    });
    const reply = await standIn.webhooks.post(lie);
    assert.equal(reply.status, 200);
    assert.equal(await partnerOf(service, toilet), null, 'unpaid at Stripe: no plan');
    assert.equal((await service.app.billing.store.read((tables) => tables.checkout(listing)))?.session_id, sessionId, 'still open at Stripe: the checkout stays');
    assert.equal(
      standIn.api.requests.some((r) => r.path === '/v1/subscriptions/sub_made_up'),
      false,
      'the subscription the body names is never asked for',
    );

    // a subscription event claiming `active` for a canceled one
    const second = await fresh('Second Honest Hut');
    const subscription = await buy(billed, second.browser, second.listing);
    standIn.state.cancel(subscription);
    await standIn.webhooks.idle();
    const claimsActive = await standIn.webhooks.post(subscriptionEvent('evt_lie_0000000002', subscription, 'active'));
    assert.equal(claimsActive.status, 200);
    assert.equal((await service.app.billing.store.read((tables) => tables.subscription(subscription)))?.status, 'canceled');
  });

  test('100 signed events from one address within a minute all answer 200, and use none of its budget', async () => {
    const { standIn, service } = billed;
    const { browser, listing } = await fresh('Busy Burst Bar');
    const subscription = await buy(billed, browser, listing);
    const budget = async () => Number((await fetch(`${service.url}/api/v1/toilets/${toilets[0]}`)).headers.get('ratelimit-remaining'));
    const before = await budget();
    const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => standIn.webhooks.post(subscriptionEvent(`evt_burst_${String(i).padStart(4, '0')}`, subscription))));
    assert.deepEqual(replies.map((r) => r.status), Array(100).fill(200));
    assert.equal(await budget(), before - 1, 'only the budget check itself counted');
  });

  test('an event type not handled answers 200 and is logged once', async () => {
    const { standIn, log } = billed;
    for (const id of ['evt_other_0001', 'evt_other_0002']) {
      const reply = await standIn.webhooks.post(JSON.stringify({ id, object: 'event', type: 'invoice.finalized', data: { object: { id: 'in_1', object: 'invoice' } } }));
      assert.equal(reply.status, 200);
    }
    assert.equal(log.lines.filter((l) => l.message.startsWith('Stripe event type not handled') && l.fields?.type === 'invoice.finalized').length, 1);
  });

  test('the tier follows the price: an upgrade in the portal, and a retired price that runs nothing', async () => {
    const { standIn, service, log } = billed;
    const { browser, listing, toilet } = await fresh('Upgrade Urbain');
    const subscription = await buy(billed, browser, listing, 'basic');
    const portal = await browser.request('POST', '/billing/portal', { body: { listing } });
    const switched = await fetch(`${portal.json.url}/switch`, { method: 'POST', body: new URLSearchParams({ subscription, price: standIn.env.STRIPE_PRICE_PLUS }), redirect: 'manual' });
    assert.equal(switched.status, 303);
    await standIn.webhooks.idle();
    assert.equal((await partnerOf(service, toilet))?.tier, 'plus');

    standIn.state.switchPrice(subscription, 'price_stand_in_retired');
    await standIn.webhooks.idle();
    assert.equal(await partnerOf(service, toilet), null);
    assert.ok(log.lines.some((l) => l.message.includes('price configured for no tier') && l.fields?.price === 'price_stand_in_retired'));
  });

  test('past due runs for the grace from the start of the unpaid period; the sweep stops it when the grace ends', async () => {
    const { standIn, service } = billed;
    const { browser, listing, toilet } = await fresh('Late Payer Lounge');
    const subscription = await buy(billed, browser, listing);
    standIn.state.setStatus(subscription, 'past_due', Math.floor((clock.ms - 2 * DAY_MS) / 1000));
    await standIn.webhooks.idle();
    assert.equal((await partnerOf(service, toilet))?.tier, 'basic', 'day 2 of 7');

    const saved = clock.ms;
    clock.ms += 6 * DAY_MS; // day 8
    try {
      await service.app.billing.sweep();
      assert.equal(await partnerOf(service, toilet), null, 'beyond the grace');
    } finally {
      clock.ms = saved;
    }

    for (const status of ['incomplete', 'unpaid', 'paused', 'active'] as const) {
      standIn.state.setStatus(subscription, status);
      await standIn.webhooks.idle();
      assert.equal((await partnerOf(service, toilet))?.tier ?? null, status === 'active' ? 'basic' : null, status);
    }
    standIn.state.setStatus(subscription, 'past_due', Math.floor((clock.ms - 8 * DAY_MS) / 1000));
    await standIn.webhooks.idle();
    assert.equal(await partnerOf(service, toilet), null, 'an event that arrives beyond the grace does not run it');
  });
});
