// npm run restore -- DIR: puts a backup (backup.ts) in the places the configuration names, for a server
// that is stopped. It checks everything before it places anything: the manifest and every file's SHA-256,
// that no database (or its -wal or -shm, which SQLite would apply to the restored file) or key file is
// in the way, and that this release can open each database: a copy is made beside its place and opened as
// the server opens it (migrated; a file from a newer release refused with the migration runner's message).
// Only when all copies are ready are they renamed into place. It never writes over a file.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { openDatabase } from '../storage/database.js';
import { NewerDatabaseError, userVersion } from '../storage/migrations.js';
import { readManifest, type Manifest } from './manifest.js';
import { OWNED_DATABASES } from './owned.js';
import { syncToDisk, writeOwnerOnly } from './files.js';

/** A restore that cannot be done as asked: the message says why and what to do. */
export class RestoreError extends Error {}

export interface RestoredFile {
  what: string;
  to: string;
  /** The layout version after opening (migrated to this release's). */
  layoutVersion?: number;
}

export function restore(config: Config, from: string): { manifest: Manifest; restored: RestoredFile[] } {
  const dir = resolve(from);
  const manifest = readManifest(dir);
  const plan = manifest.databases.map((entry) => {
    const owned = OWNED_DATABASES.find((o) => o.name === entry.name);
    if (owned === undefined) throw new RestoreError(`the backup holds a database this release does not know (${entry.name}): restore it with the release that made it`);
    const key = owned.key && manifest.key_files.find((k) => k.of === owned.name);
    // with DATABASE_URL the server key is PostgreSQL's (src/community/server-key.ts), backed up with the database
    if (owned.key && key === undefined && config.database === null) throw new RestoreError(`the backup's ${owned.kind.name} comes without its key file: use a backup \`npm run backup\` wrote`);
    return { owned, entry, to: owned.path(config), key: owned.key && key ? { from: join(dir, key.file), to: owned.key.path(config) } : null };
  });
  const inTheWay = plan.flatMap(({ to, key }) => [to, `${to}-wal`, `${to}-shm`, ...(key ? [key.to] : [])]).filter((path) => existsSync(path));
  if (inTheWay.length > 0) {
    throw new RestoreError(`${inTheWay.join(', ')} ${inTheWay.length === 1 ? 'is' : 'are'} in the way: stop the server and move ${inTheWay.length === 1 ? 'it' : 'them'} aside first (a restore never writes over a file)`);
  }
  const staged: { temporary: string; to: string }[] = [];
  const restored: RestoredFile[] = [];
  try {
    for (const { owned, entry, to, key } of plan) {
      const temporary = join(dirname(to), `.${basename(to)}.${process.pid}.restoring`);
      mkdirSync(dirname(to), { recursive: true });
      staged.push({ temporary, to });
      writeOwnerOnly(temporary, readFileSync(join(dir, entry.file)));
      let layoutVersion: number;
      try {
        const db = openDatabase(temporary, { ...owned.kind, ownerOnly: true });
        layoutVersion = userVersion(db);
        db.close();
      } catch (error) {
        if (error instanceof NewerDatabaseError) {
          const runner = error.cause instanceof Error ? error.cause.message : error.message;
          throw new NewerDatabaseError(`cannot restore the ${owned.kind.name} from ${join(dir, entry.file)}: ${runner}`, { cause: error });
        }
        throw error;
      }
      restored.push({ what: owned.kind.name, to, layoutVersion });
      if (key) {
        const keyTemporary = join(dirname(key.to), `.${basename(key.to)}.${process.pid}.restoring`);
        staged.push({ temporary: keyTemporary, to: key.to });
        writeOwnerOnly(keyTemporary, readFileSync(key.from));
        restored.push({ what: `the ${owned.kind.name}'s key`, to: key.to });
      }
    }
  } catch (error) {
    for (const { temporary } of staged) for (const file of [temporary, `${temporary}-wal`, `${temporary}-shm`]) rmSync(file, { force: true });
    throw error;
  }
  for (const { temporary, to } of staged) renameSync(temporary, to);
  for (const folder of new Set(staged.map(({ to }) => dirname(to)))) syncToDisk(folder);
  return { manifest, restored };
}
