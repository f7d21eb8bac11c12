// npm run backup -- DIR: an online copy of every database the service owns (owned.ts) with its key file,
// consistent while the server writes. Each database is copied with SQLite's online backup in one step,
// which reads one snapshot of the file (in WAL mode a reader never blocks the server's writers, and no
// write of the server can make the copy restart), then checked (integrity_check) and written without its
// WAL flag, so a backup file is one self-contained file. The folder is built under a temporary name beside
// DIR and renamed into place once whole: DIR is either a complete backup or not there. Everything is
// owner-only (folder 0700, files 0600): the accounts database and the key are secrets.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config.js';
import { userVersion } from '../storage/migrations.js';
import { errorCode } from '../storage/errors.js';
import { MANIFEST_FILE, describeFile, newManifest, type Manifest } from './manifest.js';
import { KEY_IN_POSTGRESQL, OWNED_DATABASES, SOURCE_LEFT_OUT } from './owned.js';
import { syncToDisk, writeOwnerOnly } from './files.js';

/** A backup that cannot be made as asked: the message says why and what to do. */
export class BackupError extends Error {}

/** How long a copy waits for a lock another process holds (a moment of the server's checkpoint). */
const BUSY_TIMEOUT_MS = 5000;
/** Pages per backup step: all of them, so the copy is one read of one snapshot. */
const ALL_PAGES = 0x7fffffff;

export async function backUp(config: Config, target: string, now: () => number): Promise<{ dir: string; manifest: Manifest }> {
  const dir = resolve(target);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new BackupError(`${dir} is not empty: name a new folder for each backup (e.g. backups/$(date +%F)); a backup never writes over another`);
  }
  const missing = OWNED_DATABASES.filter((owned) => owned.required && !existsSync(owned.path(config)));
  if (missing.length > 0) {
    throw new BackupError(missing.map((owned) => `there is no ${owned.kind.name} at ${owned.path(config)} (${owned.variable})`).join('; ') + ': start the server once, or set the variables as the server has them');
  }
  mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
  const staging = join(dirname(dir), `.${basename(dir)}.${process.pid}.partial`);
  mkdirSync(staging, { mode: 0o700 });
  try {
    const manifest = newManifest(now(), [SOURCE_LEFT_OUT]);
    for (const owned of OWNED_DATABASES) {
      const from = owned.path(config);
      if (!existsSync(from)) {
        manifest.left_out.push(`the ${owned.kind.name}: there was none at ${from} (${owned.variable}); the server makes an empty one`);
        continue;
      }
      const layoutVersion = await copyDatabase(from, join(staging, owned.file));
      manifest.databases.push({ name: owned.name, from, layout_version: layoutVersion, ...describeFile(staging, owned.file) });
      if (owned.key) {
        const keyPath = owned.key.path(config);
        if (existsSync(keyPath)) {
          writeOwnerOnly(join(staging, owned.key.file), readFileSync(keyPath));
          manifest.key_files.push({ of: owned.name, ...describeFile(staging, owned.key.file) });
        } else if (config.database !== null) {
          manifest.left_out.push(KEY_IN_POSTGRESQL);
        } else {
          throw new BackupError(`the ${owned.kind.name}'s key file ${keyPath} is missing; the server makes it at start: start it once, or find the file`);
        }
      }
    }
    writeOwnerOnly(join(staging, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    syncToDisk(staging);
    if (existsSync(dir)) rmdirSync(dir); // empty, checked above
    renameSync(staging, dir);
    syncToDisk(dirname(dir));
    return { dir, manifest };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Copies the database at `from` to `to` (made owner-only first); returns the copy's layout version. */
async function copyDatabase(from: string, to: string): Promise<number> {
  closeSync(openSync(to, 'wx', 0o600));
  // no migration, no journal mode change: the live file is only read (a newer command must not migrate
  // the file of an older server that is still running)
  const source = openExisting(from);
  try {
    source.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    await source.backup(to, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  const copy = openExisting(to);
  try {
    copy.pragma('journal_mode = DELETE'); // one self-contained file
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`the copy of ${from} fails SQLite's integrity check (${String(check)}): the live file may be damaged; keep the previous backups`);
    return userVersion(copy);
  } finally {
    copy.close();
    syncToDisk(to);
  }
}

function openExisting(path: string): Database.Database {
  try {
    return new Database(path, { fileMustExist: true });
  } catch (error) {
    throw Object.assign(new Error(`cannot open ${path}: ${(error as Error).message}`, { cause: error }), { code: errorCode(error) });
  }
}
