// The counting rules over HTTP with an injected clock: confirmations, ratings and votes at their edges
// (UTC day boundaries, the 12- and 24-month windows, exactly two votes, the source value as a vote, ties,
// one new rater or voter per address per day), and their effects in every read answer at once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertValid, Clock, deviceId, type Data, type Service, startPortoService, stopPortoService } from './support.js';

const PAID = 'n5225387845'; // Porto: access public (tagged), fee paid, wheelchair yes, gender female,male
const BARE = 'n2934493244'; // Porto: no source values but existence (access inferred)
const MUSEUM = 'w210571326'; // Porto: opening_hours "Tu-Su 10:00-17:30; PH off"
const NEAR_PAID = 'lat=41.1457239&lon=-8.6101808';

describe('counting rules', () => {
  let data: Data;
  let clock: Clock;
  let s: Service;

  before(async () => ({ data, clock, s } = await startPortoService()));
  after(() => stopPortoService({ data, clock, s }));

  const confirm = (id: string, ip: string) => s.post(`/api/v1/toilets/${id}/confirmations`, {}, { ip });
  const rate = (id: string, rating: number, device: number, ip: string) => s.post(`/api/v1/toilets/${id}/ratings`, { rating, device_id: deviceId(device) }, { ip });
  const vote = (id: string, votes: Record<string, string>, device: number, ip: string) =>
    s.post(`/api/v1/toilets/${id}/votes`, { votes: Object.entries(votes).map(([attribute, value]) => ({ attribute, value })), device_id: deviceId(device) }, { ip });
  /** A new UTC day as the running server sees it (its watcher recounts the windows at the turn). */
  const setDay = async (iso: string) => {
    clock.set(iso);
    await s.app.community.poll();
  };

  test('confirmations: one per toilet and address per UTC day; a repeat answers 201 with the count unchanged', async () => {
    await setDay('2026-06-15T10:00:00Z');
    const first = await confirm(BARE, '192.0.2.1');
    assert.deepEqual(first.json, { id: BARE, last_confirmed_at: '2026-06-15T10:00:00.000Z', confirmations: 1 });
    clock.set('2026-06-15T23:59:59Z');
    const again = await confirm(BARE, '192.0.2.1');
    assert.equal(again.status, 201);
    assert.deepEqual(again.json, first.json, 'same day, same address: nothing changes');
    const other = await confirm(BARE, '192.0.2.2');
    assert.deepEqual(other.json, { id: BARE, last_confirmed_at: '2026-06-15T23:59:59.000Z', confirmations: 2 });
    await setDay('2026-06-16T00:00:00Z');
    const nextDay = await confirm(BARE, '192.0.2.1');
    assert.deepEqual(nextDay.json, { id: BARE, last_confirmed_at: '2026-06-16T00:00:00.000Z', confirmations: 3 });
    const toilet = await s.toilet(BARE);
    assert.equal(toilet.confirmations, 3);
    assert.equal(toilet.last_confirmed_at, '2026-06-16T00:00:00.000Z');
    assert.equal(toilet.verification_state, 'community_confirmed');
    assert.equal(toilet.confidence, 'medium', 'inferred access caps confidence at medium, even with two confirmations');
  });

  test('confirmations count for 12 months: through the same date a year on, not a day longer', async () => {
    await setDay('2027-06-15T12:00:00Z');
    assert.equal((await s.toilet(BARE)).confirmations, 3, 'the window starts at midnight of 2026-06-15');
    await setDay('2027-06-16T00:00:00Z');
    let toilet = await s.toilet(BARE);
    assert.equal(toilet.confirmations, 1, 'the two of 2026-06-15 left the window');
    await setDay('2027-06-17T00:00:00Z');
    toilet = await s.toilet(BARE);
    assert.equal(toilet.confirmations, 0);
    assert.equal(toilet.last_confirmed_at, '2026-06-16T00:00:00.000Z', 'the latest confirmation is still shown');
    assert.equal(toilet.verification_state, 'unverified');
  });

  test('ratings: the latest of each person counts; one new rater per address and toilet per day, Retry-After to the next UTC day', async () => {
    await setDay('2026-07-01T23:59:30Z');
    assert.deepEqual((await rate(PAID, 4, 1, '192.0.2.10')).json, { id: PAID, rating: 4, cleanliness: { average: 4, count: 1 } });
    assert.deepEqual((await rate(PAID, 2, 1, '192.0.2.10')).json.cleanliness, { average: 2, count: 1 }, 'the same person again: updated, not added');
    const refused = await rate(PAID, 5, 2, '192.0.2.10');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '30');
    assert.equal(refused.json.retry_after_seconds, 30);
    assert.equal((await s.toilet(PAID)).cleanliness.count, 1, 'the refused rating was not stored');
    assert.deepEqual((await rate(PAID, 5, 2, '192.0.2.11')).json.cleanliness, { average: 3.5, count: 2 }, 'another address may add a rater');
    assert.equal((await rate(MUSEUM, 5, 2, '192.0.2.10')).status, 201, 'the limit is per toilet');
    assert.equal((await rate(PAID, 3, 2, '192.0.2.10')).status, 201, 'a known rater may rate again from any address');
    await setDay('2026-07-02T00:00:00Z');
    assert.deepEqual((await rate(PAID, 1, 3, '192.0.2.10')).json.cleanliness, { average: 2, count: 3 }, 'the next UTC day the address may add one more');
    assert.equal((await rate(PAID, 1, 4, '192.0.2.10')).status, 429);
  });

  test('votes: two against the source value (it counts as one) replace it; the latest vote of each person counts; a tie keeps the shown value', async () => {
    await setDay('2026-08-01T09:00:00Z');
    const one = await vote(PAID, { wheelchair: 'no' }, 11, '192.0.2.20');
    assert.deepEqual(one.json, { id: PAID, attributes: { wheelchair: { value: 'yes', decided: { by: 'votes', votes_for: 1, votes_total: 2, as_of: '2026-08-01' } } } });
    assert.equal((await s.toilet(PAID)).wheelchair, 'yes', 'one vote against the source: a tie, the source stays');
    const two = await vote(PAID, { wheelchair: 'no' }, 12, '192.0.2.21');
    assert.deepEqual(two.json.attributes.wheelchair, { value: 'no', decided: { by: 'votes', votes_for: 2, votes_total: 3, as_of: '2026-08-01' } });
    const toilet = await s.toilet(PAID);
    assert.equal(toilet.wheelchair, 'no');
    assert.deepEqual(toilet.provenance.decided.wheelchair, { by: 'votes', votes_for: 2, votes_total: 3, as_of: '2026-08-01' });
    const wheelchairNear = await s.get(`/api/v1/toilets/nearest?${NEAR_PAID}&limit=20&wheelchair=true`);
    assert.ok(!wheelchairNear.json.results.some((t: { id: string }) => t.id === PAID), 'the wheelchair filter follows the decided value');

    const changed = await vote(PAID, { wheelchair: 'yes' }, 12, '192.0.2.21');
    assert.deepEqual(changed.json.attributes.wheelchair, { value: 'yes', decided: { by: 'votes', votes_for: 2, votes_total: 3, as_of: '2026-08-01' } }, 'the second voter changed their mind');
    const tie = await vote(PAID, { wheelchair: 'no' }, 13, '192.0.2.22');
    assert.deepEqual(tie.json.attributes.wheelchair, { value: 'yes', decided: { by: 'votes', votes_for: 2, votes_total: 4, as_of: '2026-08-01' } }, '2 against 2: the shown value stays');
    assert.equal((await s.toilet(PAID)).wheelchair, 'yes');
  });

  test('votes: exactly two decide a fact the source lacks; one does not', async () => {
    await setDay('2026-08-02T09:00:00Z');
    const one = await vote(BARE, { changing_table: 'yes', fee_amount: '0.50 EUR' }, 21, '192.0.2.30');
    assert.deepEqual(one.json.attributes, {
      changing_table: { value: null, decided: { by: 'votes', votes_for: 0, votes_total: 1, as_of: '2026-08-02' } },
      fee_amount: { value: null, decided: { by: 'votes', votes_for: 0, votes_total: 1, as_of: '2026-08-02' } },
    });
    let toilet = await s.toilet(BARE);
    assert.equal(toilet.changing_table, 'unknown');
    assert.deepEqual(toilet.fee, { required: null, amount: null, currency: null });
    const two = await vote(BARE, { changing_table: 'yes', fee_amount: '0.5 EUR' }, 22, '192.0.2.31');
    assert.deepEqual(two.json.attributes, {
      changing_table: { value: 'yes', decided: { by: 'votes', votes_for: 2, votes_total: 2, as_of: '2026-08-02' } },
      fee_amount: { value: '0.5 EUR', decided: { by: 'votes', votes_for: 2, votes_total: 2, as_of: '2026-08-02' } },
    });
    toilet = await s.toilet(BARE);
    assert.equal(toilet.changing_table, 'yes');
    assert.deepEqual(toilet.fee, { required: null, amount: 0.5, currency: 'EUR' });
    assert.deepEqual(Object.keys(toilet.provenance.decided), ['fee_amount', 'changing_table']);
  });

  test('votes: values in another spelling of the source value count as the source value', async () => {
    await setDay('2026-08-03T09:00:00Z');
    const hours = await vote(MUSEUM, { opening_hours: 'Tu - Su 10:00-17:30 ;PH off' }, 31, '192.0.2.40');
    assert.deepEqual(hours.json.attributes.opening_hours, { value: 'Tu-Su 10:00-17:30; PH off', decided: { by: 'votes', votes_for: 2, votes_total: 2, as_of: '2026-08-03' } });
    const gender = await vote(PAID, { gender: 'male,female' }, 31, '192.0.2.40');
    assert.deepEqual(gender.json.attributes.gender.decided, { by: 'votes', votes_for: 2, votes_total: 2, as_of: '2026-08-03' });
    const museum = await s.toilet(MUSEUM);
    assert.equal(museum.opening_hours, 'Tu-Su 10:00-17:30; PH off', 'the source value is shown as the source has it');
  });

  test('votes: one new voter per address and toilet per day; known voters may vote again', async () => {
    await setDay('2026-08-04T18:00:00Z');
    assert.equal((await vote(MUSEUM, { name: 'Wine Museum WC' }, 41, '192.0.2.50')).status, 201);
    const refused = await vote(MUSEUM, { name: 'Wine Museum WC' }, 42, '192.0.2.50');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), String(6 * 3600));
    assert.equal((await vote(MUSEUM, { name: 'Museu do Vinho' }, 41, '192.0.2.50')).status, 201, 'a known voter changes their vote');
    assert.equal((await vote(MUSEUM, { name: 'Museu do Vinho' }, 31, '192.0.2.50')).status, 201, 'a known voter of this toilet (voted on its hours) from this address');
  });

  test('existence "gone" votes never hide a toilet', async () => {
    await setDay('2026-08-05T09:00:00Z');
    for (const [device, ip] of [[51, '192.0.2.60'], [52, '192.0.2.61'], [53, '192.0.2.62']] as const) {
      const answer = await vote(PAID, { existence: 'gone' }, device, ip);
      assert.equal(answer.json.attributes.existence.value, 'yes');
    }
    const toilet = await s.toilet(PAID);
    assert.deepEqual(toilet.provenance.decided.existence, { by: 'votes', votes_for: 1, votes_total: 4, as_of: '2026-08-05' }, 'shown: exists, with the source’s one vote');
    const area = await s.get('/api/v1/toilets?bbox=-8.62,41.14,-8.60,41.15&limit=200');
    assert.ok(area.json.results.some((t: { id: string }) => t.id === PAID));
  });

  test('votes count for 24 months; then the fact is the source’s again and leaves `decided`', async () => {
    await setDay('2028-08-02T00:00:00Z');
    let toilet = await s.toilet(BARE);
    assert.equal(toilet.changing_table, 'yes', 'votes of 2026-08-02 count through 2028-08-02');
    await setDay('2028-08-03T00:00:00Z');
    toilet = await s.toilet(BARE);
    assert.equal(toilet.changing_table, 'unknown');
    assert.deepEqual(toilet.fee, { required: null, amount: null, currency: null });
    assert.deepEqual(toilet.provenance.decided, {});
  });

  test('an open report makes the toilet disputed, over every other state; the effects show in nearest, area and getToilet alike', async () => {
    await setDay('2028-09-01T09:00:00Z');
    const areaPath = '/api/v1/toilets?bbox=-8.62,41.135,-8.61,41.145&limit=200';
    const cached = await s.get(areaPath); // the area answer cache keeps it for 5 minutes unless the data changes
    assert.equal(cached.json.results.find((t: { id: string }) => t.id === MUSEUM).confirmations, 0);
    assert.equal((await confirm(MUSEUM, '192.0.2.70')).status, 201);
    assert.equal((await s.toilet(MUSEUM)).verification_state, 'community_confirmed');
    assert.equal((await s.post(`/api/v1/toilets/${MUSEUM}/reports`, { kind: 'closed' }, { ip: '192.0.2.70' })).status, 201);
    const byId = await s.toilet(MUSEUM);
    assert.equal(byId.verification_state, 'disputed');
    const near = await s.get('/api/v1/toilets/nearest?lat=41.1401092&lon=-8.615303&limit=3');
    assertValid('FindResult', near.json);
    const area = await s.get(areaPath);
    assertValid('AreaResult', area.json);
    const fromNear = near.json.results.find((t: { id: string }) => t.id === MUSEUM);
    const fromArea = area.json.results.find((t: { id: string }) => t.id === MUSEUM);
    const { distance_m: _d, walk_min: _w, bearing: _b, ...nearItem } = fromNear;
    assert.deepEqual(nearItem, byId);
    assert.deepEqual(fromArea, byId);
    assert.equal(byId.confirmations, 1);
  });

  test('no raw address or device id is stored; yesterday’s address hashes and key are gone', async () => {
    const db = s.app.community.store.readable;
    const everything = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all()
      .map((table) => JSON.stringify(db.prepare(`SELECT * FROM ${table}`).all(), (_key, value) => (Buffer.isBuffer(value) ? value.toString('hex') : value)))
      .join('\n');
    for (const raw of ['192.0.2.', deviceId(1), deviceId(12)]) assert.ok(!everything.includes(raw), `${raw} is not stored`);
    const days = db.prepare('SELECT DISTINCT day FROM address_days UNION SELECT day FROM day_keys').pluck().all();
    assert.deepEqual(days, ['2028-09-01']);
  });
});
