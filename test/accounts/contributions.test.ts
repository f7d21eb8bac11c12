// Signed-in contributions and account deletion through the real server: no human check when signed in,
// one rating and one vote per account (the latest counts), the per-address rule of one new rater per
// toilet and day still applies (an IPv6 address by its /64), and a deleted account's ratings stay counted
// under a pseudonym while its old cookie signs nothing in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Clock, importedData, readSourceToilets, type Data, type Service } from '../community/support.js';
import { Browser, startAccountsService } from './support.js';

const START = '2024-06-05T08:00:00Z';

describe('signed-in contributions', () => {
  let data: Data;
  let service: Service;
  let toilets: string[];
  const clock = new Clock(Date.parse(START));

  before(async () => {
    data = await importedData();
    service = await startAccountsService(data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    toilets = readSourceToilets(data.toiletsDb).map((t: { id: string }) => t.id);
  });
  after(async () => {
    await service.close();
    data.remove();
  });

  test('signed in, the five contributions need no challenge_token; signed out, they still do', async () => {
    const browser = new Browser(service, '198.51.100.20');
    await browser.signUp();
    const [toilet] = toilets;
    const writes: [string, unknown][] = [
      ['/submissions', { lat: 43.73, lon: 7.42, name: 'Kiosk' }],
      [`/toilets/${toilet}/confirmations`, {}],
      [`/toilets/${toilet}/ratings`, { rating: 4 }],
      [`/toilets/${toilet}/reports`, { kind: 'closed' }],
      [`/toilets/${toilet}/votes`, { votes: [{ attribute: 'wheelchair', value: 'yes' }] }],
    ];
    for (const [path, body] of writes) assert.equal((await browser.request('POST', path, { body })).status, 201, path);
    browser.cookie = null;
    for (const [path, body] of writes) {
      const refused = await browser.request('POST', path, { body: path.endsWith('ratings') || path.endsWith('votes') ? { ...(body as object), device_id: 'ab'.repeat(16) } : body });
      assert.equal(refused.status, 403, path);
      assert.ok(refused.json.type.endsWith('/problems/human-check-failed'), path);
    }
  });

  test('one rating per account: rating again changes it; a second account from the same address the same day gets 429', async () => {
    const toilet = toilets[1];
    const ada = new Browser(service, '2001:db8:5:6::1');
    await ada.signUp('Ada');
    const first = await ada.request('POST', `/toilets/${toilet}/ratings`, { body: { rating: 2 } });
    assert.deepEqual(first.json.cleanliness, { average: 2, count: 1 });
    const changed = await ada.request('POST', `/toilets/${toilet}/ratings`, { body: { rating: 5 } });
    assert.deepEqual(changed.json.cleanliness, { average: 5, count: 1 }, 'the latest counts, once');

    // another account on another address of the same IPv6 /64
    const bob = new Browser(service, '2001:db8:5:6::2');
    await bob.signUp('Bob');
    const refused = await bob.request('POST', `/toilets/${toilet}/ratings`, { body: { rating: 1 } });
    assert.equal(refused.status, 429);
    assert.ok(refused.json.type.endsWith('/problems/daily-limit'));
    assert.equal((await ada.request('POST', `/toilets/${toilet}/ratings`, { body: { rating: 4 } })).status, 201, 'who rated before may change it');
    const elsewhere = await bob.request('POST', `/toilets/${toilet}/ratings`, { body: { rating: 1 }, ip: '2001:db8:5:7::2' });
    assert.deepEqual(elsewhere.json.cleanliness, { average: 2.5, count: 2 }, 'another /64 may add a rater');
  });

  test('deleting an account: recent sign-in needed; its ratings stay counted; its old cookie signs nothing in', async () => {
    const toilet = toilets[2];
    const carol = new Browser(service, '198.51.100.30');
    await carol.signUp('Carol');
    await carol.request('POST', `/toilets/${toilet}/ratings`, { body: { rating: 3 } });
    const cookie = carol.cookie;

    clock.ms += 6 * 60_000;
    const late = await carol.request('DELETE', '/account', { body: {} });
    assert.equal(late.status, 401);
    assert.ok(late.json.type.endsWith('/problems/reauthentication-required'));
    assert.equal((await carol.signIn()).status, 200);
    const reauthenticated = carol.cookie;
    const deleted = await carol.request('DELETE', '/account', { body: {} });
    assert.deepEqual([deleted.status, deleted.json], [200, { deleted: true }]);
    assert.match(carol.setCookie!, /Max-Age=0/);

    for (const old of [cookie, reauthenticated]) {
      carol.cookie = old;
      assert.equal((await carol.request('GET', '/account')).status, 401);
      const rating = await carol.request('POST', `/toilets/${toilet}/ratings`, { body: { rating: 1 } });
      assert.equal(rating.status, 400, 'signed out again: a rating needs a device_id (and a human check)');
    }
    assert.equal((await carol.signIn()).status, 401, 'its passkey is gone');
    assert.deepEqual((await service.toilet(toilet)).cleanliness, { average: 3, count: 1 }, 'the rating stays counted');
    const people = service.app.community.store.readable.prepare('SELECT person FROM ratings WHERE toilet_id = ?').pluck().all(toilet) as string[];
    assert.equal(people.length, 1);
    assert.match(people[0], /^d:[0-9a-f]{32}$/, 'kept under a pseudonym of the device-id form');
    clock.set(START);
  });
});
