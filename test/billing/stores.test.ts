// The billing store (src/billing/store.ts) in both of its implementations, the same checks for each: the
// ACCOUNTS_DB file and PostgreSQL's accounts schema (a cluster of the test's own). Two processes over one
// place race as two replicas do: a double click on checkout through both keeps one checkout row (the second
// sees the first's, whose idempotency key gives one Stripe session), a Stripe event resent through both is
// handled once; a webhook's effect on a listing commits with its event id or not at all; a customer is kept once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PartnerTables } from '../../src/partners/store.js';
import type { BillingTables, CheckoutRow, SubscriptionRow } from '../../src/billing/store.js';
import type { Step } from '../../src/storage/steps.js';
import { anAccount, claimsOf, onEachEngine, type AccountSide } from '../support/account-stores.js';

const T0 = Date.parse('2024-06-05T08:00:00Z');
const now = () => T0;
let toilets = 0;
const byText = (x: unknown, y: unknown) => String(x).localeCompare(String(y));

/** A new account with a listing (its claim pending). */
async function aListing(side: AccountSide): Promise<{ account: string; listing: string }> {
  const account = await anAccount(side.accounts, T0);
  const made = await claimsOf(side, now).claim(account, `n${2000 + ++toilets}`, { business_name: 'Bäckerei Ost', contact_email: 'ost@example.org' });
  return { account, listing: made.listing };
}

/** Checkout's decision on a click: the row already there, or a new one (checkout.ts claimCheckout, reduced to the race). */
function* click(tables: BillingTables, row: CheckoutRow): Step<string> {
  const pending = yield* tables.checkout(row.listing_id);
  if (pending !== null) return `seen ${pending.attempt}`;
  yield* tables.insertCheckout(row);
  return `made ${row.attempt}`;
}

function subscriptionOf(listing: string, account: string, id: string, status: string, created: number): SubscriptionRow {
  return { subscription_id: id, listing_id: listing, account_id: account, customer_id: `cus_${account}`, status, price_id: 'price_basic', tier: 'basic', period_start: created, created, running: status === 'active' ? 1 : 0, updated_at: created };
}

onEachEngine('toilet-billing-stores', now, (sides) => {

  test('a double click on checkout through two processes keeps one checkout row; the second sees the first', async () => {
    const { account, listing } = await aListing(sides.a);
    const row = (attempt: string): CheckoutRow => ({ listing_id: listing, account_id: account, tier: 'basic', attempt, session_id: null, created_at: T0 });
    const results = await Promise.all([sides.a.billing.transaction((t) => click(t, row('first'))), sides.b.billing.transaction((t) => click(t, row('second')))]);
    const made = results.filter((r) => r.startsWith('made '));
    assert.equal(made.length, 1, JSON.stringify(results));
    assert.ok(results.includes(`seen ${made[0].slice(5)}`), 'the other click found that row');
    await sides.a.billing.transaction((t) => t.setCheckoutSession(listing, made[0].slice(5), `cs_${listing}`));
    assert.equal((await sides.b.billing.read((t) => t.checkout(listing)))?.session_id, `cs_${listing}`);
    await sides.b.billing.transaction((t) => t.deleteCheckoutOfSession(`cs_${listing}`));
    assert.equal(await sides.a.billing.read((t) => t.checkout(listing)), null);
  });

  test('a Stripe event resent through two processes at once is handled once', async () => {
    const { account, listing } = await aListing(sides.a);
    const handle = (side: AccountSide) =>
      side.billing.transaction(function* (t) {
        if (yield* t.eventHandled('evt_1')) return 'duplicate';
        yield* t.upsertSubscription(subscriptionOf(listing, account, 'sub_1', 'active', T0));
        yield* t.recordEvent('evt_1', 'customer.subscription.created', T0);
        return 'handled';
      });
    assert.deepEqual((await Promise.all([handle(sides.a), handle(sides.b)])).sort(byText), ['duplicate', 'handled']);
    assert.equal(await sides.b.billing.transaction((t) => t.purgeEvents(T0 - 1)), 0);
    assert.equal(await sides.a.billing.transaction((t) => t.purgeEvents(T0)), 1, 'event ids are forgotten after their days');
  });

  test("a webhook's plan on a listing commits with its event id; a throw leaves neither", async () => {
    const { listing } = await aListing(sides.a);
    const planned = (fail: boolean) =>
      sides.a.billing.transaction(function* (t) {
        yield* (t.listings as PartnerTables).setStripe(listing, 'sub_2', 'active', T0 + 1);
        yield* t.recordEvent(`evt_${listing}`, 'checkout.session.completed', T0);
        if (fail) throw new Error('the webhook failed');
      });
    await assert.rejects(planned(true), /the webhook failed/);
    assert.equal((await sides.b.partners.read((t) => t.listing(listing)))?.stripe_subscription_id, null);
    assert.equal(await sides.b.billing.read((t) => t.eventHandled(`evt_${listing}`)), false);
    await planned(false);
    assert.equal((await sides.b.partners.read((t) => t.listing(listing)))?.stripe_subscription_id, 'sub_2');
    assert.equal(await sides.b.billing.read((t) => t.eventHandled(`evt_${listing}`)), true);
  });

  test("subscriptions: the listing's current is the newest that can run; a customer is kept once", async () => {
    const { account, listing } = await aListing(sides.a);
    await sides.a.billing.transaction(function* (t) {
      yield* t.upsertSubscription(subscriptionOf(listing, account, 'sub_old', 'active', T0));
      yield* t.upsertSubscription(subscriptionOf(listing, account, 'sub_new', 'canceled', T0 + 5));
    });
    assert.equal((await sides.b.billing.read((t) => t.currentOfListing(listing)))?.subscription_id, 'sub_old');
    assert.deepEqual((await sides.b.billing.read((t) => t.openSubscriptionsOf(account))).map((s) => s.subscription_id), ['sub_old']);
    await Promise.all([sides.a, sides.b].map((side, i) => side.billing.transaction((t) => t.insertCustomer(account, `cus_${i}_${account}`, T0))));
    const kept = await sides.a.billing.read((t) => t.customerOf(account));
    assert.ok(kept !== null && (await sides.b.billing.read((t) => t.accountOfCustomer(kept))) === account);
  });
});
