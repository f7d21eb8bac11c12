// The event subscriptions' store (src/account-events/store.ts) in both of its implementations, the same
// checks for each: the ACCOUNTS_DB file and PostgreSQL's accounts schema (a cluster of the test's own). Two
// processes over one place race as two replicas' relays do: recording one range at once queues each
// delivery once, and a delivery recorded again (a relay that took over mid-batch) is not queued twice. A
// grant's end queues one envelope per subscription inside the transaction that ends it, nothing when that
// transaction rolls back; subscriptions go with their grant, queued envelopes stay; expired ones are purged.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Delivery, EventStore, SubscriptionRow } from '../../src/account-events/store.js';
import { anAccount, onEachEngine, ROLLED_BACK, type AccountSide } from '../support/account-stores.js';

const T0 = Date.parse('2024-06-05T08:00:00Z');
const HOUR = 3_600_000;
const now = () => T0;
const NAME = 'partner.profile.updated';
let made = 0;

/** An account with a grant and `urls.length` subscriptions of it (one per URL): the grant's id and the subscriptions. */
async function subscribed(side: AccountSide, urls: readonly string[], refreshBefore = T0 + HOUR): Promise<{ account: string; grant: string; subscriptions: SubscriptionRow[] }> {
  const account = await anAccount(side.accounts, T0);
  const n = ++made;
  const grant = `og_${n}`;
  await side.oauth.transaction(function* (t) {
    yield* t.insertClient({ id: `client-${n}`, name: 'Agent', redirect_uris: '[]', metadata: '{}', created_at: T0, authorized_at: T0, document_expires_at: null });
    yield* t.insertGrant({ id: grant, account_id: account, client_id: `client-${n}`, scope: 'partner', resource: 'https://example.test/mcp/account', created_at: T0, last_used_at: T0 });
  });
  for (const [i, url] of urls.entries()) {
    await side.subscriptions.upsert({ id: `sub_${n}_${i}`, grant_id: grant, name: NAME, arguments: '{}', url, secret: 'whsec_x', refresh_before: refreshBefore, after_seq: 0, created_at: T0 });
  }
  const subscriptions = await side.subscriptions.liveOfAccount(account, NAME, T0, T0 - HOUR);
  return { account, grant, subscriptions: subscriptions.sort((x, y) => x.id.localeCompare(y.id)) };
}

/** The outbox's rows for these subscriptions, as subscription/webhook id pairs. */
async function queued(store: EventStore, subscriptions: readonly SubscriptionRow[]): Promise<string[]> {
  const ids = new Set(subscriptions.map((s) => s.id));
  return (await store.due(T0 + 10 * HOUR, 10_000)).filter((row) => ids.has(row.subscription_id)).map((row) => `${row.subscription_id} ${row.webhook_id}`);
}

const deliveriesOf = (subscriptions: readonly SubscriptionRow[], seqs: readonly number[]): Delivery[] =>
  seqs.flatMap((seq) => subscriptions.map((subscription) => ({ subscription, webhookId: `evt_${seq}`, body: `{"seq":${seq}}` })));

