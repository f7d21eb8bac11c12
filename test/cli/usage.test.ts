// Every operator command (import, moderate, dump, backup, restore, migrate-store, publish-source) reads its arguments the same way
// (src/cli/command.ts): --help prints the help on stdout, exits 0 and does nothing else (no file, no
// folder, no database); an unknown option, a missing value or a wrong number of words exits 2 with a line
// saying what is wrong and the usage. In-process through each command's main(), and each script once in a
// process of its own.
import { keptStream } from '../support/streams.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CommandIo } from '../../src/cli/command.js';
import { main as importMain } from '../../importer/cli.js';
import { main as moderateMain } from '../../src/moderation/moderate-cli.js';
import { main as dumpMain } from '../../src/dumps/dump-cli.js';
import { main as backupMain } from '../../src/backup/backup-cli.js';
import { main as restoreMain } from '../../src/backup/restore-cli.js';
import { main as migrateStoreMain } from '../../src/backup/migrate-store-cli.js';
import { main as publishSourceMain } from '../../src/source-fetch/publish-cli.js';
import { REPO_DIR } from '../support/paths.js';
import { tempDir } from '../support/extracts.js';

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

type Main = (argv: string[], io: CommandIo) => number | Promise<number>;

const COMMANDS: { name: string; main: Main; script: string; unknownOption: string[]; missingValue?: { argv: string[]; says: RegExp }; wrongWords: string[] }[] = [
  { name: 'import', main: importMain, script: 'importer/cli.js', unknownOption: ['x.osm.pbf', '--frobnicate'], missingValue: { argv: ['x.osm.pbf', '--db'], says: /Option '--db <value>' argument missing/ }, wrongWords: [] },
  { name: 'moderate', main: moderateMain, script: 'src/moderation/moderate-cli.js', unknownOption: ['list', '--frobnicate'], missingValue: { argv: ['log', '--limit'], says: /Option '--limit <value>' argument missing/ }, wrongWords: ['approve'] },
  { name: 'dump', main: dumpMain, script: 'src/dumps/dump-cli.js', unknownOption: ['--frobnicate'], wrongWords: ['somewhere'] },
  { name: 'backup', main: backupMain, script: 'src/backup/backup-cli.js', unknownOption: ['backups/x', '--frobnicate'], wrongWords: [] },
  { name: 'restore', main: restoreMain, script: 'src/backup/restore-cli.js', unknownOption: ['backups/x', '--frobnicate'], wrongWords: ['a', 'b'] },
  { name: 'migrate-store', main: migrateStoreMain, script: 'src/backup/migrate-store-cli.js', unknownOption: ['--frobnicate'], missingValue: { argv: ['--to'], says: /Option '--to <value>' argument missing/ }, wrongWords: ['somewhere'] },
  { name: 'publish-source', main: publishSourceMain, script: 'src/source-fetch/publish-cli.js', unknownOption: ['published', '--frobnicate'], wrongWords: ['a', 'b'] },
];

/** Runs `main` in this process in an empty folder that every setting points into; returns what it printed and left there. */
async function inProcess(main: Main, argv: string[]): Promise<Run & { left: string[] }> {
  const dir = tempDir('toilet-cli-usage');
  const [stdout, stderr] = [keptStream(), keptStream()];
  try {
    const env = { ...process.env, TOILETS_DB: join(dir.path, 'toilets.db'), OVERLAY_DB: join(dir.path, 'overlay.db'), DUMP_DIR: join(dir.path, 'dumps') };
    const cwd = process.cwd();
    process.chdir(dir.path); // relative paths (backups/x) land in the folder too
    let status: number;
    try {
      status = await main(argv.map((word) => word.replace(/^x\.osm\.pbf$/, join(dir.path, 'x.osm.pbf'))), { env, stdout, stderr });
    } finally {
      process.chdir(cwd);
    }
    return { status, stdout: stdout.text, stderr: stderr.text, left: readdirSync(dir.path) };
  } finally {
    dir.remove();
  }
}

