// The Stripe stand-in (dev/stripe-stand-in) through the real `stripe` SDK: it refuses what the real API is
// known to refuse (automatic tax with an address-less customer and no customer_update, an unknown price, a
// reused idempotency key with other parameters, a wrong key), replays an idempotent request, and its
// command prints the settings the service needs.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, test } from 'node:test';
import Stripe from 'stripe';
import { startStandIn, type StandIn } from '../../dev/stripe-stand-in/stand-in.js';
import { start } from '../../dev/stripe-stand-in/cli.js';

let standIn: StandIn;
let stripe: Stripe;
before(async () => {
  standIn = await startStandIn();
  stripe = new Stripe(standIn.env.STRIPE_SECRET_KEY, { host: '127.0.0.1', port: standIn.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
});
after(() => standIn.close());

const session = (customer: string, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams => ({
  mode: 'subscription',
  customer,
  line_items: [{ price: standIn.env.STRIPE_PRICE_BASIC, quantity: 1 }],
  success_url: 'http://127.0.0.1/done?session={CHECKOUT_SESSION_ID}',
  cancel_url: 'http://127.0.0.1/back',
  automatic_tax: { enabled: true },
  ...extra,
});

test('refuses automatic tax for an address-less customer without customer_update, as Stripe does', async () => {
  const customer = await stripe.customers.create({});
  await assert.rejects(stripe.checkout.sessions.create(session(customer.id)), (error: Stripe.errors.StripeError) => error.type === 'StripeInvalidRequestError' && /requires a valid address/.test(error.message));
  const made = await stripe.checkout.sessions.create(session(customer.id, { customer_update: { address: 'auto' } }));
  assert.equal(made.status, 'open');
  assert.equal(made.mode, 'subscription');
});

test('refuses an unknown price and a wrong key', async () => {
  const customer = await stripe.customers.create({});
  await assert.rejects(
    stripe.checkout.sessions.create(session(customer.id, { line_items: [{ price: 'price_nobody', quantity: 1 }], customer_update: { address: 'auto' } })),
    (error: Stripe.errors.StripeError) => error.statusCode === 400 && error.code === 'resource_missing' && error.param === 'line_items[0][price]',
  );
  const wrongKey = new Stripe('sk_test_wrong', { host: '127.0.0.1', port: standIn.port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  await assert.rejects(wrongKey.customers.create({}), (error: Stripe.errors.StripeError) => error.type === 'StripeAuthenticationError');
});

test('replays an idempotent request and refuses its key with other parameters', async () => {
  const customer = await stripe.customers.create({});
  const params = session(customer.id, { customer_update: { address: 'auto' } });
  const first = await stripe.checkout.sessions.create(params, { idempotencyKey: 'key-1' });
  const again = await stripe.checkout.sessions.create(params, { idempotencyKey: 'key-1' });
  assert.equal(again.id, first.id);
  await assert.rejects(
    stripe.checkout.sessions.create({ ...params, line_items: [{ price: standIn.env.STRIPE_PRICE_PLUS, quantity: 1 }] }, { idempotencyKey: 'key-1' }),
    (error: Stripe.errors.StripeError) => error.type === 'StripeIdempotencyError',
  );
});

test('paying on the hosted page makes the subscription with the session’s metadata and says so in events', async () => {
  const customer = await stripe.customers.create({});
  const made = await stripe.checkout.sessions.create(session(customer.id, { customer_update: { address: 'auto' }, subscription_data: { metadata: { listing: 'pl_x' } } }));
  const page = await (await fetch(made.url!)).text();
  assert.match(page, /9\.00 EUR per month <span>plus VAT/);
  const refused = await fetch(`${made.url}/pay`, { method: 'POST', body: new URLSearchParams({}), redirect: 'manual' });
  assert.equal(refused.status, 400, 'a billing address is required');
  const paid = await fetch(`${made.url}/pay`, { method: 'POST', body: new URLSearchParams({ line1: 'Rue Grimaldi 1', postal_code: '98000', city: 'Monaco', country: 'MC' }), redirect: 'manual' });
  assert.equal(paid.headers.get('location'), `http://127.0.0.1/done?session=${made.id}`);
  const read = await stripe.checkout.sessions.retrieve(made.id);
  const subscription = await stripe.subscriptions.retrieve(read.subscription as string);
  assert.equal(subscription.status, 'active');
  assert.deepEqual(subscription.metadata, { listing: 'pl_x' });
  assert.equal(subscription.items.data[0].price.tax_behavior, 'exclusive');
  assert.equal((await stripe.customers.retrieve(customer.id) as Stripe.Customer).address?.country, 'MC', 'the address is kept on the customer');
  assert.deepEqual(standIn.webhooks.events.slice(-2).map((e) => e.type), ['customer.subscription.created', 'checkout.session.completed']);
});

test('npm run stripe-stand-in prints the settings to start the service with', async () => {
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const { code, standIn: running } = await start(['--port', '0', '--webhook', 'http://localhost:8080/api/v1/billing/webhook'], { env: {}, stdout, stderr: new PassThrough() });
  try {
    assert.equal(code, 0);
    assert.match(printed, /STRIPE_SECRET_KEY=sk_test_stand_in/);
    assert.match(printed, new RegExp(`STRIPE_API_BASE=http://127\\.0\\.0\\.1:${running!.port}`));
  } finally {
    await running?.close();
  }
  const bad = await start(['--webhook', 'ftp://x'], { env: {}, stdout: new PassThrough(), stderr: new PassThrough() });
  assert.equal(bad.code, 2);
});
