// npm run backup and npm run restore: a backup taken while a real server takes writes holds every write
// accepted before it began and, of those in flight, a whole prefix (one consistent snapshot); restored into
// a fresh folder, a new server shows exactly those. Backups are owner-only and self-contained; a restore
// checks everything before it places anything, never writes over a file, and refuses a newer layout with
// the migration runner's message.
import { ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { keptStream } from '../support/streams.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { main as backupMain } from '../../src/backup/backup-cli.js';
import { main as restoreMain } from '../../src/backup/restore-cli.js';
import { OVERLAY_MIGRATIONS } from '../../src/community/migrations.js';
import { latestVersion } from '../../src/storage/migrations.js';
import { BUILD_DIR, deviceId, importedData, readSourceToilets, serviceClient, startMain, TEST_ENV, type Data, type MainProcess } from '../community/support.js';

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** A command's main() in this process, on the settings `env` (over the test service's). */
async function run(main: (argv: string[], io: { env: NodeJS.ProcessEnv; stdout: Writable; stderr: Writable }) => number | Promise<number>, argv: string[], env: Record<string, string>): Promise<Run> {
  const [stdout, stderr] = [keptStream(), keptStream()];
  const status = await main(argv, { env: { ...process.env, ...TEST_ENV, ...env }, stdout, stderr });
  return { status, stdout: stdout.text, stderr: stderr.text };
}

/** The settings of a data folder: the server's and the commands' alike. */
const settingsOf = (data: Data) => ({ TOILETS_DB: data.toiletsDb, OVERLAY_DB: data.overlayDb });

/** `npm run backup -- dir` as the script, in a process of its own, not blocking this one (the writes go on). */
function backupProcess(data: Data, dir: string): Promise<Run> {
  const child = spawn(process.execPath, [join(BUILD_DIR, 'src/backup/backup-cli.js'), dir], { env: { ...process.env, ...TEST_ENV, ...settingsOf(data) } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status: status ?? -1, stdout, stderr })));
}

async function stop(server: MainProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
}

describe('a backup while the server takes writes, restored into a fresh folder', () => {
  let live: Data;
  let fresh: Data;
  let backupDir: string;
  let toilets: string[];
  /** How many ratings were accepted before the backup began, and in all. */
  let before_: number;
  let accepted: number;
  let backup: Run;

  before(async () => {
    live = await importedData('porto');
    toilets = readSourceToilets(live.toiletsDb).map((t) => t.id);
    backupDir = join(live.dir, 'backups', '2026-06-15');
    const server = await startMain(live);
    try {
      const client = serviceClient(server.url);
      // rating i is of toilet i mod n, from a device and an address of its own, one after the other: the
      // database commits them in this order, so a consistent copy holds a prefix of them
      const rate = async (i: number) => {
        const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        const answer = await client.post(`/api/v1/toilets/${toilets[i % toilets.length]}/ratings`, { rating: 1 + (i % 5), device_id: deviceId(i + 1) }, { ip });
        assert.equal(answer.status, 201, JSON.stringify(answer.json));
      };
      accepted = 0;
      for (; accepted < 5; accepted++) await rate(accepted);
      before_ = accepted;
      const backingUp = backupProcess(live, backupDir);
      let done = false;
      void backingUp.then(() => (done = true));
      while (!done || accepted < before_ + 3) await rate(accepted++); // during the backup, and after it
      backup = await backingUp;
    } finally {
      await stop(server);
    }
    fresh = await importedData('porto');
  });
  after(() => {
    live.remove();
    fresh.remove();
  });

  test('the backup: overlay, its key, the accounts database and a manifest, owner-only, self-contained', () => {
    assert.equal(backup.status, 0, backup.stderr);
    assert.match(backup.stdout, new RegExp(`backed up to ${backupDir}\\n$`));
    assert.deepEqual(readdirSync(backupDir).sort(), ['accounts.db', 'manifest.json', 'overlay.db', 'overlay.db.key'], 'no -wal or -shm: each file stands alone');
    assert.equal(statSync(backupDir).mode & 0o777, 0o700);
    for (const file of readdirSync(backupDir)) assert.equal(statSync(join(backupDir, file)).mode & 0o777, 0o600, file);
    assert.deepEqual(readdirSync(join(live.dir, 'backups')), ['2026-06-15'], 'no temporary folder left');
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.format, 'toilet-finder-backup/1');
    assert.match(manifest.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.deepEqual(
      manifest.databases.map((d: { name: string; layout_version: number; from: string }) => [d.name, d.layout_version, d.from]),
      [['overlay', latestVersion(OVERLAY_MIGRATIONS), live.overlayDb], ['accounts', latestVersion(ACCOUNTS_MIGRATIONS), join(live.dir, 'accounts.db')]],
    );
    assert.deepEqual(manifest.key_files.map((k: { of: string; file: string }) => [k.of, k.file]), [['overlay', 'overlay.db.key']]);
    assert.match(manifest.left_out[0], /source database \(TOILETS_DB\)/);
    assert.deepEqual(readFileSync(join(backupDir, 'overlay.db.key')), readFileSync(`${live.overlayDb}.key`));
  });

  test('restored into a fresh folder, a new server shows every rating accepted before the backup and a whole prefix of those during it', async () => {
    const restored = await run(restoreMain, [backupDir], settingsOf(fresh));
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stdout, /overlay database → .*overlay\.db \(layout version \d+\)/);
    assert.equal(statSync(fresh.overlayDb).mode & 0o777, 0o600);
    assert.deepEqual(readFileSync(`${fresh.overlayDb}.key`), readFileSync(`${live.overlayDb}.key`), 'the key travels: pseudonyms and human-check tokens stay valid');
    const server = await startMain(fresh);
    try {
      const client = serviceClient(server.url);
      const counts: number[] = [];
      for (const id of toilets.slice(0, Math.min(accepted, toilets.length))) counts.push((await client.toilet(id)).cleanliness?.count ?? 0);
      const kept = counts.reduce((a, b) => a + b, 0);
      assert.ok(kept >= before_, `every rating accepted before the backup began is there (${kept} of ${before_})`);
      assert.ok(kept < accepted, 'the ratings accepted after the backup are not in it');
      const prefix = counts.map((_, t) => Math.max(0, Math.ceil((kept - t) / toilets.length)));
      assert.deepEqual(counts, prefix, `the ratings in the backup are the first ${kept}: one consistent snapshot`);
    } finally {
      await stop(server);
    }
  });

  test('a restore never writes over a file: the databases, their -wal or the key in the way are named, and nothing is placed', async () => {
    const refused = await run(restoreMain, [backupDir], settingsOf(fresh));
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^\S+overlay\.db, \S+overlay\.db\.key, \S+accounts\.db are in the way: stop the server and move them aside first/);

    const other = join(fresh.dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'overlay.db-wal'), 'a log SQLite would apply to the restored file');
    const wal = await run(restoreMain, [backupDir], { ...settingsOf(fresh), OVERLAY_DB: join(other, 'overlay.db') });
    assert.equal(wal.status, 1);
    assert.match(wal.stderr, /overlay\.db-wal is in the way/);
    assert.deepEqual(readdirSync(other), ['overlay.db-wal']);
  });
});

