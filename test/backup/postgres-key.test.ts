// npm run backup and restore on an install with DATABASE_URL set, whose server key is PostgreSQL's
// (src/community/server-key.ts): the backup of the SQLite files it still has is made without a key file
// and says where the key is; restoring it there needs none. Without DATABASE_URL a backup without its key
// is still refused, as before. No connection is made: the commands copy files only.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { backUp } from '../../src/backup/backup.js';
import { restore } from '../../src/backup/restore.js';
import { SqliteOverlayStore as OverlayStore } from '../../src/community/sqlite-store.js';
import { loadConfig } from '../../src/config.js';
import { tempDir } from '../api/support.js';

const dir = tempDir('toilet-backup-pg');
after(() => dir.remove());

const DATABASE_URL = 'postgresql://svc:pw@db.internal/toilets';
const settings = (folder: string, env: Record<string, string> = {}) => {
  mkdirSync(join(dir.path, folder), { recursive: true });
  return loadConfig({ TOILETS_DB: join(dir.path, folder, 'toilets.db'), ...env });
};

test('with DATABASE_URL, a backup holds no key file and says the key is PostgreSQL\'s; it restores there without one', async () => {
  const live = settings('live', { DATABASE_URL });
  await new OverlayStore(live.overlayDb).close(); // the overlay a server made; no key file beside it
  const { dir: backup, manifest } = await backUp(live, join(dir.path, 'backup'), () => Date.parse('2026-06-15T10:00:00Z'));
  assert.deepEqual(manifest.key_files, []);
  assert.ok(manifest.left_out.some((line) => /^the server key: with DATABASE_URL set it is kept in PostgreSQL \(schema accounts, table server_key\), not in \$OVERLAY_DB\.key; back that database up with pg_dump$/.test(line)), manifest.left_out.join('\n'));

  const fresh = settings('fresh', { DATABASE_URL });
  restore(fresh, backup);
  assert.ok(existsSync(fresh.overlayDb));
  assert.equal(existsSync(`${fresh.overlayDb}.key`), false);

  assert.throws(() => restore(settings('without'), backup), /the backup's overlay database comes without its key file/);
});

test('without DATABASE_URL, a missing key file still refuses the backup', async () => {
  const live = settings('files');
  await new OverlayStore(live.overlayDb).close();
  await assert.rejects(backUp(live, join(dir.path, 'refused'), () => 0), /key file \S+overlay\.db\.key is missing/);
});
