// npm run migrate-store's side of the SQLite files, without PostgreSQL: a file another process has open
// is refused (its -wal, or SQLite's lock when it has none: a restored file in rollback mode read by
// `npm run moderate`), as are a missing overlay and a missing key; a --to that is no postgresql:// URL is a
// usage error that shows none of it. Nothing is written beside the files, and they stay as they were.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { main } from '../../src/backup/migrate-store-cli.js';
import { openDatabase } from '../../src/storage/database.js';
import { OVERLAY_DATABASE } from '../../src/community/sqlite-store.js';
import { keptStream } from '../support/streams.js';
import { tempDir } from '../support/extracts.js';

const dir = tempDir('toilet-held-files');
after(() => dir.remove());

const TO = 'postgresql://mover:not-tried-pw@127.0.0.1:1/toilets';

async function run(folder: string, argv = ['--to', TO]): Promise<{ status: number; out: string; err: string }> {
  const [stdout, stderr] = [keptStream(), keptStream()];
  const env = { ...process.env, TOILETS_DB: join(dir.path, folder, 'toilets.db'), OVERLAY_DB: join(dir.path, folder, 'overlay.db') };
  const status = await main(argv, { env, stdout, stderr });
  return { status, out: stdout.text, err: stderr.text };
}

/** An overlay file (rollback journal, as a restored copy before a server opened it) and its key. */
function install(folder: string): string {
  const overlay = join(dir.path, folder, 'overlay.db');
  const db = openDatabase(overlay, OVERLAY_DATABASE);
  db.pragma('journal_mode = DELETE');
  db.close();
  writeFileSync(`${overlay}.key`, Buffer.alloc(32, 7));
  return overlay;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

test('a file another process has open is refused: its -wal, or the lock SQLite cannot take', async () => {
  const overlay = install('held');
  const server = new Database(overlay);
  server.pragma('journal_mode = WAL'); // as a running server keeps it: its -wal on disk while open
  server.prepare('SELECT count(*) FROM ratings').get();
  try {
    const inUse = await run('held');
    assert.equal(inUse.status, 1);
    assert.match(inUse.err, /^OVERLAY_DB \(\S+\) is in use: \S+overlay\.db-wal and \S+overlay\.db-shm are beside it, .*Stop the server/);
  } finally {
    server.pragma('journal_mode = DELETE');
    server.close();
  }
  const before = sha256(overlay);
  const reader = new Database(overlay, { readonly: true });
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM ratings').get(); // a shared lock held, as a reading command's
  try {
    const locked = await run('held');
    assert.equal(locked.status, 1);
    assert.match(locked.err, /^OVERLAY_DB \(\S+overlay\.db\) is held by another process \(a server or npm run moderate\): stop it and run this again\n$/);
  } finally {
    reader.exec('COMMIT');
    reader.close();
  }
  assert.equal(sha256(overlay), before);
  assert.deepEqual(readdirSync(join(dir.path, 'held')).sort(), ['overlay.db', 'overlay.db.key']);
});

test('a missing overlay or key file is refused, saying what to do', async () => {
  const missing = await run('nothing');
  assert.equal(missing.status, 1);
  assert.match(missing.err, /^OVERLAY_DB \(\S+overlay\.db\) does not exist: run the command with the environment of the server whose data it moves/);
  const overlay = install('keyless');
  rmSync(`${overlay}.key`);
  const keyless = await run('keyless');
  assert.equal(keyless.status, 1);
  assert.match(keyless.err, /^the server key \S+overlay\.db\.key \(\$OVERLAY_DB\.key\) is missing: restore it from the backup it came with/);
  assert.equal(existsSync(`${overlay}-wal`), false, 'the file closed as it was');
});

test('--to must be a postgresql:// URL: a usage error (exit 2) that does not show it', async () => {
  const wrong = await run('nothing', ['--to', 'mysql://mover:s3cret@db/toilets']);
  assert.equal(wrong.status, 2);
  assert.match(wrong.err, /^migrate-store: --to is not a postgresql:\/\/ URL \(its value is not shown: it may hold a password\)/);
  assert.ok(!wrong.err.includes('s3cret'));
  const none = await run('nothing', []);
  assert.equal(none.status, 2);
  assert.match(none.err, /^migrate-store: name the PostgreSQL database to copy into: --to postgresql:\/\/…/);
});