describe('backups and restores refused', () => {
  let data: Data;
  let env: Record<string, string>;

  before(async () => {
    data = await importedData('monaco');
    env = settingsOf(data);
    // a server that has run once: its overlay, key and accounts database
    (await startMain(data)).child.kill('SIGTERM');
  });
  after(() => data.remove());

  test('a backup needs a new or empty folder and an overlay database, and leaves nothing when refused', async () => {
    const full = join(data.dir, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'something'), 'x');
    const notEmpty = await run(backupMain, [full], env);
    assert.equal(notEmpty.status, 1);
    assert.match(notEmpty.stderr, /is not empty: name a new folder for each backup/);

    const none = await run(backupMain, [join(data.dir, 'b')], { ...env, OVERLAY_DB: join(data.dir, 'nowhere', 'overlay.db') });
    assert.equal(none.status, 1);
    assert.match(none.stderr, /^there is no overlay database at \S+nowhere\/overlay\.db \(OVERLAY_DB\): start the server once/);
    assert.ok(!existsSync(join(data.dir, 'b')) && !existsSync(join(data.dir, 'nowhere')));
  });

  test('a damaged backup is refused before anything is placed', async () => {
    const dir = join(data.dir, 'damaged');
    assert.equal((await run(backupMain, [dir], env)).status, 0);
    const bytes = readFileSync(join(dir, 'overlay.db'));
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(join(dir, 'overlay.db'), bytes);
    const target = join(data.dir, 'restored-damaged');
    const refused = await run(restoreMain, [dir], { ...env, OVERLAY_DB: join(target, 'overlay.db') });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /is damaged: overlay\.db differs from what manifest\.json recorded; use another backup/);
    assert.ok(!existsSync(target));
    const notABackup = await run(restoreMain, [data.dir], { ...env, OVERLAY_DB: join(target, 'overlay.db') });
    assert.equal(notABackup.status, 1);
    assert.match(notABackup.stderr, /is not a backup: its manifest\.json cannot be read/);
  });

  test('a backup of a newer layout is refused by the migration runner, and nothing is placed', async () => {
    // the overlay as a newer release leaves it: one step past this release's last
    const newer = latestVersion(OVERLAY_MIGRATIONS) + 1;
    const db = new Database(data.overlayDb);
    db.pragma(`user_version = ${newer}`);
    db.close();
    const dir = join(data.dir, 'newer');
    const backedUp = await run(backupMain, [dir], env);
    assert.equal(backedUp.status, 0, 'a backup copies whatever layout the file has: ' + backedUp.stderr);
    assert.match(backedUp.stdout, new RegExp(`overlay: \\S+ \\(layout version ${newer}, \\d+ bytes\\)`));
    const target = join(data.dir, 'restored-newer');
    const refused = await run(restoreMain, [dir], { ...env, OVERLAY_DB: join(target, 'overlay.db') });
    assert.equal(refused.status, 1);
    assert.equal(
      refused.stderr,
      `cannot restore the overlay database from ${join(dir, 'overlay.db')}: it has layout version ${newer}, newer than this release of the service knows (${newer - 1}): a newer release wrote it. ` +
        'Run that release again (upgrade the service), or restore a backup of the file made before the upgrade\n',
    );
    assert.deepEqual(readdirSync(target), [], 'no database, no key, no temporary');
  });
});
