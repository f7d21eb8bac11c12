// What happens to a showing listing when its toilet changes or its account is deleted, through the real
// server: a toilet marked gone (moderate gone) or gone from the map data (a new source without it) stops
// the partner showing, tells the owner on the dashboard and in an event, and shows again when it is back;
// an import's id move carries the listing and its claim to the new id; deleting the account rejects its
// pending claims, withdraws the approved one (the toilet is free to claim again), stops its listings and
// erases the contact details.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Clock, importedData, moderate, readSourceToilets, type Data, type Service } from '../community/support.js';
import { Browser, startAccountsService } from '../accounts/support.js';
import { rebuildColumnStore } from '../support/column-store.js';
import { claimAs, runningListing, type Listed } from './support.js';

const START = Date.parse('2024-06-05T08:00:00Z');

describe('a listing follows its toilet and its account', () => {
  let data: Data;
  let service: Service;
  let toilets: string[];
  const clock = new Clock(START);
  const dashboard = async (listed: Listed) => (await listed.browser.request('GET', '/partner/listings')).json.listings.find((l: { id: string }) => l.id === listed.listing);
  const events = async (listed: Listed) => (await service.app.accounts.events.read({ after: 0, limit: 100, listing: listed.listing })).map((e): Record<string, unknown> => ({ type: e.type, toilet: e.toilet_id, ...e.data }));
  const editSource = (edit: (db: Database.Database) => void) => {
    const source = new Database(data.toiletsDb);
    edit(source);
    rebuildColumnStore(source);
    source.close();
    service.app.catalog.load();
  };

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    toilets = readSourceToilets(data.toiletsDb).map((t) => t.id);
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('marked gone by a moderator: partner null, the dashboard says so, an event; back when unlocked', async () => {
    const listed = await runningListing(service, toilets[0], 'Gone Cafe', '198.51.100.100');
    assert.notEqual((await service.toilet(toilets[0])).partner, null);
    assert.equal((await moderate(data, ['gone', toilets[0], '--reason', 'demolished'])).status, 0);
    await service.app.community.poll();
    assert.equal((await service.get(`/api/v1/toilets/${toilets[0]}`)).status, 404);
    const shown = await dashboard(listed);
    assert.equal(shown.toilet_state, 'gone');
    assert.equal(shown.showing, false);
    assert.match(shown.notice, /marked this toilet gone/);
    assert.deepEqual((await events(listed)).at(-1), { type: 'partner.profile.updated', toilet: toilets[0], changed: ['toilet_state'], by: 'map_data', toilet_state: 'gone' });

    assert.equal((await moderate(data, ['unlock', toilets[0], 'existence', '--reason', 'still there'])).status, 0);
    await service.app.community.poll();
    assert.equal((await service.toilet(toilets[0])).partner.name, 'Gone Cafe');
    assert.equal((await dashboard(listed)).toilet_state, 'present');
  });

  test('an id move carries the listing; a toilet gone from the map data stops showing until it returns', async () => {
    const moved = await runningListing(service, toilets[1], 'Moved Kiosk', '198.51.100.101');
    const vanishing = await runningListing(service, toilets[2], 'Vanishing Bar', '198.51.100.102');
    let kept: Record<string, unknown> = {};
    editSource((source) => {
      source.prepare("UPDATE toilets SET id = 'w999000222' WHERE id = ?").run(toilets[1]);
      source.prepare("INSERT INTO id_moves (old_id, new_id, moved_at) VALUES (?, 'w999000222', '2024-06-05T03:15:00Z')").run(toilets[1]);
      kept = source.prepare('SELECT * FROM toilets WHERE id = ?').get(toilets[2]) as Record<string, unknown>;
      source.prepare('DELETE FROM toilets WHERE id = ?').run(toilets[2]);
    });
    assert.equal((await service.toilet('w999000222')).partner.name, 'Moved Kiosk', 'the new id shows the partner');
    const carried = await dashboard(moved);
    assert.equal(carried.toilet_id, 'w999000222');
    assert.equal(carried.showing, true);
    assert.deepEqual((await events(moved)).at(-1), { type: 'partner.profile.updated', toilet: 'w999000222', changed: ['toilet_id'], by: 'map_data', toilet_state: 'present', old_toilet_id: toilets[1] });
    const claimed = service.app.accounts.file.db.prepare('SELECT toilet_id FROM partner_claims WHERE id = ?').pluck().get(moved.claim);
    assert.equal(claimed, 'w999000222', 'the claim moves too, so the toilet stays held');

    const gone = await dashboard(vanishing);
    assert.equal(gone.toilet_state, 'vanished');
    assert.equal(gone.showing, false);
    assert.match(gone.notice, /no longer has this toilet/);
    assert.equal((await events(vanishing)).at(-1)?.toilet_state, 'vanished');

    editSource((source) => {
      const columns = Object.keys(kept);
      source.prepare(`INSERT INTO toilets (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`).run(kept);
    });
    assert.equal((await service.toilet(toilets[2])).partner.name, 'Vanishing Bar');
    assert.equal((await dashboard(vanishing)).toilet_state, 'present');
  });

  test('deleting the account: claims rejected or withdrawn, listings stopped, contact details erased, the toilet free again', async () => {
    const listed = await runningListing(service, toilets[3], 'Leaving Shop', '198.51.100.103');
    const pendingClaim = await listed.browser.request('POST', `/toilets/${toilets[4]}/claims`, { body: { business_name: 'Leaving Shop', contact_email: 'leaving@example.org', contact_phone: '+377 1', note: 'second site' } });
    assert.equal(pendingClaim.status, 201);
    assert.equal((await listed.browser.signIn()).status, 200);
    const deleted = await listed.browser.request('DELETE', '/account', { body: {} });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.json));

    assert.equal((await service.toilet(toilets[3])).partner, null, 'the listing stopped');
    const db = service.app.accounts.file.db;
    const claims = db.prepare('SELECT id, account_id, status, contact_email, contact_phone, website, note FROM partner_claims WHERE id IN (?, ?) ORDER BY status DESC').all(listed.claim, pendingClaim.json.id);
    assert.deepEqual(claims, [
      { id: listed.claim, account_id: null, status: 'withdrawn', contact_email: null, contact_phone: null, website: null, note: null },
      { id: pendingClaim.json.id, account_id: null, status: 'rejected', contact_email: null, contact_phone: null, website: null, note: null },
    ]);
    const stopped = db.prepare('SELECT stopped_at FROM partner_listings WHERE id = ?').pluck().get(listed.listing);
    assert.equal(stopped, clock.ms);
    const next = new Browser(service, '198.51.100.104');
    await next.signUp('Next Owner');
    const free = await next.request('POST', `/toilets/${toilets[3]}/claims`, { body: { business_name: 'Next Owner', contact_email: 'next@example.org' } });
    assert.equal(free.status, 201, 'a withdrawn claim holds nothing');
  });

  test('contact details of decided claims are erased 90 days after the decision', async () => {
    const pending = await claimAs(service, toilets[5], 'Old Claim', '198.51.100.105');
    await service.app.partners.claims.reject(pending.claim, 'not the operator');
    const contact = () => service.app.accounts.file.db.prepare('SELECT contact_email FROM partner_claims WHERE id = ?').pluck().get(pending.claim);
    assert.equal(await service.app.partners.store.transaction((tables) => tables.eraseDecidedContacts(clock.ms - 90 * 24 * 3_600_000)), 0);
    assert.equal(contact(), 'oldclaim@example.org');
    assert.ok((await service.app.partners.store.transaction((tables) => tables.eraseDecidedContacts(clock.ms))) >= 1);
    assert.equal(contact(), null);
  });
});
