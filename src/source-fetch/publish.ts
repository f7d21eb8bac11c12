// The import job's side (docs/SCALING.md): puts the files one import made into a folder a plain web server
// (nginx) serves to the replicas, each beside its checksum file. A file goes in under a temporary name (a
// hard link where the folder is on the same file system, as the import never writes a file again once
// renamed into place; a copy elsewhere) and is renamed over the published one; only then is its checksum
// file replaced, the same way. A replica reading the new checksum therefore always finds the new file; one
// that read the old checksum and then the new file sees a mismatch and tries again. A file whose published
// checksum already states its SHA-256 is left alone, so its ETag stays and the replicas' checks stay 304s.
// Published files are readable by all (0644, folders it makes 0755): the web server's user may be another,
// the import job's umask (0077 under systemd) notwithstanding; the data is public.
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { discardTemporary, keepTemporary, temporaryFile } from '../storage/temporaries.js';
import { checksumLine, parseChecksum, sha256OfFile } from './checksum.js';
import { checkSourceDatabase, checkTilesFile } from './checks.js';

/** The names the replicas' URLs end with (docs/SCALING.md). */
export const PUBLISHED_NAMES = { toilets: 'toilets.db', tiles: 'tiles.mbtiles', dumps: 'dumps' } as const;

export interface PublishSources {
  toiletsDb: string;
  tilesDb: string;
  dumpDir: string;
}

/** What one publish did with each file: published anew, or unchanged. */
export interface PublishedFile {
  /** Its path in the published folder. */
  name: string;
  sha256: string;
  changed: boolean;
}

/**
 * Publishes the source database (required: it must pass the replicas' own check first), the tiles file and
 * the dump files when there are any, into `dir`.
 */
export async function publish(sources: PublishSources, dir: string): Promise<PublishedFile[]> {
  if (!existsSync(sources.toiletsDb)) throw new PublishError(`there is no source database at ${sources.toiletsDb} (TOILETS_DB): run \`npm run import\` first`);
  try {
    checkSourceDatabase(sources.toiletsDb);
  } catch (error) {
    throw new PublishError(`${sources.toiletsDb} is not published: ${(error as Error).message}`);
  }
  if (existsSync(sources.tilesDb)) {
    try {
      checkTilesFile(sources.tilesDb);
    } catch (error) {
      throw new PublishError(`${sources.tilesDb} is not published: ${(error as Error).message}`);
    }
  }
  publicFolder(dir);
  const done: PublishedFile[] = [];
  if (existsSync(sources.tilesDb)) done.push(await publishFile(sources.tilesDb, dir, PUBLISHED_NAMES.tiles));
  const dumps = existsSync(sources.dumpDir) ? readdirSync(sources.dumpDir).filter((name) => !name.startsWith('.') && statSync(join(sources.dumpDir, name)).isFile()) : [];
  if (dumps.length > 0) publicFolder(join(dir, PUBLISHED_NAMES.dumps));
  for (const name of dumps) done.push(await publishFile(join(sources.dumpDir, name), join(dir, PUBLISHED_NAMES.dumps), name, `${PUBLISHED_NAMES.dumps}/${name}`));
  done.push(await publishFile(sources.toiletsDb, dir, PUBLISHED_NAMES.toilets));
  return done;
}

/** `shownAs`: the file's path in the published folder. */
async function publishFile(source: string, dir: string, name: string, shownAs = name): Promise<PublishedFile> {
  const sha256 = await sha256OfFile(source);
  const target = join(dir, name);
  const checksum = `${target}.sha256`;
  if (existsSync(target) && statSync(target).size === statSync(source).size && publishedDigest(checksum, name) === sha256) return { name: shownAs, sha256, changed: false };
  placeAtomically(dir, name, (temp) => {
    try {
      linkSync(source, temp);
    } catch {
      copyFileSync(source, temp); // another file system, or no hard links there
    }
  });
  placeAtomically(dir, `${name}.sha256`, (temp) => writeFileSync(temp, checksumLine(sha256, name)));
  return { name: shownAs, sha256, changed: true };
}

/** The digest the published checksum file states, or null (none, or not readable). */
function publishedDigest(path: string, name: string): string | null {
  try {
    return parseChecksum(readFileSync(path, 'latin1'), name);
  } catch {
    return null;
  }
}

/** Writes `dir/name` with `write` under a temporary name, then renames it into place. */
function placeAtomically(dir: string, name: string, write: (temp: string) => void): void {
  const temp = temporaryFile(dir, `.${basename(name)}.`, '.publishing');
  try {
    write(temp);
    chmodSync(temp, 0o644); // a hard link's mode is the source's too: public data in a folder of the job's own
    renameSync(temp, join(dir, name));
    keepTemporary(temp);
  } finally {
    discardTemporary(temp);
  }
}

/** Makes `dir` if it is not there, readable by all; one that is there keeps the operator's mode. */
function publicFolder(dir: string): void {
  if (mkdirSync(dir, { recursive: true }) !== undefined) chmodSync(dir, 0o755);
}

/** A failure said in one line. */
export class PublishError extends Error {}
