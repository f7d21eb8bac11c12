// Whether Debian's tilemaker is here for the tests that build real tiles. Without it they are skipped,
// except in CI (CI=true), where .ci/run installs it and a skip would hide broken tile building.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_DIR } from './paths.js';

const found = spawnSync('tilemaker', ['--help']).error === undefined;
if (!found && process.env.CI === 'true') throw new Error('tilemaker is missing: .ci/run installs it (apt-get install tilemaker)');

/** A skip reason for node:test, or false when tilemaker can run. */
export const noTilemaker: string | false = found ? false : 'tilemaker is not installed (apt-get install tilemaker); CI fails instead of skipping';

export const IMPORT_CLI = join(REPO_DIR, 'dist', 'importer', 'cli.js');

/** What an import left in `dir` under a temporary name (they all start with a dot): nothing, once it has ended. */
export function temporariesIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('.'));
}
