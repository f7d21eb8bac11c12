// A full disk through the real command on a real filesystem (a small tmpfs, see small-disk.ts): a one-line
// message naming the cause, the documented exit code, the live database byte for byte unchanged, and no
// unfinished file left taking the space.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { noMountNamespace, UNSHARE } from '../support/mount-namespace.js';
import { osmExtract, REPO_DIR } from '../support/paths.js';
import { importedCopy } from '../support/extracts.js';
import { tempDir } from './support.js';
import type { SmallDiskRun } from './small-disk.js';

const dir = tempDir('full');
const live = join(dir, 'toilets.db');
const mountDir = join(dir, 'disk');

test.before(async () => {
  await importedCopy('monaco', live);
  mkdirSync(mountDir);
});

function onSmallDisk(freeKiB: number, ...cliArgs: string[]): Promise<SmallDiskRun> {
  const helper = join(REPO_DIR, 'dist', 'test', 'importer', 'small-disk.js');
  // asynchronous: the download test's server answers from this process meanwhile
  return new Promise((resolve, reject) => {
    execFile(UNSHARE[0], [...UNSHARE.slice(1), process.execPath, helper, mountDir, String(freeKiB), live, ...cliArgs], (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as SmallDiskRun);
    });
  });
}

function assertRefused(run: SmallDiskRun, code: number, message: RegExp): void {
  assert.equal(run.status, code, run.stderr);
  assert.match(run.stderr, message);
  assert.equal(run.stderr.trim().split('\n').length, 1, `one line: ${run.stderr}`);
  assert.equal(run.liveSha, createHash('sha256').update(readFileSync(live)).digest('hex'), 'live database unchanged');
  assert.deepEqual(run.files, ['toilets.db'], 'nothing but the live database left on the disk');
}

test('an import that fills the disk is refused (exit 5) and leaves the live database as it was', { skip: noMountNamespace }, async () => {
  // a new database of a real extract takes ~10 MB; 2 MB are free
  const run = await onSmallDisk(2048, osmExtract('liechtenstein'), '--quiet');
  assertRefused(run, 5, /the disk is full while writing .*\.importing; free space and import again \(the live database is unchanged\)/);
});

test('a download that fills the disk is refused (exit 4) and removed', { skip: noMountNamespace }, async () => {
  const data = readFileSync(osmExtract('porto'));
  const server = createServer((_req, res) => res.writeHead(200, { 'Content-Length': data.length }).end(data));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    // the extract is ~1.2 MB; 256 KiB are free
    const run = await onSmallDisk(256, `http://127.0.0.1:${port}/porto.osm.pbf`, '--quiet');
    assertRefused(run, 4, /the disk is full while downloading http:\/\/127\.0\.0\.1:\d+\/porto\.osm\.pbf/);
  } finally {
    server.close();
  }
});
