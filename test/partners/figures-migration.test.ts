// The accounts database's figures step (src/accounts/figures-tables.ts) on a file the code before it
// wrote: an account and a Plus listing at the layout before the step keep everything, and get the monthly
// figures table, which adds up per listing and month, refuses what is not a month, and goes with its
// listing. The step is found by its position in the list, so the test holds whatever number it gets when
// branches merge.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { ACCOUNTS_DATABASE, ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { FIGURES_TABLES_STEP } from '../../src/partners/figures-tables.js';
import { openDatabase } from '../../src/storage/database.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';

const dir = tempDir('toilet-figures-migration');
after(() => dir.remove());

const ACCOUNT = 'acc_00000000000000000000000c';

test('the figures step migrates a database the previous code wrote, keeping its accounts and listings', async () => {
  const step = ACCOUNTS_MIGRATIONS.findIndex((m) => m.name === FIGURES_TABLES_STEP.name);
  assert.ok(step > 0, 'the figures step is in the accounts list');
  const path = join(dir.path, 'accounts.db');
  const before = openDatabase(path, { name: 'accounts database', migrations: ACCOUNTS_MIGRATIONS.slice(0, step), ownerOnly: true });
  before.prepare('INSERT INTO accounts (id, user_handle, display_name, email, created_at) VALUES (?, ?, ?, ?, ?)').run(ACCOUNT, Buffer.alloc(32, 9), 'Cy', null, 1);
  before.prepare("INSERT INTO partner_claims (id, account_id, toilet_id, business_name, contact_email, status, created_at) VALUES ('clm_c', ?, 'n1', 'Café', 'c@example.org', 'approved', 2)").run(ACCOUNT);
  before.prepare("INSERT INTO partner_listings (id, claim_id, account_id, toilet_id, name, plan_tier, plan_source, created_at, updated_at) VALUES ('pl_c', 'clm_c', ?, 'n1', 'Café', 'plus', 'manual', 2, 2)").run(ACCOUNT);
  assert.equal(before.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'partner_listing_figures'").pluck().get(), 0);
  before.close();

  const accounts = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
  try {
    assert.equal(userVersion(accounts.db), ACCOUNTS_MIGRATIONS[ACCOUNTS_MIGRATIONS.length - 1].version);
    assert.equal((await accounts.account(ACCOUNT))?.display_name, 'Cy', 'the account is kept');
    assert.deepEqual(accounts.db.prepare('SELECT id, plan_tier FROM partner_listings').all(), [{ id: 'pl_c', plan_tier: 'plus' }], 'the listing is kept');
    const add = accounts.db.prepare(
      'INSERT INTO partner_listing_figures (listing_id, month, shown, opened) VALUES (?, ?, ?, ?) ON CONFLICT (listing_id, month) DO UPDATE SET shown = shown + excluded.shown, opened = opened + excluded.opened',
    );
    add.run('pl_c', '2026-10', 3, 1);
    add.run('pl_c', '2026-10', 2, 0);
    assert.deepEqual(accounts.db.prepare('SELECT month, shown, opened FROM partner_listing_figures').all(), [{ month: '2026-10', shown: 5, opened: 1 }]);
    assert.throws(() => add.run('pl_c', 'Oct 2026', 1, 1), /CHECK/);
    assert.throws(() => add.run('pl_x', '2026-10', 1, 1), /FOREIGN KEY/);
    accounts.db.prepare("DELETE FROM partner_listings WHERE id = 'pl_c'").run();
    assert.equal(accounts.db.prepare('SELECT count(*) FROM partner_listing_figures').pluck().get(), 0, 'the figures go with their listing');
  } finally {
    await accounts.close();
  }
});
