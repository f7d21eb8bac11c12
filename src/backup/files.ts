// Owner-only files written durably: what backup.ts and restore.ts write holds secrets and must survive a
// crash right after the command says it is done.
import { closeSync, fsyncSync, openSync, writeFileSync } from 'node:fs';

/** A new file (never over an existing one), readable by the owner only, on disk when this returns. */
export function writeOwnerOnly(path: string, content: string | Buffer): void {
  writeFileSync(path, content, { mode: 0o600, flag: 'wx' });
  syncToDisk(path);
}

/** Makes a file's content, or a folder's entries (new files, a rename), durable. */
export function syncToDisk(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