onEachEngine('toilet-event-stores', now, (sides) => {
  test('the relay records from its place once; a grant that ends queues its envelopes; subscriptions go with it', async () => {
    const { a, b } = sides;
    const { grant, subscriptions } = await subscribed(a, ['https://hooks.example/a', 'https://hooks.example/b']);
    assert.deepEqual(subscriptions.map((s) => s.url), ['https://hooks.example/a', 'https://hooks.example/b']);
    assert.equal(await b.subscriptions.cursor(), null, 'no place before the first record');
    const delivery = deliveriesOf(subscriptions.slice(0, 1), [1]);
    assert.equal(await a.subscriptions.record(delivery, null, 1, T0), true);
    assert.equal(await b.subscriptions.cursor(), 1);
    assert.equal(await b.subscriptions.record(delivery, null, 1, T0), false, 'recorded already from that place');
    assert.deepEqual(await queued(b.subscriptions, subscriptions), [`${subscriptions[0].id} evt_1`], 'queued once');

    assert.equal(await a.subscriptions.enqueueForGrant(grant, 'msg_terminated_1', '{"type":"terminated"}', T0), 2, 'one envelope per subscription');
    assert.deepEqual(await queued(b.subscriptions, subscriptions), [`${subscriptions[0].id} evt_1`, `${subscriptions[0].id} msg_terminated_1`, `${subscriptions[1].id} msg_terminated_1`]);
    await b.oauth.transaction((t) => t.deleteGrant(grant));
    assert.equal(await a.subscriptions.countOfGrant(grant), 0, 'the subscriptions went with their grant');
    assert.equal((await queued(a.subscriptions, subscriptions)).length, 3, 'what was queued is still delivered (its URL and secret are in the row)');
  });

  test('two relays recording one range at once queue each delivery once; a delivery recorded again is not queued twice', async () => {
    const { a, b } = sides;
    const { subscriptions } = await subscribed(a, ['https://hooks.example/c', 'https://hooks.example/d']);
    const from = await a.subscriptions.cursor();
    const start = from ?? 0;
    const range = [start + 1, start + 2, start + 3];
    const deliveries = deliveriesOf(subscriptions, range);
    const results = await Promise.all([a, b, a, b].map((side) => side.subscriptions.record(deliveries, from, start + 3, T0)));
    assert.deepEqual(results.filter(Boolean).length, 1, `one record moves the place: ${JSON.stringify(results)}`);
    assert.equal(await b.subscriptions.cursor(), start + 3);
    const once = deliveries.map((d) => `${d.subscription.id} ${d.webhookId}`).sort();
    assert.deepEqual((await queued(a.subscriptions, subscriptions)).sort(), once, 'each delivery once');

    // a relay that took over records the last entry again with the next one, from the place it read
    const again = deliveriesOf(subscriptions, [start + 3, start + 4]);
    assert.equal(await b.subscriptions.record(again, start + 3, start + 4, T0), true);
    assert.deepEqual((await queued(a.subscriptions, subscriptions)).sort(), [...once, ...deliveriesOf(subscriptions, [start + 4]).map((d) => `${d.subscription.id} ${d.webhookId}`)].sort());
  });

  test("a grant's terminated envelopes commit with its end, and nothing of them when that transaction rolls back", async () => {
    const { a, b } = sides;
    const { grant, subscriptions } = await subscribed(a, ['https://hooks.example/e', 'https://hooks.example/f']);
    const envelope = { webhookId: `msg_terminated_${grant}`, body: '{"type":"terminated"}', atMs: T0 };
    await assert.rejects(b.endGrant(grant, envelope, 'roll back'), new RegExp(ROLLED_BACK));
    assert.deepEqual(await queued(a.subscriptions, subscriptions), [], 'nothing queued');
    assert.equal(await a.subscriptions.countOfGrant(grant), 2, 'the grant and its subscriptions are still there');

    await b.endGrant(grant, envelope, 'commit');
    assert.deepEqual(await queued(a.subscriptions, subscriptions), subscriptions.map((s) => `${s.id} ${envelope.webhookId}`));
    assert.equal(await a.subscriptions.countOfGrant(grant), 0, 'its subscriptions went with it');
  });

  test("a subscription's life: refreshed, failing, suspended, delivered, retried, unsubscribed; expired ones are purged", async () => {
    const { a, b } = sides;
    const { account, grant, subscriptions } = await subscribed(a, ['https://hooks.example/g']);
    const [row] = subscriptions;
    const key = { grant, url: row.url, name: NAME, arguments: '{}' };
    assert.equal(await b.subscriptions.verified(grant, row.url), true);
    assert.equal(await b.subscriptions.verified(grant, 'https://hooks.example/other'), false);

    await b.subscriptions.failed(row.id, 'HTTP 500', T0 - 2 * HOUR);
    await b.subscriptions.failed(row.id, 'timeout', T0);
    assert.deepEqual(await a.subscriptions.liveOfAccount(account, NAME, T0, T0 - HOUR), [], 'failing for over an hour: suspended');
    const failing = await a.subscriptions.subscription(key);
    assert.deepEqual([failing?.last_error, failing?.failed_since], ['timeout', T0 - 2 * HOUR], 'the last error, failing since the first');
    await a.subscriptions.upsert({ ...row, secret: 'whsec_y', refresh_before: T0 + 2 * HOUR });
    const refreshed = await b.subscriptions.subscription(key);
    assert.deepEqual([refreshed?.secret, refreshed?.refresh_before, refreshed?.failed_since, refreshed?.id], ['whsec_y', T0 + 2 * HOUR, null, row.id], 'refreshed in place, active again');
    await a.subscriptions.delivered(row.id, T0 + 5);
    const delivered = await b.subscriptions.subscription(key);
    assert.deepEqual([delivered?.last_delivery_at, delivered?.last_error], [T0 + 5, null]);

    await a.subscriptions.enqueueForGrant(grant, 'msg_terminated_life', '{}', T0);
    const [outbox] = (await b.subscriptions.due(T0, 10_000)).filter((r) => r.subscription_id === row.id);
    await b.subscriptions.retry(outbox.id, T0 + 10_000);
    assert.equal((await a.subscriptions.due(T0, 10_000)).some((r) => r.id === outbox.id), false, 'not due before its retry');
    const retried = (await a.subscriptions.due(T0 + 10_000, 10_000)).find((r) => r.id === outbox.id);
    assert.equal(retried?.attempts, 1);
    await a.subscriptions.done(outbox.id);
    assert.deepEqual(await queued(b.subscriptions, subscriptions), []);

    const expiring = await subscribed(b, ['https://hooks.example/h', 'https://hooks.example/i'], T0 + 1);
    assert.equal(await a.subscriptions.purgeExpired(T0 + 1), 2, 'the expired subscriptions are purged');
    assert.equal(await b.subscriptions.countOfGrant(expiring.grant), 0);
    assert.equal(await b.subscriptions.countOfGrant(grant), 1, 'a live one stays');
    assert.equal(await b.subscriptions.delete(key), true);
    assert.equal(await a.subscriptions.delete(key), false, 'gone already');
  });
});
