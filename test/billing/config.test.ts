// The billing settings (src/config.ts): off without STRIPE_SECRET_KEY; with it, the webhook secret and a
// price per tier are required; STRIPE_API_BASE (the stand-in) is refused unless the key is a test key and
// the host is loopback, so a live key never goes anywhere but to Stripe; messages never repeat a secret.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const KEYS = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123', STRIPE_PRICE_BASIC: 'price_basic1', STRIPE_PRICE_PLUS: 'price_plus1' };
const refused = (env: Record<string, string>, pattern: RegExp) =>
  assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && pattern.test(error.message) && !error.message.includes('abc123') || assert.fail(error.message));

test('billing is off without a key, and on with the defaults the issue names', () => {
  assert.equal(loadConfig({}).billing, null);
  const billing = loadConfig(KEYS).billing!;
  assert.deepEqual(billing.prices, { basic: 'price_basic1', plus: 'price_plus1' });
  assert.equal(billing.automaticTax, true);
  assert.equal(billing.checkoutExpiryMinutes, 30);
  assert.equal(billing.pastDueGraceDays, 7);
  assert.equal(billing.apiBase, null);
  assert.equal(loadConfig({ ...KEYS, STRIPE_AUTOMATIC_TAX: 'false', STRIPE_TIMEOUT_MS: '3000' }).billing!.automaticTax, false);
  assert.deepEqual(loadConfig({ ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).billing!.apiBase, { protocol: 'http', host: '127.0.0.1', port: 12111 });
});

test('what is missing or wrong is named, without the secret', () => {
  refused({ STRIPE_WEBHOOK_SECRET: 'whsec_abc123' }, /set without STRIPE_SECRET_KEY/);
  refused({ ...KEYS, STRIPE_WEBHOOK_SECRET: '' }, /STRIPE_WEBHOOK_SECRET is not set/);
  refused({ ...KEYS, STRIPE_PRICE_PLUS: 'price_basic1' }, /the same price/);
  refused({ ...KEYS, STRIPE_SECRET_KEY: 'pk_test_abc123' }, /not a Stripe secret key/);
  refused({ ...KEYS, CHECKOUT_EXPIRY_MINUTES: '10' }, /CHECKOUT_EXPIRY_MINUTES=10 is not valid/);
});

test('STRIPE_API_BASE takes a test key on loopback only', () => {
  refused({ ...KEYS, STRIPE_SECRET_KEY: 'sk_live_abc123', STRIPE_API_BASE: 'http://127.0.0.1:12111' }, /not a test key/);
  refused({ ...KEYS, STRIPE_API_BASE: 'http://stripe-mock.example.org:12111' }, /not on this machine/);
  refused({ ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:12111/v1' }, /not valid/);
});
