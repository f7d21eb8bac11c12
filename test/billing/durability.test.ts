// A webhook's effect and its event id commit together, so a server killed with SIGKILL between receiving
// an event and answering it loses nothing: the event was not recorded, Stripe sends it again, and the
// resend does the work once (a further resend is a duplicate). The real server process (npm start's
// main.js) is killed while it waits for the stand-in's answer to its read of the subscription.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Clock, importedData, readSourceToilets, startMain, type Data } from '../community/support.js';
import { startAccountsService } from '../accounts/support.js';
import { startStandIn, type StandIn } from '../../dev/stripe-stand-in/stand-in.js';
import { approvedListing, keptLog, pay } from './support.js';

let data: Data;
let standIn: StandIn;
before(async () => {
  data = await importedData();
  // no retries of its own: the test resends, as Stripe would, once the server is back
  standIn = await startStandIn({ retryDelaysMs: [] });
});
after(async () => {
  await standIn.close();
  data.remove();
});

test('SIGKILL between receiving an event and answering it: the resend redoes it, once', async () => {
  const toilet = readSourceToilets(data.toiletsDb)[0].id;
  // the business, its approved claim and its checkout, made by the server in this process
  const setup = await startAccountsService(data, new Clock(Date.now()), { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000', ...standIn.env }, keptLog());
  let started: { json: { url: string } };
  try {
    const { browser, listing } = await approvedListing(setup, toilet, 'Durable Döner', '198.51.100.70');
    const checkout = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'basic' } });
    assert.equal(checkout.status, 200, JSON.stringify(checkout.json));
    started = checkout;
  } finally {
    await setup.close();
  }

  let main = await startMain(data, { env: standIn.env });
  standIn.webhooks.url = `${main.url}/api/v1/billing/webhook`;
  const exited = new Promise((resolve) => main.child.once('close', resolve));
  let reading!: () => void;
  const serverIsReading = new Promise<void>((resolve) => (reading = resolve));
  let releaseRead!: () => void;
  const heldRead = new Promise<void>((resolve) => (releaseRead = resolve));
  standIn.api.beforeAnswer = (method) => {
    if (method !== 'GET') return;
    reading();
    return heldRead; // the server has the event and waits for Stripe: now it dies
  };
  const delivered = new Promise<void>((resolve) => standIn.webhooks.on('attempt', () => standIn.webhooks.attempts.length >= 2 && resolve()));
  await pay(started.json.url);
  await serverIsReading;
  main.child.kill('SIGKILL');
  await exited;
  releaseRead();
  standIn.api.beforeAnswer = null;
  await delivered;
  const events = standIn.webhooks.events.filter((e) => e.type === 'customer.subscription.created' || e.type === 'checkout.session.completed');
  assert.equal(events.length, 2);
  assert.deepEqual(standIn.webhooks.attempts.map((a) => a.status), [0, 0], 'neither was answered');

  const accounts = new Database(join(data.dir, 'accounts.db'), { readonly: true });
  try {
    assert.equal(accounts.prepare('SELECT count(*) FROM billing_events').pluck().get(), 0, 'nothing recorded by the killed server');
    assert.equal(accounts.prepare('SELECT count(*) FROM billing_subscriptions').pluck().get(), 0);
  } finally {
    accounts.close();
  }

  main = await startMain(data, { env: standIn.env });
  try {
    standIn.webhooks.url = `${main.url}/api/v1/billing/webhook`;
    for (const event of events) standIn.webhooks.resend(event.id);
    await standIn.webhooks.idle();
    assert.deepEqual(standIn.webhooks.attempts.slice(2).map((a) => [a.status, JSON.parse(a.body)]), [
      [200, { received: true }],
      [200, { received: true }],
    ]);
    for (const event of events) standIn.webhooks.resend(event.id);
    await standIn.webhooks.idle();
    assert.deepEqual(standIn.webhooks.attempts.slice(4).map((a) => JSON.parse(a.body)), [
      { received: true, duplicate: true },
      { received: true, duplicate: true },
    ]);
    const answer = (await (await fetch(`${main.url}/api/v1/toilets/${toilet}`)).json()) as { toilet: { partner: { name: string; tier: string } | null } };
    assert.equal(answer.toilet.partner?.tier, 'basic');
    const db = new Database(join(data.dir, 'accounts.db'), { readonly: true });
    try {
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(db.prepare('SELECT type FROM billing_events ORDER BY type').pluck().all(), ['checkout.session.completed', 'customer.subscription.created'], 'each id once');
      assert.equal(db.prepare('SELECT count(*) FROM billing_subscriptions').pluck().get(), 1);
      assert.equal(db.prepare('SELECT count(*) FROM billing_checkouts').pluck().get(), 0, 'the paid checkout is done');
    } finally {
      db.close();
    }
  } finally {
    main.child.kill('SIGTERM');
    await new Promise((resolve) => main.child.once('close', resolve));
  }
});
