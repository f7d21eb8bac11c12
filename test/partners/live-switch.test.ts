// The partner's open_now and closes_at through the real server with an injected clock, over Porto
// (Europe/Lisbon, UTC+1 in summer, while the server runs in UTC): from the business hours at the toilet's
// local time, with Portugal's public holidays (10 June, Dia de Portugal); the live switch closes for 12
// hours, across whose end the answers follow the hours again with no write, and the end is then recorded
// with `partner.profile.updated`. Every accepted profile change is in the event log; the toilet's own
// open_now never changes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, readSourceToilets, type Data, type Service } from '../community/support.js';
import { startAccountsService } from '../accounts/support.js';
import { runningListing, type Listed } from './support.js';

const HOUR = 3_600_000;
const TUESDAY = Date.parse('2024-06-11T10:00:00Z'); // 11:00 in Porto
const HOLIDAY = Date.parse('2024-06-10T10:00:00Z'); // Monday 10 June, a public holiday in Portugal

describe('business hours and the live switch', () => {
  let data: Data;
  let service: Service;
  let owner: Listed;
  let own: { open_now: unknown; closes_at: unknown };
  const clock = new Clock(TUESDAY);
  const patch = (body: unknown) => owner.browser.request('PATCH', `/partner/listings/${owner.listing}`, { body });
  const partner = async () => (await service.toilet(owner.toilet)).partner;
  const profileEvents = async () =>
    (await service.app.accounts.events.read({ after: 0, limit: 100, listing: owner.listing })).filter((e) => e.type === 'partner.profile.updated').map((e) => e.data);

  before(async () => {
    data = await importedData('porto');
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    const toilet = readSourceToilets(data.toiletsDb).find((t) => t.opening_hours !== null)!.id;
    owner = await runningListing(service, toilet, 'Mercado', '198.51.100.90');
    const t = await service.toilet(toilet);
    own = { open_now: t.open_now, closes_at: t.closes_at };
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('open_now and closes_at from the business hours, local time with offset, and off on a public holiday', async () => {
    assert.equal((await patch({ opening_hours: 'Mo-Fr 08:00-20:00; PH off' })).status, 200);
    assert.deepEqual({ ...(await partner()) }, { name: 'Mercado', tier: 'basic', conditions: null, opening_hours: 'Mo-Fr 08:00-20:00; PH off', open_now: true, closes_at: '2024-06-11T20:00:00+01:00' });
    clock.ms = HOLIDAY;
    const holiday = await partner();
    assert.equal(holiday.open_now, false, 'Dia de Portugal: PH off');
    assert.equal(holiday.closes_at, null);
    clock.ms = TUESDAY + 10 * HOUR; // 21:00 in Porto
    assert.equal((await partner()).open_now, false);
    clock.ms = TUESDAY;
    const t = await service.toilet(owner.toilet);
    assert.deepEqual({ open_now: t.open_now, closes_at: t.closes_at }, own, "the toilet's own hours are untouched");
    assert.equal((await patch({ opening_hours: null })).status, 200);
    assert.equal((await partner()).open_now, 'unknown', 'no usable hours: unknown');
  });

  test('the live switch closes for 12 hours; its end needs no write, and is recorded afterwards', async () => {
    assert.equal((await patch({ opening_hours: '24/7' })).status, 200);
    assert.deepEqual(await partner().then((p) => [p.open_now, p.closes_at]), [true, null]);
    const closed = await patch({ open_now: false });
    assert.deepEqual(closed.json, { conditions: null, opening_hours: '24/7', closed_until: TUESDAY + 12 * HOUR, open_now: false });
    assert.deepEqual(await partner().then((p) => [p.open_now, p.closes_at]), [false, null]);
    const t = await service.toilet(owner.toilet);
    assert.deepEqual({ open_now: t.open_now, closes_at: t.closes_at }, own, "the switch never changes the toilet's own open_now");

    clock.ms = TUESDAY + 12 * HOUR - 1;
    assert.equal((await partner()).open_now, false, 'closed until the last millisecond');
    clock.ms = TUESDAY + 12 * HOUR;
    const stored = () => service.app.accounts.file.db.prepare('SELECT closed_until FROM partner_listings WHERE id = ?').pluck().get(owner.listing);
    assert.equal((await partner()).open_now, true, 'the hours rule again at once');
    assert.equal(stored(), TUESDAY + 12 * HOUR, 'without a write');
    const before = (await profileEvents()).length;
    await service.app.partners.profiles.endClosures(); // the closures' job (the cluster worker's) does it every second
    assert.equal(stored(), 0);
    const events = await profileEvents();
    assert.equal(events.length, before + 1);
    assert.deepEqual(events.at(-1), { changed: ['open_now'], by: 'closure_ended', open_now: true, closed_until: 0 });
    const listing = (await owner.browser.request('GET', '/partner/listings')).json.listings[0];
    assert.deepEqual(listing.profile, { conditions: null, opening_hours: '24/7', closed_until: 0, open_now: true });

    assert.equal((await patch({ open_now: false })).status, 200);
    clock.ms += HOUR;
    const reopened = await patch({ open_now: true });
    assert.deepEqual(reopened.json, { conditions: null, opening_hours: '24/7', closed_until: 0, open_now: true });
    assert.equal((await partner()).open_now, true, 'true ends the closure at once');
  });

  test('every accepted change is an event; a change that changes nothing is none', async () => {
    const before = (await profileEvents()).length;
    assert.equal((await patch({ conditions: 'customers' })).status, 200);
    assert.equal((await patch({ conditions: 'customers' })).status, 200);
    assert.equal((await patch({ opening_hours: 'nonsense hours' })).status, 400);
    const events = (await profileEvents()).slice(before);
    assert.deepEqual(events, [{ changed: ['conditions'], by: 'owner', open_now: true, closed_until: 0 }]);
  });
});
