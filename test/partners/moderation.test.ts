// The moderator's claim review and the operator's plan through `npm run moderate` (one real process, the
// rest in this process through main()), against a running server with an injected clock: the queue shows
// each pending claim with the toilet, the business, its contact details and the other claims on it;
// approving (with a corrected name) rejects the other pending claims; the server shows the partner once a
// plan runs, in the next answer after it notices the command's commit; every status change is in the
// account event log and every action in the moderation log; refusals exit 1, wrong arguments 2.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, moderate, operatorCommand, readSourceToilets, type Data, type Service } from '../community/support.js';
import { startAccountsService } from '../accounts/support.js';
import { claimAs, type Listed } from './support.js';

const START = Date.parse('2024-06-05T08:00:00Z');

describe('claim review and plans through the moderation command', () => {
  let data: Data;
  let service: Service;
  let toilets: string[];
  let azur: Listed;
  let rival: Listed;
  const clock = new Clock(START);

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
    azur = await claimAs(service, toilets[0], 'Cafe Azur', '198.51.100.70');
    rival = await claimAs(service, toilets[0], 'Rival Bar', '198.51.100.71');
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('list claims (a real process): each pending claim with its context', () => {
    const run = operatorCommand('moderate-cli', data, ['list', 'claims', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const claims = run.json.claims;
    assert.deepEqual(claims.map((c: { id: string }) => c.id), [azur.claim, rival.claim]);
    const [first] = claims;
    assert.equal(first.business_name, 'Cafe Azur');
    assert.equal(first.contact_email, 'cafeazur@example.org');
    assert.equal(first.listing_id, azur.listing);
    assert.equal(first.toilet_id, toilets[0]);
    assert.equal(typeof first.toilet.lat, 'number');
    assert.deepEqual(first.other_claims.map((o: { id: string }) => o.id), [rival.claim]);
    const text = operatorCommand('moderate-cli', data, ['list', 'claims']);
    assert.match(text.stdout, /Business claims waiting: 2/);
    assert.match(text.stdout, /contact: cafeazur@example\.org/);
  });

  test('approve with a corrected name, then a plan: the server shows the partner; plan none hides it', async () => {
    const approved = (await moderate(data, ['approve', azur.claim, '--name', 'Café Azur SARL', '--reason', 'checked the trade register']));
    assert.equal(approved.status, 0, approved.stderr);
    assert.match(approved.stdout, new RegExp(`rejected the other pending claims on it: ${rival.claim}`));
    service.app.partners.poll();
    assert.equal((await service.toilet(toilets[0])).partner, null, 'no plan yet');

    const planned = (await moderate(data, ['plan', azur.listing, 'plus', '--reason', 'billed by invoice']));
    assert.equal(planned.status, 0, planned.stderr);
    service.app.partners.poll();
    const shown = await service.toilet(toilets[0]);
    assert.deepEqual(shown.partner, { name: 'Café Azur SARL', tier: 'plus', conditions: null, opening_hours: null, open_now: 'unknown', closes_at: null });
    assert.equal(shown.verification_state, 'partner_confirmed');

    const listings = await azur.browser.request('GET', '/partner/listings');
    assert.deepEqual(listings.json.listings[0].plan, { tier: 'plus', source: 'manual', running: true });
    const rivalListings = await rival.browser.request('GET', '/partner/listings');
    assert.equal(rivalListings.json.listings[0].claim.status, 'rejected');
    assert.equal(rivalListings.json.listings[0].claim.reason, 'another claim on this toilet was approved');

    assert.equal((await moderate(data, ['plan', azur.listing, 'none', '--reason', 'invoice unpaid'])).status, 0);
    service.app.partners.poll();
    const hidden = await service.toilet(toilets[0]);
    assert.equal(hidden.partner, null);
    assert.notEqual(hidden.verification_state, 'partner_confirmed');

    const log = (await moderate(data, ['log', '--json']));
    assert.deepEqual(log.json.slice(0, 3).map((e: { action: string; target: string }) => `${e.action} ${e.target}`), [`plan ${azur.listing}`, `plan ${azur.listing}`, `approve_claim ${azur.claim}`]);
    assert.ok(!JSON.stringify(log.json).includes('@example.org'), 'no contact details in the moderation log');
  });

  test('every claim status change is in the account event log, in order', () => {
    const account = (listed: Listed) => service.app.accounts.store.db.prepare('SELECT account_id FROM partner_listings WHERE id = ?').pluck().get(listed.listing) as string;
    const events = service.app.accounts.events;
    const statuses = (listed: Listed) =>
      events.read({ after: 0, limit: 100, account: account(listed) }).filter((e) => e.type === 'partner.claim.status_changed').map((e) => [e.data.old_status, e.data.new_status, e.listing_id, e.toilet_id]);
    assert.deepEqual(statuses(azur), [[null, 'pending', azur.listing, toilets[0]], ['pending', 'approved', azur.listing, toilets[0]]]);
    assert.deepEqual(statuses(rival), [[null, 'pending', rival.listing, toilets[0]], ['pending', 'rejected', rival.listing, toilets[0]]]);
    assert.ok(!JSON.stringify(events.read({ after: 0, limit: 100 })).includes('@example.org'), 'no contact details in events');
  });

  test('refusals exit 1 and say why; wrong arguments exit 2', async () => {
    const again = (await moderate(data, ['approve', azur.claim, '--reason', 'twice']));
    assert.equal(again.status, 1);
    assert.match(again.stderr, /is approved, not pending/);
    assert.equal((await moderate(data, ['reject', 'clm_000000000000000000000000', '--reason', 'x'])).status, 1);
    const notApproved = await claimAs(service, toilets[1], 'Waiting Shop', '198.51.100.72');
    const early = (await moderate(data, ['plan', notApproved.listing, 'basic', '--reason', 'too early']));
    assert.equal(early.status, 1);
    assert.match(early.stderr, /not approved/);
    assert.equal((await moderate(data, ['plan', azur.listing, 'gold', '--reason', 'x'])).status, 1);
    assert.equal((await moderate(data, ['plan', azur.listing, 'basic'])).status, 2, 'a plan needs a reason');
    assert.equal((await moderate(data, ['reject', notApproved.claim, '--name', 'X', '--reason', 'x'])).status, 2, '--name goes with approve only');
    assert.equal((await moderate(data, ['approve', 'sub_1', '--name', 'X', '--reason', 'x'])).status, 2, '--name goes with claims only');
  });

  test('the plan command refuses a listing with an open Stripe subscription, and Stripe never touches a manual plan', async () => {
    const shop = await claimAs(service, toilets[2], 'Stripe Shop', '198.51.100.73');
    assert.equal((await moderate(data, ['approve', shop.claim, '--reason', 'ok'])).status, 0);
    const plans = service.app.partners.plans;
    assert.deepEqual(plans.applyStripePlan(shop.listing, { tier: 'basic', subscriptionId: 'sub_123', status: 'active' }), { applied: true, state: { tier: 'basic', source: 'stripe', running: true } });
    assert.equal(plans.hasOpenStripeSubscription(shop.listing), true);
    const refused = (await moderate(data, ['plan', shop.listing, 'plus', '--reason', 'upgrade by hand']));
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /Stripe subscription sub_123 \(active\)/);
    plans.applyStripePlan(shop.listing, { tier: null, subscriptionId: 'sub_123', status: 'canceled' });
    assert.equal(plans.hasOpenStripeSubscription(shop.listing), false);
    assert.equal((await moderate(data, ['plan', shop.listing, 'plus', '--reason', 'billed by invoice now'])).status, 0, 'a canceled subscription is final');
    const late = plans.applyStripePlan(shop.listing, { tier: 'basic', subscriptionId: 'sub_456', status: 'active' });
    assert.deepEqual(late, { applied: false, state: { tier: 'plus', source: 'manual', running: true } }, 'the manual plan stays');
  });

  test('a site moderator may not decide a claim on a toilet where their own account holds a claim (409); another moderator and the command may', async () => {
    const own = await claimAs(service, toilets[3], 'Moderator Cafe', '198.51.100.74');
    const other = await claimAs(service, toilets[3], 'Other Cafe', '198.51.100.75');
    const peer = await claimAs(service, toilets[4], 'Peer Moderator', '198.51.100.76');
    for (const listed of [own, peer]) {
      const id = (await listed.browser.request('GET', '/account')).json.id;
      assert.equal((await moderate(data, ['moderators', 'add', id, '--reason', 'runs the queue'])).status, 0);
    }
    const act = (listed: Listed, action: 'approve' | 'reject', claim: string) => listed.browser.request('POST', '/moderation/actions', { body: { action, target: claim, reason: 'checked' } });
    for (const [action, claim] of [['approve', own.claim], ['reject', other.claim], ['approve', other.claim]] as const) {
      const refused = await act(own, action, claim);
      assert.equal(refused.status, 409, `${action} ${claim}: ${JSON.stringify(refused.json)}`);
      assert.match(refused.json.type, /\/problems\/own-claim$/);
      assert.match(refused.json.detail, /another moderator/);
    }
    assert.equal((await own.browser.request('GET', '/partner/listings')).json.listings[0].claim.status, 'pending', 'nothing was decided');
    const decided = await act(peer, 'reject', own.claim);
    assert.equal(decided.status, 200, JSON.stringify(decided.json));
    assert.equal((await moderate(data, ['approve', other.claim, '--reason', 'the operator decides for the install'])).status, 0);
  });
});
