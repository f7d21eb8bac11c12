// A signed Stripe webhook that arrives on a read thread (HTTP_THREADS=2): the read thread passes it to the
// main thread (src/http/forward.ts) with its raw bytes and its Stripe-Signature header, and the answer is
// exactly the main thread's: 200 and the plan running, then `duplicate` when the same event comes again.
// The kernel spreads connections over the threads, so the test keeps one keep-alive connection and first
// learns which thread holds it from the read thread's own request count. Real clock (read threads need it).
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, test } from 'node:test';
import Stripe from 'stripe';
import { Clock, importedData, readSourceToilets, serviceClient, TEST_ENV, type Data, type Service } from '../community/support.js';
import { serve } from '../support/server.js';
import { startStandIn, type StandIn } from '../../dev/stripe-stand-in/stand-in.js';
import { approvedListing, keptLog, partnerOf, pay, QUICK_RETRIES } from './support.js';

let data: Data;
let standIn: StandIn;
let service: Service;

before(async () => {
  data = await importedData();
  standIn = await startStandIn({ retryDelaysMs: QUICK_RETRIES }); // no webhook URL: the test delivers the events
  const served = await serve({ db: data.toiletsDb, overlayDb: data.overlayDb, env: { ...TEST_ENV, ...standIn.env, HTTP_THREADS: '2', ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' }, now: null, log: keptLog() });
  service = { app: served.app, url: served.origin, clock: new Clock(Date.now()), ...serviceClient(served.origin), close: served.close };
});
after(async () => {
  await service?.close();
  await standIn?.close();
  data?.remove();
});

/** POST over the agent's one connection. */
function post(agent: Agent, path: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${service.url}${path}`, { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, body: text }));
    });
    sent.on('error', reject).end(body);
  });
}

const readThread = async () => (await service.app.threads!.counts())[0];

/** A keep-alive connection the read thread holds: new connections until one of them is counted there. */
async function readThreadConnection(): Promise<Agent> {
  for (;;) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const before = await readThread();
    await post(agent, '/api/v1/billing/webhook', '{}', { 'Content-Type': 'application/json' }); // 400: no signature, changes nothing
    if ((await readThread()).received > before.received) return agent;
    agent.destroy();
  }
}

test('a signed webhook on a read thread is handled as on the main thread: 200, the plan runs, the resend is a duplicate', async () => {
  const toilet = readSourceToilets(data.toiletsDb)[0].id;
  const { browser, listing } = await approvedListing(service, toilet, 'Thread Tavern', '198.51.100.90');
  const started = await browser.request('POST', '/billing/checkout', { body: { listing, tier: 'plus' } });
  assert.equal(started.status, 200, JSON.stringify(started.json));
  await pay(started.json.url);
  const event = standIn.webhooks.last('customer.subscription.created');
  assert.ok(event, 'the stand-in made the event and kept it');
  assert.equal(await partnerOf(service, toilet), null, 'nothing delivered yet');

  const agent = await readThreadConnection();
  try {
    const payload = JSON.stringify(event);
    const signed = () => ({ 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: standIn.env.STRIPE_WEBHOOK_SECRET }) });
    const before = await readThread();

    const first = await post(agent, '/api/v1/billing/webhook', payload, signed());
    assert.equal(first.status, 200, first.body);
    assert.deepEqual(JSON.parse(first.body), { received: true });
    const after = await readThread();
    assert.equal(after.received, before.received + 1, 'the read thread took it');
    assert.equal(after.forwarded, before.forwarded + 1, 'and passed it to the main thread');
    assert.deepEqual(await partnerOf(service, toilet), { name: 'Thread Tavern', tier: 'plus', conditions: null, opening_hours: null, open_now: 'unknown', closes_at: null });

    const again = await post(agent, '/api/v1/billing/webhook', payload, signed());
    assert.equal(again.status, 200, again.body);
    assert.deepEqual(JSON.parse(again.body), { received: true, duplicate: true });
    assert.equal((await readThread()).forwarded, after.forwarded + 1, 'the resend came through the read thread too');
  } finally {
    agent.destroy();
  }
});
