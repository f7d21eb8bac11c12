// deploy/systemd: the units pass `systemd-analyze verify` without a warning (a misspelt directive is only
// a warning to systemd, and would silently drop a hardening option), and every script they start exists
// in the build. The units name /usr/bin/node and /opt/toilet-finder, which verify needs to find: a copy in
// a temporary folder has them replaced by this node and this repository. Skipped without systemd-analyze,
// except in CI (CI=true), where .ci/run installs it and a skip would hide a broken unit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir } from '../support/extracts.js';
import { REPO_DIR } from '../support/paths.js';
import { unitDirectives, unitNames, unitScripts, unitText } from '../support/systemd-units.js';

const UNITS_DIR = join(REPO_DIR, 'deploy', 'systemd');
const analyzeFound = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!analyzeFound && process.env.CI === 'true') throw new Error('systemd-analyze is missing: .ci/run installs it (apt-get install systemd)');

const units = unitNames(REPO_DIR);
const text = (unit: string) => unitText(REPO_DIR, unit);
const directives = (unit: string) => unitDirectives(REPO_DIR, unit);

describe('the systemd units', () => {
  test('the service, the nightly refresh and the backup, each timer with its service', () => {
    assert.deepEqual(units, ['toilet-finder-backup.service', 'toilet-finder-backup.timer', 'toilet-finder-refresh.service', 'toilet-finder-refresh.timer', 'toilet-finder.service']);
  });

  test('systemd-analyze verify passes them without a warning', { skip: analyzeFound ? false : 'systemd-analyze is not installed (apt-get install systemd)' }, () => {
    const dir = tempDir('toilet-systemd');
    try {
      for (const unit of units) writeFileSync(join(dir.path, unit), text(unit).replaceAll('/usr/bin/node', process.execPath).replaceAll('/opt/toilet-finder', REPO_DIR));
      const run = spawnSync('systemd-analyze', ['verify', ...units.map((unit) => join(dir.path, unit))], { encoding: 'utf8' });
      const ours = (run.stdout + run.stderr).split('\n').filter((line) => line.includes('toilet-finder'));
      assert.deepEqual(ours, [], 'no error or warning about the units');
      assert.equal(run.status, 0, run.stderr);
    } finally {
      dir.remove();
    }
  });

  test('every script a unit starts is in the build, and npm run names the same ones', () => {
    const scripts = unitScripts(REPO_DIR).map(({ script }) => script);
    assert.deepEqual(scripts.sort(), ['dist/importer/cli.js', 'dist/src/backup/backup-cli.js', 'dist/src/dumps/dump-cli.js', 'dist/src/main.js']);
    const npmScripts = Object.values(JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')).scripts as Record<string, string>).join('\n');
    for (const script of scripts) {
      assert.ok(existsSync(join(REPO_DIR, script)), `${script} is built`);
      assert.ok(npmScripts.includes(`node ${script}`), `${script} is what an npm script runs`);
    }
  });

  test('the service is hardened: only its data folder writable, no new privileges, IP and Unix sockets only, bounded memory', () => {
    const service = new Map(directives('toilet-finder.service'));
    for (const [key, value] of [
      ['ProtectSystem', 'strict'],
      ['ReadWritePaths', '/var/lib/toilet-finder'],
      ['NoNewPrivileges', 'yes'],
      ['PrivateTmp', 'yes'],
      ['RestrictAddressFamilies', 'AF_INET AF_INET6 AF_UNIX'],
      ['Restart', 'on-failure'],
      ['EnvironmentFile', '/etc/toilet-finder/env'],
      ['UMask', '0077'],
      ['MemoryMax', '1536M'],
    ]) {
      assert.equal(service.get(key), value, key);
    }
    assert.ok(!service.has('MemoryDenyWriteExecute'), 'V8 needs writable, executable memory');
    const env = readFileSync(join(UNITS_DIR, 'env.example'), 'utf8');
    assert.match(env, /^BASE_URL=https:\/\//m, 'the example sets the public origin');
    for (const unit of units.filter((u) => u.endsWith('.service'))) assert.equal(new Map(directives(unit)).get('User'), 'toilet-finder', unit);
  });
});
