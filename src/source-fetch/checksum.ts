// The checksum file published beside each file: one line as `sha256sum` writes it, `<64 hex digits>  <name>`
// (so `sha256sum -c` on the publishing side checks it too), and the SHA-256 of a file on disk.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

/** The checksum file's line for `name`. */
export function checksumLine(sha256: string, name: string): string {
  return `${sha256}  ${name}\n`;
}

/**
 * The digest a checksum file states, lower case; throws saying what is wrong. A name after the digest must be
 * `name` (a checksum file of another file would pass a wrong file as right).
 */
export function parseChecksum(text: string, name: string): string {
  const match = /^([0-9a-fA-F]{64})(?:[ \t]+\*?(\S.*?))?\s*$/.exec(text.split('\n')[0] ?? '');
  if (match === null) throw new Error(`the checksum file does not start with a SHA-256 (64 hex digits, as sha256sum writes it); write it with \`npm run publish-source\` or \`sha256sum ${name} > ${name}.sha256\``);
  if (match[2] !== undefined && match[2] !== name) throw new Error(`the checksum file is that of ${JSON.stringify(match[2])}, not of ${JSON.stringify(name)}`);
  return match[1].toLowerCase();
}

/** The SHA-256 of the file at `path`, in hex, read as a stream (the file may be gigabytes). */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}
