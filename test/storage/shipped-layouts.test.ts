// The layouts a release shipped (test/fixtures/<database>-layout-<version>.sql, written by
// test/fixtures/make-layouts.sh at that release's commit) open unchanged with this code: no step runs on
// them, and their tables and indexes are exactly those a new file gets. So moving a feature's steps
// between folders, or listing them otherwise, cannot change what a self-hoster's file holds.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { AccountsStore } from '../../src/accounts/store.js';
import { OverlayStore } from '../../src/community/store.js';
import { ACCOUNTS_DATABASE } from '../../src/databases.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';
import { REPO_DIR } from '../support/paths.js';

const FIXTURES = join(REPO_DIR, 'test', 'fixtures');
const dir = tempDir('toilet-shipped-layouts');
after(() => dir.remove());

const OPENERS: Record<string, (path: string) => Database.Database> = {
  accounts: (path) => new AccountsStore(path, ACCOUNTS_DATABASE).db,
  overlay: (path) => new OverlayStore(path).db,
};

/** Every table, index and trigger with its SQL, in name order. */
function layout(db: Database.Database): unknown[] {
  return db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
}

const fixtures = readdirSync(FIXTURES).filter((file) => /^[a-z]+-layout-\d+\.sql$/.test(file));

test('there is a shipped layout of each database of the service', () => {
  assert.deepEqual(new Set(fixtures.map((file) => file.split('-')[0])), new Set(Object.keys(OPENERS)));
});

for (const file of fixtures) {
  const [, name, version] = /^([a-z]+)-layout-(\d+)\.sql$/.exec(file)!;
  test(`${file}: opens without a step and holds what a new ${name} database holds`, () => {
    const path = join(dir.path, `${name}-${version}.db`);
    const written = new Database(path);
    written.exec(readFileSync(join(FIXTURES, file), 'utf8'));
    const before = layout(written);
    assert.equal(userVersion(written), Number(version));
    written.close();

    const opened = OPENERS[name](path);
    const fresh = OPENERS[name](join(dir.path, `${name}-${version}-new.db`));
    try {
      assert.equal(userVersion(opened), Number(version), 'no step ran on the shipped layout');
      assert.deepEqual(layout(opened), before, 'the shipped layout is unchanged');
      if (userVersion(fresh) === Number(version)) assert.deepEqual(layout(fresh), before, 'a new file gets exactly the shipped layout');
    } finally {
      opened.close();
      fresh.close();
    }
  });
}