for (const command of COMMANDS) {
  describe(`npm run ${command.name}`, () => {
    test('--help prints the help, exits 0 and does nothing else, whatever else is given', async () => {
      for (const argv of [['--help'], ['-h'], [...command.unknownOption, '--help'], ['--help', ...(command.missingValue?.argv ?? command.wrongWords)]]) {
        const run = await inProcess(command.main, argv);
        assert.equal(run.status, 0, `${argv.join(' ')}: ${run.stderr}`);
        assert.match(run.stdout, new RegExp(`^usage: npm run ${command.name}\\b`));
        assert.ok(run.stdout.split('\n').length > 2, 'more than the usage line: what it does');
        assert.equal(run.stderr, '');
        assert.deepEqual(run.left, [], `${argv.join(' ')} writes nothing`);
      }
    });

    test('an unknown option exits 2 with a line naming it and the usage, and does nothing', async () => {
      const run = await inProcess(command.main, command.unknownOption);
      assert.equal(run.status, 2);
      const [first, usage] = run.stderr.split('\n');
      assert.match(first, new RegExp(`^${command.name}: Unknown option '--frobnicate'`));
      assert.match(usage, new RegExp(`^usage: npm run ${command.name}\\b`));
      assert.equal(run.stdout, '');
      assert.deepEqual(run.left, []);
    });

    const missingValue = command.missingValue;
    if (missingValue) {
      test('a missing value exits 2 and says which option needs one', async () => {
        const run = await inProcess(command.main, missingValue.argv);
        assert.equal(run.status, 2, run.stderr);
        assert.match(run.stderr.split('\n')[0], new RegExp(`^${command.name}: `));
        assert.match(run.stderr.split('\n')[0], missingValue.says);
        assert.deepEqual(run.left, []);
      });
    }

    test('the wrong number of words (a missing extract or folder, a missing --reason) exits 2 and says what to write', async () => {
      const run = await inProcess(command.main, command.wrongWords);
      assert.equal(run.status, 2, run.stderr);
      assert.match(run.stderr.split('\n')[0], new RegExp(`^${command.name}: (${command.name} takes|write|.*needs)`));
      assert.deepEqual(run.left, []);
    });

    test('the script: --help in a process of its own exits 0 with the help; an unknown option exits 2', () => {
      const dir = tempDir('toilet-cli-script');
      try {
        const env = { ...process.env, TOILETS_DB: join(dir.path, 'toilets.db'), OVERLAY_DB: join(dir.path, 'overlay.db'), DUMP_DIR: join(dir.path, 'dumps') };
        const script = join(REPO_DIR, 'dist', command.script);
        const help = spawnSync(process.execPath, [script, '--help'], { env, cwd: dir.path, encoding: 'utf8' });
        assert.equal(help.status, 0, help.stderr);
        assert.match(help.stdout, new RegExp(`^usage: npm run ${command.name}\\b`));
        const wrong = spawnSync(process.execPath, [script, ...command.unknownOption], { env, cwd: dir.path, encoding: 'utf8' });
        assert.equal(wrong.status, 2, wrong.stderr);
        assert.match(wrong.stderr, /Unknown option '--frobnicate'/);
        assert.deepEqual(readdirSync(dir.path), []);
      } finally {
        dir.remove();
      }
    });
  });
}

test('the paths of the previous release still run their commands (kept for one release)', () => {
  const dir = tempDir('toilet-cli-old-paths');
  try {
    const env = { ...process.env, TOILETS_DB: join(dir.path, 'toilets.db'), OVERLAY_DB: join(dir.path, 'overlay.db'), DUMP_DIR: join(dir.path, 'dumps') };
    for (const [old, name] of [['src/community/dump-cli.js', 'dump'], ['src/community/moderate-cli.js', 'moderate']]) {
      const help = spawnSync(process.execPath, [join(REPO_DIR, 'dist', old), '--help'], { env, cwd: dir.path, encoding: 'utf8' });
      assert.equal(help.status, 0, help.stderr);
      assert.match(help.stdout, new RegExp(`^usage: npm run ${name}\\b`), `${old} runs npm run ${name}`);
    }
    assert.deepEqual(readdirSync(dir.path), []);
  } finally {
    dir.remove();
  }
});
