// The previous release, built as an operator installs it (`npm ci && npm run build`) from git: its tag, or
// its commit where tags did not travel (the commit is in main's history). The tree is `git archive`d into
// the test cache (dist/.test-cache/release-…), with this tree's node_modules linked in when the release's
// lockfile has this one's dependencies (else `npm ci` there), and built once per commit and lockfile. After a release,
// point PREVIOUS_RELEASE at it (CHANGELOG.md's newest release; test/upgrade/changelog.test checks).
// PREVIOUS_RELEASE_NODE names the Node that runs it when this tree's Node is one the release does not run
// on (.ci/node24 runs this tree on Node 24 and v0.1.0 on the machine's Node 20): the release then gets
// modules of its own, installed and built with that Node.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_DIR } from '../support/paths.js';

export const PREVIOUS_RELEASE = { version: '0.1.0', tag: 'v0.1.0', commit: '0a1050a866f3314b371e4482d4484c38562789d0' } as const;

const CACHE_DIR = join(REPO_DIR, 'dist', '.test-cache');

/** The Node the previous release runs on: PREVIOUS_RELEASE_NODE, else the one running this test. */
export const RELEASE_NODE = process.env.PREVIOUS_RELEASE_NODE || process.execPath;

/** RELEASE_NODE's version (`v20.19.5`); throws with what to correct when it does not run. */
function releaseNodeVersion(): string {
  if (RELEASE_NODE === process.execPath) return process.version;
  const ran = spawnSync(RELEASE_NODE, ['--version'], { encoding: 'utf8' });
  if (ran.status !== 0) throw new Error(`PREVIOUS_RELEASE_NODE=${RELEASE_NODE} does not run (${ran.error?.message ?? ran.stderr}): name a node binary the previous release runs on`);
  return ran.stdout.trim();
}

export interface BuiltRelease {
  commit: string;
  /** How the commit was found: `tag v0.1.0` or `commit 0a1050a…`. */
  via: string;
  /** The built tree: what /opt/toilet-finder holds on an install of it. */
  dir: string;
  /** `linked` (the same lockfile as this tree, and the same Node) or `npm ci`. */
  modules: 'linked' | 'npm ci';
  /** The node binary that runs it (RELEASE_NODE). */
  node: string;
}

function git(args: string[]): { status: number | null; stdout: Buffer; stderr: string } {
  const run = spawnSync('git', args, { cwd: REPO_DIR, maxBuffer: 1 << 30 });
  return { status: run.error ? null : run.status, stdout: run.stdout ?? Buffer.alloc(0), stderr: String(run.stderr ?? run.error?.message ?? '') };
}

/** The previous release's commit and how it was found, or why it cannot be had here. */
export function findPreviousRelease(): { commit: string; via: string } | { missing: string } {
  if (git(['--version']).status !== 0) return { missing: 'git is not installed (the upgrade test builds the previous release from the repository)' };
  const { tag, commit } = PREVIOUS_RELEASE;
  const tagged = git(['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`]);
  if (tagged.status === 0) {
    const named = tagged.stdout.toString().trim();
    if (named !== commit) throw new Error(`the tag ${tag} names ${named}, but release ${PREVIOUS_RELEASE.version} is ${commit}: correct the tag or PREVIOUS_RELEASE`);
    return { commit, via: `tag ${tag}` };
  }
  if (git(['cat-file', '-e', `${commit}^{commit}`]).status === 0) return { commit, via: `commit ${commit.slice(0, 7)} (no tag ${tag} here)` };
  return { missing: `neither the tag ${tag} nor the commit ${commit} is in this repository: fetch the history (git fetch --unshallow --tags)` };
}

/** Runs a command with RELEASE_NODE first in PATH (npm's scripts and native builds then use it). */
function run(command: string, args: string[], cwd: string): void {
  const env = { ...process.env, PATH: `${dirname(RELEASE_NODE)}:${process.env.PATH ?? ''}` };
  const done = spawnSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} in ${cwd} failed (${done.status ?? done.error?.message}): ${done.stderr.slice(-2000)}${done.stdout.slice(-2000)}`);
}

/** A lockfile's dependency tree: all of it but the project's own version, which every release changes. */
function dependencies(lockfile: Buffer): string {
  const lock = JSON.parse(lockfile.toString('utf8')) as { version?: string; packages?: Record<string, { version?: string }> };
  delete lock.version;
  delete lock.packages?.['']?.version;
  return JSON.stringify(lock);
}

/** Builds (or finds built) the release at `commit`. */
export function buildRelease(found: { commit: string; via: string }): BuiltRelease {
  const lock = readFileSync(join(REPO_DIR, 'package-lock.json'));
  const oldLock = git(['show', `${found.commit}:package-lock.json`]);
  if (oldLock.status !== 0) throw new Error(`git show ${found.commit}:package-lock.json failed: ${oldLock.stderr}`);
  const nodeVersion = releaseNodeVersion();
  // this tree's native modules are built for this Node: linked only when the release runs on the same one
  const sameNode = nodeVersion.split('.')[0] === process.version.split('.')[0];
  const modules = sameNode && dependencies(oldLock.stdout) === dependencies(lock) ? 'linked' : 'npm ci';
  const key = modules === 'linked' ? createHash('sha256').update(dependencies(lock)).digest('hex').slice(0, 12) : `own-modules-${nodeVersion.split('.')[0]}`;
  const dir = join(CACHE_DIR, `release-${found.commit.slice(0, 12)}-${key}`);
  const built = { commit: found.commit, via: found.via, dir, modules, node: RELEASE_NODE } as const;
  if (existsSync(join(dir, '.built'))) return built;
  const partial = `${dir}.${process.pid}.building`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    const archive = git(['archive', '--format=tar', found.commit]);
    if (archive.status !== 0) throw new Error(`git archive ${found.commit} failed: ${archive.stderr}`);
    const untar = spawnSync('tar', ['-x', '-C', partial], { input: archive.stdout, encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`tar -x failed: ${untar.stderr}`);
    if (modules === 'linked') symlinkSync(join(REPO_DIR, 'node_modules'), join(partial, 'node_modules'));
    else run('npm', ['ci', '--no-audit', '--no-fund'], partial); // its prepare script builds it
    if (!existsSync(join(partial, 'dist', 'src', 'main.js'))) run('npm', ['run', 'build'], partial);
    writeFileSync(join(partial, '.built'), `${found.commit}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return built;
}
