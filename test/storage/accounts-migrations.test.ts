// The accounts database's layout steps (src/accounts/store.ts) on a file the previous release wrote: an
// empty accounts database at version 0 (the foundation release made it, owner-only, with no table). Opened
// by this release it gets step 1 and serves accounts; what was there (nothing) stays as it was.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ACCOUNTS_MIGRATIONS, AccountsStore, secretHash } from '../../src/accounts/store.js';
import { openDatabase } from '../../src/storage/database.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';

const dir = tempDir('toilet-accounts-migration');
after(() => dir.remove());

test('a version-0 accounts database of the previous release migrates to accounts, passkeys and sessions', () => {
  const path = join(dir.path, 'accounts.db');
  // what the previous release's code did: the same open, with its (empty) list of steps
  const before = openDatabase(path, { name: 'accounts database', migrations: [], ownerOnly: true });
  assert.equal(userVersion(before), 0);
  before.close();

  const store = new AccountsStore(path);
  try {
    assert.equal(userVersion(store.db), ACCOUNTS_MIGRATIONS.length);
    const tables = store.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
    for (const table of ['accounts', 'challenges', 'passkeys', 'recovery_links', 'sessions']) assert.ok(tables.includes(table), `${table} is made (later steps add more)`);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(store.db.pragma('synchronous', { simple: true }), 2, 'FULL');

    store.insertAccount({ id: 'acc_000000000000000000000001', user_handle: Buffer.alloc(32, 1), display_name: 'Ada', email: null, created_at: 0 });
    store.insertSession({ token_hash: secretHash('token'), account_id: 'acc_000000000000000000000001', created_at: 0, last_seen_at: 0, verified_at: 0 });
    assert.equal(store.deleteAccount('acc_000000000000000000000001'), true);
    assert.equal(store.session(secretHash('token')), null, 'sessions go with their account');
  } finally {
    store.close();
  }
});
