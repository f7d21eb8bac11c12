// A database written by a newer release than this one (its layout version above the code's) stops the
// server's start and the operator's commands with exit code 1 and one message naming the file, both
// versions and what to do, and the file is left as it was. Real processes: the message is what an
// operator reads.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteOverlayStore as OverlayStore } from '../../src/community/sqlite-store.js';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { ACCOUNTS_DATABASE, ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import { latestVersion, userVersion } from '../../src/storage/migrations.js';
import { OVERLAY_MIGRATIONS } from '../../src/community/migrations.js';
import { tempDir } from '../api/support.js';
import { dump, moderate, startMain, type Data } from '../community/support.js';

const WHAT_TO_DO = 'a newer release wrote it. Run that release again (upgrade the service), or restore a backup of the file made before the upgrade';

/** Sets a database's layout version by hand, as a newer release would have left it. */
function setVersion(path: string, version: number): void {
  const db = new Database(path);
  db.pragma(`user_version = ${version}`);
  db.close();
}

function versionOf(path: string): number {
  const db = new Database(path, { readonly: true });
  const version = userVersion(db);
  db.close();
  return version;
}

/** The message of the server's "start failed" line (it must not serve). */
async function startFailure(data: Data): Promise<string> {
  let message = '';
  await assert.rejects(startMain(data), (error: Error) => {
    assert.match(error.message, /^the server exited with code 1 before serving/);
    const stderr = error.message.slice(error.message.indexOf(': ') + 2);
    const line = stderr.split('\n').find((l) => l.includes('start failed'));
    assert.ok(line, error.message);
    message = JSON.parse(line).message;
    return true;
  });
  return message;
}

let dir: ReturnType<typeof tempDir>;
let data: Data;
let accountsDb: string;

before(() => {
  dir = tempDir();
  // no source data: the server imports the demo data, then refuses the databases
  data = { dir: dir.path, toiletsDb: join(dir.path, 'toilets.db'), overlayDb: join(dir.path, 'overlay.db'), remove: dir.remove };
  accountsDb = join(dir.path, 'accounts.db');
});
after(() => data.remove());

test('an overlay database from a newer release: the server, npm run moderate and npm run dump refuse it and leave it as it was', async () => {
  await new OverlayStore(data.overlayDb).close();
  const known = latestVersion(OVERLAY_MIGRATIONS);
  setVersion(data.overlayDb, known + 1);
  const refusal = `cannot open the overlay database ${data.overlayDb}: it has layout version ${known + 1}, newer than this release of the service knows (${known}): ${WHAT_TO_DO}`;

  assert.equal(await startFailure(data), `start failed: ${refusal}`);
  for (const run of [await moderate(data, ['list']), await dump(data)]) {
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stderr, `${refusal}\n`);
    assert.equal(run.stdout, '');
  }
  assert.equal(versionOf(data.overlayDb), known + 1);
  setVersion(data.overlayDb, known);
});

test('an accounts database from a newer release: the server and npm run moderate refuse it', async () => {
  await new SqliteAccountsStore(accountsDb, ACCOUNTS_DATABASE).close();
  const newer = ACCOUNTS_MIGRATIONS.length + 1;
  setVersion(accountsDb, newer);
  const refusal = `cannot open the accounts database ${accountsDb}: it has layout version ${newer}, newer than this release of the service knows (${newer - 1}): ${WHAT_TO_DO}`;

  assert.equal(await startFailure(data), `start failed: ${refusal}`);
  const run = await moderate(data, ['list']);
  assert.equal(run.status, 1, run.stderr);
  assert.equal(run.stderr, `${refusal}\n`);
  assert.equal(versionOf(accountsDb), newer);
});
