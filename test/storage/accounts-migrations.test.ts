// The accounts database's layout steps (src/accounts/store.ts) on a file the previous release wrote: an
// empty accounts database at version 0 (the foundation release made it, owner-only, with no table). Opened
// by this release it gets step 1 and serves accounts; what was there (nothing) stays as it was.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { secretHash } from '../../src/accounts/store.js';
import { SESSION_DEVICE_STEP } from '../../src/accounts/tables.js';
import { ACCOUNTS_DATABASE, ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { openDatabase } from '../../src/storage/database.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';

const dir = tempDir('toilet-accounts-migration');
after(() => dir.remove());

test('a version-0 accounts database of the previous release migrates to accounts, passkeys and sessions', async () => {
  const path = join(dir.path, 'accounts.db');
  // what the previous release's code did: the same open, with its (empty) list of steps
  const before = openDatabase(path, { name: 'accounts database', migrations: [], ownerOnly: true });
  assert.equal(userVersion(before), 0);
  before.close();

  const store = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
  try {
    assert.equal(userVersion(store.db), ACCOUNTS_MIGRATIONS.length);
    const tables = store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
    for (const table of ['accounts', 'challenges', 'passkeys', 'recovery_links', 'sessions']) assert.ok(tables.includes(table), `${table} is made (later steps add more)`);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(store.db.pragma('synchronous', { simple: true }), 2, 'FULL');

    const passkey = { id: 'cred-1', account_id: 'acc_000000000000000000000001', public_key: Buffer.alloc(8), counter: 0, transports: '[]', name: null, created_at: 0 };
    await store.createAccount({ id: 'acc_000000000000000000000001', user_handle: Buffer.alloc(32, 1), display_name: 'Ada', email: null, created_at: 0 }, passkey, { token_hash: secretHash('token'), account_id: 'acc_000000000000000000000001', created_at: 0, last_seen_at: 0, verified_at: 0, device: null });
    assert.equal(await store.deleteAccount('acc_000000000000000000000001'), true);
    assert.equal(await store.session(secretHash('token')), null, 'sessions go with their account');
  } finally {
    await store.close();
  }
});

test('the session device step: sessions signed in before it stay signed in, with no device label', async () => {
  const path = join(dir.path, 'accounts-before-device.db');
  const step = ACCOUNTS_MIGRATIONS.findIndex((m) => m.name === SESSION_DEVICE_STEP.name);
  assert.ok(step > 0);
  // the layout the previous release wrote, with a signed-in session in it
  const before = openDatabase(path, { name: 'accounts database', migrations: ACCOUNTS_MIGRATIONS.slice(0, step), ownerOnly: true });
  before.prepare("INSERT INTO accounts (id, user_handle, display_name, email, created_at) VALUES ('acc_000000000000000000000002', ?, 'Bo', NULL, 5)").run(Buffer.alloc(32, 2));
  before.prepare("INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at, verified_at) VALUES (?, 'acc_000000000000000000000002', 5, 6, 5)").run(secretHash('old token'));
  before.close();

  const store = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
  try {
    assert.equal(userVersion(store.db), ACCOUNTS_MIGRATIONS.length);
    assert.deepEqual(await store.session(secretHash('old token')), { token_hash: secretHash('old token'), account_id: 'acc_000000000000000000000002', created_at: 5, last_seen_at: 6, verified_at: 5, device: null });
    assert.equal((await store.sessionsOf('acc_000000000000000000000002')).length, 1);
  } finally {
    await store.close();
  }
});
