// The accounts database's billing step (src/accounts/billing-tables.ts) on a file the code before it wrote:
// an account and a partner listing at the layout before the step keep everything, and get the billing
// tables, which work with them through BillingStore (a deleted account takes its customer and checkouts
// along; its subscriptions stay, unlinked, for the listing's history). The step is found by its position
// in the list, so the test holds whatever number it gets when branches merge.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { ACCOUNTS_DATABASE, ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { BILLING_TABLES_STEP } from '../../src/billing/tables.js';
import { SqliteBillingStore } from '../../src/billing/sqlite-store.js';
import type { BillingTables } from '../../src/billing/store.js';
import type { Step } from '../../src/storage/steps.js';
import { openDatabase } from '../../src/storage/database.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';

const dir = tempDir('toilet-billing-migration');
after(() => dir.remove());

const ACCOUNT = 'acc_00000000000000000000000b';

test('the billing step migrates a database the previous code wrote, keeping its accounts and listings', async () => {
  const step = ACCOUNTS_MIGRATIONS.findIndex((m) => m.name === BILLING_TABLES_STEP.name);
  assert.ok(step > 0, 'the billing step is in the accounts list');
  const path = join(dir.path, 'accounts.db');
  const before = openDatabase(path, { name: 'accounts database', migrations: ACCOUNTS_MIGRATIONS.slice(0, step), ownerOnly: true });
  before.prepare('INSERT INTO accounts (id, user_handle, display_name, email, created_at) VALUES (?, ?, ?, ?, ?)').run(ACCOUNT, Buffer.alloc(32, 8), 'Bea', null, 1);
  const hasPartners = before.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'partner_listings'").pluck().get() === 1;
  if (hasPartners) {
    before.prepare("INSERT INTO partner_claims (id, account_id, toilet_id, business_name, contact_email, status, created_at) VALUES ('clm_b', ?, 'n1', 'Café', 'c@example.org', 'approved', 2)").run(ACCOUNT);
    before.prepare("INSERT INTO partner_listings (id, claim_id, account_id, toilet_id, name, plan_tier, plan_source, created_at, updated_at) VALUES ('pl_b', 'clm_b', ?, 'n1', 'Café', 'basic', 'manual', 2, 2)").run(ACCOUNT);
  }
  assert.deepEqual(before.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'billing%'").pluck().all(), []);
  before.close();

  const accounts = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
  try {
    assert.equal(userVersion(accounts.db), ACCOUNTS_MIGRATIONS[ACCOUNTS_MIGRATIONS.length - 1].version);
    assert.equal((await accounts.account(ACCOUNT))?.display_name, 'Bea', 'the account is kept');
    if (hasPartners) assert.deepEqual(accounts.db.prepare('SELECT id, plan_tier, plan_source FROM partner_listings').all(), [{ id: 'pl_b', plan_tier: 'basic', plan_source: 'manual' }], 'the listing and its manual plan are kept');

    const store = new SqliteBillingStore(accounts, null);
    await store.transaction(function* (tables) {
      yield* tables.insertCustomer(ACCOUNT, 'cus_1', 3);
      yield* tables.insertCheckout({ listing_id: 'pl_b', account_id: ACCOUNT, tier: 'plus', attempt: 'a'.repeat(32), session_id: null, created_at: 3 });
      yield* tables.upsertSubscription({ subscription_id: 'sub_1', listing_id: 'pl_b', account_id: ACCOUNT, customer_id: 'cus_1', status: 'active', price_id: 'price_b', tier: 'basic', period_start: 3, created: 3, running: 1, updated_at: 3 });
      yield* tables.recordEvent('evt_1', 'customer.subscription.created', 3);
    });
    const read = <T>(work: (tables: BillingTables) => Step<T>) => store.read(work);
    assert.equal(await read((tables) => tables.customerOf(ACCOUNT)), 'cus_1');
    assert.equal(await read((tables) => tables.eventHandled('evt_1')), true);
    await assert.rejects(store.transaction((tables) => tables.recordEvent('evt_1', 'again', 4)), /UNIQUE/, 'an event id is recorded once');
    const gold = { listing_id: 'pl_c', account_id: ACCOUNT, tier: 'gold' as 'plus', attempt: 'b', session_id: null, created_at: 3 };
    await assert.rejects(store.transaction((tables) => tables.insertCheckout(gold)), /CHECK/);

    await accounts.deleteAccount(ACCOUNT);
    assert.equal(await read((tables) => tables.customerOf(ACCOUNT)), null, 'the customer goes with the account');
    assert.equal(await read((tables) => tables.checkout('pl_b')), null, 'and its checkout');
    assert.equal((await read((tables) => tables.subscription('sub_1')))?.account_id, null, 'the subscription stays, unlinked');
  } finally {
    await accounts.close();
  }
});
