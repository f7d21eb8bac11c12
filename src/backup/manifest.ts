// manifest.json of a backup folder: what it holds, when it was made, each database's layout version
// (PRAGMA user_version) and a SHA-256 of every file, so a restore can tell a whole backup from a damaged or
// foreign one before it places anything.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const MANIFEST_FILE = 'manifest.json';
const FORMAT = 'toilet-finder-backup/1';

export interface BackedUpFile {
  /** File name in the backup folder. */
  file: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  /** When the copy was taken (ISO 8601, UTC). */
  created_at: string;
  databases: (BackedUpFile & { name: string; layout_version: number; from: string })[];
  key_files: (BackedUpFile & { of: string })[];
  /** What is not in it, and why. */
  left_out: string[];
}

export function newManifest(createdAtMs: number, leftOut: string[]): Manifest {
  return { format: FORMAT, created_at: new Date(createdAtMs).toISOString(), databases: [], key_files: [], left_out: leftOut };
}

export function describeFile(dir: string, file: string): BackedUpFile {
  const bytes = readFileSync(join(dir, file));
  return { file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** A folder that is not a whole backup of this format: the message says which and why. */
export class NotABackupError extends Error {}

/** The manifest of the backup in `dir`, every file checked against it. */
export function readManifest(dir: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  } catch (error) {
    throw new NotABackupError(`${dir} is not a backup: its ${MANIFEST_FILE} cannot be read (${(error as Error).message}); name a folder \`npm run backup\` wrote`);
  }
  if (manifest.format !== FORMAT) throw new NotABackupError(`${dir}/${MANIFEST_FILE} is of format ${JSON.stringify(manifest.format)}; this release restores ${FORMAT}`);
  for (const expected of [...manifest.databases, ...manifest.key_files]) {
    let found: BackedUpFile;
    try {
      found = describeFile(dir, expected.file);
    } catch (error) {
      throw new NotABackupError(`the backup in ${dir} is not whole: ${expected.file} cannot be read (${(error as Error).message})`);
    }
    if (found.sha256 !== expected.sha256) throw new NotABackupError(`the backup in ${dir} is damaged: ${expected.file} differs from what ${MANIFEST_FILE} recorded; use another backup`);
  }
  return manifest;
}
