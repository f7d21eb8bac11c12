// deploy/systemd: the units pass `systemd-analyze verify` without a warning (a misspelt directive is only
// a warning to systemd, and would silently drop a hardening option), every script they start exists in
// the build, and the replicas' template runs the service as toilet-finder.service does, on a port and
// files of each instance's own. The units name /usr/bin/node and /opt/toilet-finder, which verify needs to find: a copy in
// a temporary folder has them replaced by this node and this repository. Skipped without systemd-analyze,
// except in CI (CI=true), where .ci/run installs it and a skip would hide a broken unit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir } from '../support/extracts.js';
import { REPO_DIR } from '../support/paths.js';
import { commandOf, execStarts, unitDirectives, unitNames, unitScripts, unitText } from '../support/systemd-units.js';

const UNITS_DIR = join(REPO_DIR, 'deploy', 'systemd');
const analyzeFound = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!analyzeFound && process.env.CI === 'true') throw new Error('systemd-analyze is missing: .ci/run installs it (apt-get install systemd)');

const units = unitNames(REPO_DIR);
const TEMPLATE = 'toilet-finder@.service';
/** An instance of the template, as `systemctl start toilet-finder@8081` makes it. */
const REPLICA = 'toilet-finder@8081.service';
const text = (unit: string) => unitText(REPO_DIR, unit);
const directives = (unit: string) => unitDirectives(REPO_DIR, unit);

describe('the systemd units', () => {
  test('the service, the replicas\' template, the nightly refresh and the backup, each timer with its service', () => {
    assert.deepEqual(units, ['toilet-finder-backup.service', 'toilet-finder-backup.timer', 'toilet-finder-refresh.service', 'toilet-finder-refresh.timer', 'toilet-finder.service', 'toilet-finder@.service']);
  });

  test('systemd-analyze verify passes them without a warning', { skip: analyzeFound ? false : 'systemd-analyze is not installed (apt-get install systemd)' }, () => {
    const dir = tempDir('toilet-systemd');
    try {
      // the template as itself and as an instance (its %i resolved)
      const files = [...units, REPLICA];
      for (const unit of files) writeFileSync(join(dir.path, unit), text(unit === REPLICA ? TEMPLATE : unit).replaceAll('/usr/bin/node', process.execPath).replaceAll('/opt/toilet-finder', REPO_DIR));
      const run = spawnSync('systemd-analyze', ['verify', ...files.map((unit) => join(dir.path, unit))], { encoding: 'utf8' });
      const ours = (run.stdout + run.stderr).split('\n').filter((line) => line.includes('toilet-finder'));
      assert.deepEqual(ours, [], 'no error or warning about the units');
      assert.equal(run.status, 0, run.stderr);
    } finally {
      dir.remove();
    }
  });

  test('every script a unit starts is in the build, and npm run names the same ones', () => {
    const scripts = unitScripts(REPO_DIR).map(({ script }) => script);
    assert.deepEqual(scripts.sort(), ['dist/importer/cli.js', 'dist/src/backup/backup-cli.js', 'dist/src/dumps/dump-cli.js', 'dist/src/main.js', 'dist/src/main.js']);
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

  test("the replicas' template starts main.js as the service does, with the instance's port and files of its own", () => {
    const [start] = execStarts(REPO_DIR, TEMPLATE);
    const [command, ...args] = commandOf(start.replaceAll('%i', '8081'), REPO_DIR, {});
    assert.equal(command, '/usr/bin/env');
    const settings = Object.fromEntries(args.filter((arg) => arg.includes('=')).map((arg) => arg.split('=')));
    assert.deepEqual(settings, {
      PORT: '8081',
      OVERLAY_DB: '/var/lib/toilet-finder/replica-8081/overlay.db',
      ACCOUNTS_DB: '/var/lib/toilet-finder/replica-8081/accounts.db',
      DUMP_DIR: '/var/lib/toilet-finder/replica-8081/dumps',
    });
    assert.deepEqual(args.filter((arg) => !arg.includes('=')), [process.execPath, join(REPO_DIR, 'dist/src/main.js')]);
    assert.ok(existsSync(join(REPO_DIR, 'dist/src/main.js')), 'main.js is built');
    // everything else as the single server's unit: the same settings file, restarts and hardening
    const differs = new Set(['ExecStart', 'StateDirectory', 'Description', 'Documentation']);
    const rest = (unit: string) => directives(unit).filter(([key]) => !differs.has(key));
    assert.deepEqual(rest(TEMPLATE), rest('toilet-finder.service'));
    assert.equal(new Map(directives(TEMPLATE)).get('StateDirectory'), 'toilet-finder toilet-finder/replica-%i');
  });
});
