// The layouts the code wrote (test/fixtures/<database>-layout-<version>.sql, written by
// test/fixtures/make-layouts.sh at that commit) open with this code into exactly the tables and indexes a
// new file gets; the latest one opens unchanged, without a step. So moving a feature's steps between
// folders, or listing them otherwise, cannot change what a self-hoster's file holds.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { SqliteOverlayStore as OverlayStore } from '../../src/community/sqlite-store.js';
import { ACCOUNTS_DATABASE } from '../../src/databases.js';
import { userVersion } from '../../src/storage/migrations.js';
import { tempDir } from '../support/extracts.js';
import { REPO_DIR } from '../support/paths.js';

const FIXTURES = join(REPO_DIR, 'test', 'fixtures');
const dir = tempDir('toilet-shipped-layouts');
after(() => dir.remove());

const OPENERS: Record<string, (path: string) => Database.Database> = {
  accounts: (path) => new SqliteAccountsStore(path, ACCOUNTS_DATABASE).db,
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
  test(`${file}: opens into what a new ${name} database holds (unchanged, when it is the latest layout)`, () => {
    const path = join(dir.path, `${name}-${version}.db`);
    const written = new Database(path);
    written.exec(readFileSync(join(FIXTURES, file), 'utf8'));
    const before = layout(written);
    assert.equal(userVersion(written), Number(version));
    written.close();

    const opened = OPENERS[name](path);
    const fresh = OPENERS[name](join(dir.path, `${name}-${version}-new.db`));
    try {
      assert.equal(userVersion(opened), userVersion(fresh), 'brought to the latest layout');
      assert.deepEqual(layout(opened), layout(fresh), 'holds exactly what a new file holds');
      if (userVersion(fresh) === Number(version)) assert.deepEqual(layout(opened), before, 'the latest layout opens unchanged');
    } finally {
      opened.close();
      fresh.close();
    }
  });
}
