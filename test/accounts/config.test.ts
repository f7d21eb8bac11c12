// ACCOUNTS_DB: where personal and secret data live, beside the overlay database unless set, and never in
// the file of another database; the budgets that follow the sign-in budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

test('by default the accounts database sits beside the overlay database', () => {
  assert.equal(loadConfig({}).accountsDb, 'data/accounts.db');
  assert.equal(loadConfig({ TOILETS_DB: '/srv/t/toilets.db' }).accountsDb, '/srv/t/accounts.db');
  assert.equal(loadConfig({ OVERLAY_DB: '/var/lib/toilets/overlay.db' }).accountsDb, '/var/lib/toilets/accounts.db');
  assert.equal(loadConfig({ ACCOUNTS_DB: '/secret/accounts.db' }).accountsDb, '/secret/accounts.db');
});

test('the file of another database is refused with a message naming both variables', () => {
  for (const env of [{ OVERLAY_DB: '/srv/overlay.db', ACCOUNTS_DB: '/srv/../srv/overlay.db' }, { ACCOUNTS_DB: 'data/toilets.db' }]) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && /^ACCOUNTS_DB=\S+ is the file (OVERLAY_DB|TOILETS_DB) names: personal data needs a database of its own/.test(error.message));
  }
});

test("OAuth's client registrations have the sign-in budget unless set apart", () => {
  assert.equal(loadConfig({}).registrationRateLimitPerMinute, 10);
  assert.equal(loadConfig({ ACCOUNT_RATE_LIMIT_PER_MINUTE: '25' }).registrationRateLimitPerMinute, 25);
  assert.equal(loadConfig({ ACCOUNT_RATE_LIMIT_PER_MINUTE: '25', OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE: '3' }).registrationRateLimitPerMinute, 3);
});
