import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseWriter } from '../../importer/database-writer.js';
import { tempDir } from './support.js';

test('the database being written has no rollback journal and no syncs, and writing leaves no journal file', async () => {
  const dir = tempDir('database-writer');
  const path = join(dir, 'new.db');
  const db = new DatabaseWriter({ path, cacheKiB: 1024 });
  try {
    assert.deepEqual(await db.all('PRAGMA journal_mode'), [{ journal_mode: 'off' }]);
    assert.deepEqual(await db.all('PRAGMA synchronous'), [{ synchronous: 0 }]);
    await db.exec('CREATE TABLE t (x)');
    await db.exec('BEGIN');
    await db.exec('INSERT INTO t VALUES (1)');
    assert.equal(existsSync(`${path}-journal`), false);
    await db.exec('COMMIT');
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
