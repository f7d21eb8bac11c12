// An overlay database written by the last release without migrations (test/fixtures/
// overlay-before-migrations.sql: its layout and rows as `sqlite3 .dump` gives them, unversioned, rows in every
// table, made by make-overlay-before-migrations.mjs with that release's code over the Monaco extract) is recognised by this release and brought to
// the latest layout version by whichever opens it first (here `npm run dump`), every row kept and served as before. The
// accounts database appears beside it with the server, owner-only and migrated, and never with the dump.
import { ACCOUNTS_MIGRATIONS } from '../../src/databases.js';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteOverlayStore as OverlayStore } from '../../src/community/sqlite-store.js';
import { OVERLAY_MIGRATIONS } from '../../src/community/migrations.js';
import { latestVersion, userVersion } from '../../src/storage/migrations.js';
import { Clock, dump, importedData, moderate, startService, TEST_START, type Data, type Service } from '../community/support.js';

/** The fixture from the source tree (the build does not copy it). */
const FIXTURE = fileURLToPath(new URL('../../../test/fixtures/overlay-before-migrations.sql', import.meta.url));

/** The fixture's database, written at `path` as that release left it (WAL, user_version 0). */
function writeFixture(path: string): void {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(readFileSync(FIXTURE, 'utf8'));
  } finally {
    db.close();
  }
}
/** Monaco toilets the fixture's contributions are about (make-overlay-before-migrations.mjs). */
const RATED = 'n1685061947';
const VOTED = 'n1702432023';
const REPORTED = 'n1736033544';
const LOCKED = 'n1736034924';

type Rows = Record<string, unknown[]>;

/** Every table's rows, and the layout (sqlite_master), of the overlay database at `path`. */
function contents(path: string): { layout: unknown[]; rows: Rows; version: number } {
  const db = new Database(path, { readonly: true });
  try {
    const layout = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all();
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    const sorted = (rows: unknown[]) => rows.map((row) => [JSON.stringify(row), row] as const).sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
    const rows = Object.fromEntries(tables.map((table) => [table, sorted(db.prepare(`SELECT * FROM "${table}"`).all())]));
    return { layout, rows, version: userVersion(db) };
  } finally {
    db.close();
  }
}

let data: Data;
let fixture: ReturnType<typeof contents>;

before(async () => {
  data = await importedData('monaco');
  writeFixture(data.overlayDb);
  fixture = contents(data.overlayDb);
});
after(() => data.remove());

test('the fixture is what the last release wrote: unversioned, rows in every table', () => {
  assert.equal(fixture.version, 0);
  for (const [table, rows] of Object.entries(fixture.rows)) assert.ok(rows.length > 0, `${table} has rows`);
});

test('npm run dump brings the old file to the latest version with every row and the same layout as a new file, and does not open the accounts database', async () => {
  const dumped = await dump(data);
  assert.equal(dumped.status, 0, dumped.stderr);
  const migrated = contents(data.overlayDb);
  assert.equal(migrated.version, latestVersion(OVERLAY_MIGRATIONS));
  assert.equal(migrated.version, 2);
  // step 2 adds the readiness probe's table, empty until GET /readyz writes its row
  assert.deepEqual(migrated.rows, { ...fixture.rows, readiness_probe: [] });
  const released = (layout: unknown[]) => layout.filter((entry) => (entry as { tbl_name: string }).tbl_name !== 'readiness_probe');
  assert.deepEqual(released(migrated.layout), fixture.layout, 'step 1 is the released layout exactly');
  assert.equal(migrated.layout.length, fixture.layout.length + 1);

  const fresh = join(data.dir, 'fresh-overlay.db');
  await new OverlayStore(fresh).close();
  assert.deepEqual(contents(fresh).layout, migrated.layout, 'a new file gets the same layout');
  assert.equal(existsSync(join(data.dir, 'accounts.db')), false, 'the dump never opens the accounts database');
});

test('the server serves every contribution of the old file, and makes the accounts database owner-only and migrated', async () => {
  const clock = new Clock(Date.parse(TEST_START));
  const s: Service = await startService(data, clock);
  try {
    const rated = await s.toilet(RATED);
    assert.deepEqual([rated.confirmations, rated.last_confirmed_at, rated.cleanliness], [2, new Date(TEST_START).toISOString(), { average: 2.5, count: 2 }]);
    assert.deepEqual((await s.toilet(VOTED)).provenance.decided.changing_table, { by: 'votes', votes_for: 2, votes_total: 2, as_of: TEST_START.slice(0, 10) });
    assert.equal((await s.toilet(REPORTED)).verification_state, 'disputed');
    assert.equal((await s.toilet(LOCKED)).provenance.decided.fee.by, 'moderator');
    assert.equal((await s.toilet('c_1')).name, 'Kiosk');

    const queues = await moderate(data, ['list', '--json']);
    assert.equal(queues.status, 0, queues.stderr);
    assert.deepEqual(queues.json.submissions.map((q: { id: string; note: string }) => [q.id, q.note]), [['sub_2', 'upstairs']]);
    assert.deepEqual(queues.json.reports.map((q: { id: string; toilet_id: string }) => [q.id, q.toilet_id]), [['rep_1', REPORTED]]);

    const accountsDb = join(data.dir, 'accounts.db');
    assert.equal(s.app.accounts.file.path, accountsDb);
    for (const file of [accountsDb, `${accountsDb}-wal`, `${accountsDb}-shm`]) assert.equal(statSync(file).mode & 0o777, 0o600, file);
    assert.equal(userVersion(s.app.accounts.file.db), ACCOUNTS_MIGRATIONS.length, 'migrated to the latest layout');
  } finally {
    await s.close();
  }
});
