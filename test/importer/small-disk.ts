// Runs the import command against a small disk of its own, so the disk really fills up: a tmpfs mounted in
// a private mount namespace. Started by full-disk.test.ts under `unshare --user --map-root-user --mount`;
// the mount is gone when this process ends, so it reports what it saw as one JSON line.
// usage: small-disk.js MOUNT_DIR FREE_KIB LIVE_DB_TO_COPY CLI_ARGS…
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_DIR } from '../support/paths.js';

export interface SmallDiskRun {
  status: number | null;
  stderr: string;
  /** What the disk holds afterwards. */
  files: string[];
  liveSha: string;
}

const [mountDir, freeKiB, liveSource, ...cliArgs] = process.argv.slice(2);
const liveKiB = Math.ceil(statSync(liveSource).size / 1024);
execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${liveKiB + Number(freeKiB)}k`, 'tmpfs', mountDir]);
const live = join(mountDir, 'toilets.db');
copyFileSync(liveSource, live);
const result = spawnSync(process.execPath, [join(REPO_DIR, 'dist', 'importer', 'cli.js'), ...cliArgs, '--db', live], { encoding: 'utf8' });
const run: SmallDiskRun = {
  status: result.status,
  stderr: result.stderr,
  files: readdirSync(mountDir).sort(),
  liveSha: createHash('sha256').update(readFileSync(live)).digest('hex'),
};
console.log(JSON.stringify(run));
