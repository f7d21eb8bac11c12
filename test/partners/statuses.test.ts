// Every status the spec lists for claimToilet and updatePartnerProfile, through the real server with real
// passkey sign-up: 201/200, 400 (schema, a website that is not http(s), hours the evaluator cannot read),
// 401, 403 (other origin), 404 (unknown toilet, a toilet marked gone, a listing of another account), 409
// (own claim pending or approved, another business holds the toilet, claim not approved, no running plan),
// 429; that two claims sent at once make one; and that a rejected claim does not block a new one. checkPartnerHours, the dashboard's check of the
// hours field: the same validation, what the label would say, nothing saved.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, readSourceToilets, type Data, type Service } from '../community/support.js';
import { Browser, startAccountsService, valid } from '../accounts/support.js';
import { claimAs, runningListing } from './support.js';

const START = Date.parse('2024-06-05T08:00:00Z');
const problem = (reply: { json: { type: string } }, slug: string) => assert.ok(reply.json.type.endsWith(`/problems/${slug}`), `${reply.json.type} is ${slug}`);

describe('claimToilet and updatePartnerProfile statuses', () => {
  let data: Data;
  let service: Service;
  let toilets: string[];
  const clock = new Clock(START);

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('two claims of one account on one toilet sent at once: one 201, one 409, one claim stored', async () => {
    const toilet = toilets[toilets.length - 1];
    const twice = new Browser(service, '198.51.100.48');
    await twice.signUp('Twice Bar');
    const body = { business_name: 'Twice Bar', contact_email: 'twice@example.org' };
    const answers = await Promise.all([0, 1].map(() => twice.request('POST', `/toilets/${toilet}/claims`, { body })));
    assert.deepEqual(answers.map((a) => a.status).sort((a, b) => a - b), [201, 409], answers.map((a) => JSON.stringify(a.json)).join('\n'));
    problem(answers.find((a) => a.status === 409)!, 'claim-conflict');
    const stored = service.app.accounts.file.db.prepare('SELECT count(*) FROM partner_claims WHERE toilet_id = ?').pluck().get(toilet);
    assert.equal(stored, 1, 'one claim and one listing, not two');
  });

  test('claimToilet: 201 pending, then 409 for the same account; 400, 401, 403, 404', async () => {
    const toilet = toilets[0];
    const cafe = new Browser(service, '198.51.100.40');
    await cafe.signUp('Café Azur');
    const body = { business_name: 'Café Azur', contact_email: 'hello@cafe-azur.example', contact_phone: '+377 93 00 00 00', website: 'https://cafe-azur.example/', note: 'We run the toilet behind the bar.' };
    const created = await cafe.request('POST', `/toilets/${toilet}/claims`, { body });
    assert.equal(created.status, 201);
    valid('ClaimToiletAnswer', created.json);
    assert.equal(created.json.status, 'pending');
    assert.match(created.json.id, /^clm_[0-9a-f]{24}$/);
    assert.equal(created.headers.get('cache-control'), 'no-store');

    const again = await cafe.request('POST', `/toilets/${toilet}/claims`, { body });
    assert.equal(again.status, 409);
    problem(again, 'claim-conflict');

    const invalid = await cafe.request('POST', `/toilets/${toilets[1]}/claims`, { body: { business_name: 'C', contact_email: 'not an address', extra: 1 } });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.json.invalid_params.map((p: { name: string }) => p.name).sort(), ['business_name', 'contact_email', 'extra']);
    const ftp = await cafe.request('POST', `/toilets/${toilets[1]}/claims`, { body: { ...body, website: 'ftp://cafe-azur.example/' } });
    assert.equal(ftp.status, 400);
    assert.deepEqual(ftp.json.invalid_params.map((p: { name: string }) => p.name), ['website']);
    const blankName = await cafe.request('POST', `/toilets/${toilets[1]}/claims`, { body: { ...body, business_name: '   ' } });
    assert.equal(blankName.status, 400);

    const unknown = await cafe.request('POST', '/toilets/n999999999999/claims', { body });
    assert.equal(unknown.status, 404);
    problem(unknown, 'not-found');

    const elsewhere = await cafe.request('POST', `/toilets/${toilets[1]}/claims`, { body, origin: 'https://evil.example' });
    assert.equal(elsewhere.status, 403);
    problem(elsewhere, 'other-origin');

    const signedOut = new Browser(service, '198.51.100.41');
    const anonymous = await signedOut.request('POST', `/toilets/${toilets[1]}/claims`, { body });
    assert.equal(anonymous.status, 401);
    problem(anonymous, 'sign-in-required');
  });

  test('a toilet marked gone by a moderator cannot be claimed (404)', async () => {
    const toilet = toilets[2];
    service.app.community.store.readable.prepare("INSERT INTO locks (toilet_id, attribute, value, at) VALUES (?, 'existence', 'gone', ?)").run(toilet, clock.ms);
    service.app.catalog.refreshOverlays([toilet]);
    const { browser } = await claimAs(service, toilets[3], 'Kiosk Gone Test', '198.51.100.42');
    const refused = await browser.request('POST', `/toilets/${toilet}/claims`, { body: { business_name: 'Kiosk', contact_email: 'k@example.org' } });
    assert.equal(refused.status, 404);
  });

  test('another business holding the toilet answers 409; a rejected claim blocks nothing', async () => {
    const toilet = toilets[4];
    const first = await claimAs(service, toilet, 'Bar Un', '198.51.100.43');
    const second = await claimAs(service, toilet, 'Bar Deux', '198.51.100.44');
    await service.app.partners.claims.reject(second.claim, 'not the operator of this toilet');
    const retried = await second.browser.request('POST', `/toilets/${toilet}/claims`, { body: { business_name: 'Bar Deux', contact_email: 'deux@example.org' } });
    assert.equal(retried.status, 201, 'a rejected claim does not block a new one');
    const decision = await service.app.partners.claims.approve(first.claim, 'phoned the business');
    assert.deepEqual(decision.rejected_others, [retried.json.id], 'approving rejects the other pending claims');
    const third = new Browser(service, '198.51.100.45');
    await third.signUp('Bar Trois');
    const held = await third.request('POST', `/toilets/${toilet}/claims`, { body: { business_name: 'Bar Trois', contact_email: 'trois@example.org' } });
    assert.equal(held.status, 409);
    assert.match(held.json.detail, /Another business holds/);
    const own = await first.browser.request('POST', `/toilets/${toilet}/claims`, { body: { business_name: 'Bar Un', contact_email: 'un@example.org' } });
    assert.equal(own.status, 409, 'the approved claim blocks its own account too');
  });

  test('updatePartnerProfile: 409 until approved and while no plan runs, 404 for another account, then 200', async () => {
    const toilet = toilets[5];
    const owner = await claimAs(service, toilet, 'Boulangerie', '198.51.100.46');
    const path = `/partner/listings/${owner.listing}`;
    const pending = await owner.browser.request('PATCH', path, { body: { conditions: 'everyone' } });
    assert.equal(pending.status, 409);
    problem(pending, 'claim-not-approved');
    await service.app.partners.claims.approve(owner.claim, 'ok');
    const noPlan = await owner.browser.request('PATCH', path, { body: { conditions: 'everyone' } });
    assert.equal(noPlan.status, 409);
    problem(noPlan, 'no-running-plan');
    await service.app.partners.plans.setManualPlan(owner.listing, 'plus');

    const changed = await owner.browser.request('PATCH', path, { body: { conditions: 'everyone', opening_hours: 'Mo-Sa 07:00-19:00', open_now: false } });
    assert.equal(changed.status, 200, JSON.stringify(changed.json));
    valid('PartnerProfileAnswer', changed.json);
    assert.deepEqual(changed.json, { conditions: 'everyone', opening_hours: 'Mo-Sa 07:00-19:00', closed_until: clock.ms + 12 * 3_600_000, open_now: false });
    const reopened = await owner.browser.request('PATCH', path, { body: { open_now: true, opening_hours: '' } });
    assert.deepEqual(reopened.json, { conditions: 'everyone', opening_hours: null, closed_until: 0, open_now: true });

    const badHours = await owner.browser.request('PATCH', path, { body: { opening_hours: 'whenever we like' } });
    assert.equal(badHours.status, 400);
    assert.equal(badHours.json.invalid_params[0].name, 'opening_hours');
    const badBody = await owner.browser.request('PATCH', path, { body: { conditions: 'nobody', open_now: 'yes', colour: 'red' } });
    assert.equal(badBody.status, 400);
    assert.equal(badBody.json.invalid_params.length, 3);
    const tooLong = await owner.browser.request('PATCH', path, { body: { opening_hours: 'Mo-Fr 08:00-18:00; '.repeat(12) } });
    assert.equal(tooLong.status, 400);

    const stranger = new Browser(service, '198.51.100.47');
    await stranger.signUp('Stranger');
    const notTheirs = await stranger.request('PATCH', path, { body: { open_now: false } });
    assert.equal(notTheirs.status, 404);
    problem(notTheirs, 'not-found');
    const unknown = await stranger.request('PATCH', `/partner/listings/pl_${'0'.repeat(32)}`, { body: { open_now: false } });
    assert.equal(unknown.status, 404);
    const malformed = await stranger.request('PATCH', '/partner/listings/pl_XYZ', { body: {} });
    assert.ok([400, 404].includes(malformed.status));
    const elsewhere = await owner.browser.request('PATCH', path, { body: { open_now: false }, origin: 'https://evil.example' });
    assert.equal(elsewhere.status, 403);
    owner.browser.cookie = null;
    const signedOut = await owner.browser.request('PATCH', path, { body: { open_now: false } });
    assert.equal(signedOut.status, 401);
  });

  test('listMyPartnerListings: claim status, plan and profile of the account only, no contact details', async () => {
    const owner = await runningListing(service, toilets[6], 'Pharmacie', '198.51.100.48', 'plus');
    const other = await claimAs(service, toilets[7], 'Autre', '198.51.100.49');
    const mine = await owner.browser.request('GET', '/partner/listings');
    assert.equal(mine.status, 200);
    valid('PartnerListingList', mine.json);
    assert.equal(mine.json.listings.length, 1);
    const [listing] = mine.json.listings;
    assert.equal(listing.id, owner.listing);
    assert.equal(listing.claim.status, 'approved');
    assert.deepEqual(listing.plan, { tier: 'plus', source: 'manual', running: true });
    assert.equal(listing.showing, true);
    assert.equal(listing.toilet_id, toilets[6]);
    assert.ok(!JSON.stringify(mine.json).includes('@example.org'), 'no contact details');
    const theirs = await other.browser.request('GET', '/partner/listings');
    assert.equal(theirs.json.listings[0].claim.status, 'pending');
    assert.equal(theirs.json.listings[0].showing, false);
  });

  test('checkPartnerHours: the validation of updatePartnerProfile and what the label would say, changing nothing; 401, 403, 404', async () => {
    const owner = await claimAs(service, toilets[8], 'Glacier', '198.51.100.62');
    const path = `/partner/listings/${owner.listing}/hours-check`;
    const fine = await owner.browser.request('POST', path, { body: { opening_hours: ' Mo-Su 08:00-20:00 ' } });
    assert.equal(fine.status, 200, JSON.stringify(fine.json));
    valid('PartnerHoursCheck', fine.json);
    // 10:00 in Monaco (CEST), a pending claim included: the owner checks hours before the label can show
    assert.deepEqual(fine.json, { opening_hours: 'Mo-Su 08:00-20:00', open_now: true, closes_at: '2024-06-05T20:00:00+02:00' });
    assert.deepEqual((await owner.browser.request('POST', path, { body: { opening_hours: '' } })).json, { opening_hours: null, open_now: 'unknown', closes_at: null });
    const broken = await owner.browser.request('POST', path, { body: { opening_hours: 'Mo-Su 08:00-' } });
    assert.equal(broken.status, 400);
    assert.deepEqual(broken.json.invalid_params, [{ name: 'opening_hours', reason: 'is not opening_hours syntax the finder can evaluate: Mo-Su 08:00- <--- (Time range does not continue as expected)' }]);
    const listed = await owner.browser.request('GET', '/partner/listings');
    assert.equal(listed.json.listings[0].profile.opening_hours, null, 'nothing saved');

    const stranger = await claimAs(service, toilets[9], 'Kiosque', '198.51.100.63');
    const notTheirs = await stranger.browser.request('POST', path, { body: { opening_hours: 'Mo-Su 08:00-20:00' } });
    assert.equal(notTheirs.status, 404);
    problem(notTheirs, 'not-found');
    assert.equal((await new Browser(service, '198.51.100.64').request('POST', path, { body: { opening_hours: '24/7' } })).status, 401);
    assert.equal((await owner.browser.request('POST', path, { body: { opening_hours: '24/7' }, origin: 'https://evil.example' })).status, 403);
  });
});

describe('rate limit of the partner operations', () => {
  test('429 with Retry-After once the per-address budget is spent', async () => {
    const data = await importedData();
    const clock = new Clock(START);
    const service = await startAccountsService(data, clock, { RATE_LIMIT_PER_MINUTE: '3', ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    try {
      const [toilet] = readSourceToilets(data.toiletsDb).map((t) => t.id);
      const browser = new Browser(service, '198.51.100.60');
      await browser.signUp('Busy');
      const ip = '198.51.100.61';
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await browser.request('POST', `/toilets/${toilet}/claims`, { body: { business_name: 'Busy', contact_email: 'b@example.org' }, ip })).status);
      assert.deepEqual(statuses, [201, 409, 409, 429]);
      const limited = await browser.request('PATCH', `/partner/listings/pl_${'1'.repeat(32)}`, { body: {}, ip });
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      problem(limited, 'rate-limited');
    } finally {
      await service.close();
      data.remove();
    }
  });
});
