// The accounts database's partner step (src/accounts/partner-tables.ts) on a file the code before it
// wrote: an account with a passkey and a session at the layout before the step keeps them, and gets the
// claim, listing and event tables, which work with it (foreign keys: a deleted account's claims and
// listings stay with no owner, its events go). The step is found by its position in the list, so the
// test holds whatever number it gets when branches merge.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { secretHash } from '../../src/accounts/store.js';
import { ACCOUNTS_DATABASE, ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { PARTNER_TABLES_STEP } from '../../src/partners/tables.js';
import { SqliteAccountEventLog } from '../../src/accounts/event-log.js';
import { openDatabase } from '../../src/storage/database.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';

const dir = tempDir('toilet-partner-migration');
after(() => dir.remove());

const ACCOUNT = 'acc_00000000000000000000000a';

test('the partner step migrates a database the previous code wrote, keeping its accounts', async () => {
  const step = ACCOUNTS_MIGRATIONS.findIndex((m) => m.name === PARTNER_TABLES_STEP.name);
  assert.ok(step > 0, 'the partner step is in the accounts list, after the accounts themselves');
  const path = join(dir.path, 'accounts.db');
  const before = openDatabase(path, { name: 'accounts database', migrations: ACCOUNTS_MIGRATIONS.slice(0, step), ownerOnly: true });
  before.prepare('INSERT INTO accounts (id, user_handle, display_name, email, created_at) VALUES (?, ?, ?, ?, ?)').run(ACCOUNT, Buffer.alloc(32, 7), 'Ada', 'ada@example.org', 1);
  before.prepare('INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at, verified_at) VALUES (?, ?, 1, 1, 1)').run(secretHash('t'), ACCOUNT);
  const tablesBefore = before.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'partner%'").pluck().all();
  assert.deepEqual(tablesBefore, []);
  before.close();

  const store = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
  try {
    assert.equal(userVersion(store.db), ACCOUNTS_MIGRATIONS[ACCOUNTS_MIGRATIONS.length - 1].version);
    assert.equal((await store.account(ACCOUNT))?.display_name, 'Ada', 'the account is kept');
    assert.notEqual(await store.session(secretHash('t')), null, 'its session is kept');
    const db = store.db;
    db.prepare("INSERT INTO partner_claims (id, account_id, toilet_id, business_name, contact_email, status, created_at) VALUES ('clm_1', ?, 'n1', 'Café', 'cafe@example.org', 'pending', 2)").run(ACCOUNT);
    db.prepare("INSERT INTO partner_listings (id, claim_id, account_id, toilet_id, name, created_at, updated_at) VALUES ('pl_1', 'clm_1', ?, 'n1', 'Café', 2, 2)").run(ACCOUNT);
    const events = new SqliteAccountEventLog(db, () => 3);
    store.transaction(() => events.append({ account: ACCOUNT, type: 'partner.claim.status_changed', listing: 'pl_1', toilet: 'n1', data: { claim_id: 'clm_1', old_status: null, new_status: 'pending' } }));
    assert.throws(() => db.prepare("INSERT INTO partner_claims (id, account_id, toilet_id, business_name, status, created_at) VALUES ('clm_2', NULL, 'n1', 'X', 'lost', 2)").run(), /CHECK/);

    await store.deleteAccount(ACCOUNT);
    assert.deepEqual(db.prepare('SELECT id, account_id FROM partner_claims').all(), [{ id: 'clm_1', account_id: null }], 'the claim stays, without its owner');
    assert.deepEqual(db.prepare('SELECT id, account_id FROM partner_listings').all(), [{ id: 'pl_1', account_id: null }]);
    assert.equal((await events.read({ after: 0, limit: 10 })).length, 0, 'the events go with their account');
  } finally {
    await store.close();
  }
});
