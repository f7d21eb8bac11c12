// The migration runner and the opening of the service's own databases (src/storage), on real SQLite files
// in a temporary folder: steps applied in order, one transaction each, a failing step leaving the file at
// the version before it, a file from a newer release refused with a message that says what to do, the
// pragmas every such database gets, and owner-only files for personal data.
import assert from 'node:assert/strict';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { openDatabase } from '../../src/storage/database.js';
import { collectSteps, NewerDatabaseError, userVersion, type Migration } from '../../src/storage/migrations.js';
import { errorCode } from '../../src/storage/errors.js';
import { tempDir } from '../api/support.js';

const dir = tempDir();
after(() => dir.remove());
let files = 0;
const newFile = () => join(dir.path, `test-${++files}.db`);

/** Three steps that note when they run; step 3 fails while `failing` is set, after it changed something. */
function steps(ran: number[], failing = { now: false }): Migration[] {
  return [
    { version: 1, name: 'places', up: (db) => (ran.push(1), db.exec('CREATE TABLE places (id INTEGER PRIMARY KEY, name TEXT NOT NULL)')) },
    { version: 2, name: 'first place', up: (db) => (ran.push(2), db.exec("INSERT INTO places (name) VALUES ('Vaduz')")) },
    {
      version: 3,
      name: 'place kinds',
      up: (db) => {
        ran.push(3);
        db.exec("ALTER TABLE places ADD COLUMN kind TEXT NOT NULL DEFAULT 'town'");
        if (failing.now) db.exec('INSERT INTO no_such_table VALUES (1)');
      },
    },
  ];
}

const open = (path: string, migrations: readonly Migration[], ownerOnly = false) => openDatabase(path, { name: 'test database', migrations, ownerOnly });

test('a new database gets every step in order, and its version; opened again, none runs twice', () => {
  const path = newFile();
  const ran: number[] = [];
  const db = open(path, steps(ran));
  assert.deepEqual(ran, [1, 2, 3]);
  assert.equal(userVersion(db), 3);
  assert.deepEqual(db.prepare('SELECT name, kind FROM places').all(), [{ name: 'Vaduz', kind: 'town' }]);
  db.close();
  open(path, steps(ran)).close();
  assert.deepEqual(ran, [1, 2, 3]);
});

test('a database at an older version gets only the steps it lacks', () => {
  const path = newFile();
  const ran: number[] = [];
  open(path, steps(ran).slice(0, 2)).close();
  const db = open(path, steps(ran));
  assert.deepEqual(ran, [1, 2, 3]);
  assert.equal(userVersion(db), 3);
  db.close();
});

test('a failing step leaves the file at the version before it, with its data, and says which step; mended, it runs', () => {
  const path = newFile();
  const ran: number[] = [];
  const failing = { now: true };
  assert.throws(
    () => open(path, steps(ran, failing)),
    (error: Error) => {
      assert.equal(error.message, `cannot open the test database ${path}: migration 3 (place kinds) failed, the file stays at layout version 2: no such table: no_such_table`);
      return true;
    },
  );
  assert.deepEqual(ran, [1, 2, 3]);
  const left = new Database(path, { readonly: true });
  assert.equal(userVersion(left), 2, 'steps 1 and 2 committed, each in its own transaction');
  assert.deepEqual(left.prepare('SELECT * FROM places').all(), [{ id: 1, name: 'Vaduz' }], 'step 3 rolled back whole (its new column too)');
  left.close();

  failing.now = false;
  const db = open(path, steps(ran, failing));
  assert.deepEqual(ran, [1, 2, 3, 3]);
  assert.equal(userVersion(db), 3);
  db.close();
});

/** `opening` is refused as a file at layout version `found` from a newer release than code that knows `known`. */
function assertRefusedAsNewer(opening: () => unknown, path: string, found: number, known: number): void {
  assert.throws(opening, (error: Error) => {
    assert.ok(error instanceof NewerDatabaseError);
    assert.equal(
      error.message,
      `cannot open the test database ${path}: it has layout version ${found}, newer than this release of the service knows (${known}): a newer release wrote it. ` +
        'Run that release again (upgrade the service), or restore a backup of the file made before the upgrade',
    );
    return true;
  });
}

test('a database from a newer release is refused, named with both versions and what to do, and left as it was', () => {
  const path = newFile();
  open(path, steps([])).close();
  const ran: number[] = [];
  assertRefusedAsNewer(() => open(path, steps(ran).slice(0, 1)), path, 3, 1);
  assert.deepEqual(ran, []);
  const db = new Database(path, { readonly: true });
  assert.equal(userVersion(db), 3);
  db.close();
});

/** A newer release's steps 4 and 5 after `steps`: 4 only adds a table, so the release at 3 still reads it; 5 as `fifth` says. */
function newerSteps(fifth: Partial<Migration> | null): Migration[] {
  const fourth: Migration = { version: 4, name: 'opening notes', readableBy: 3, up: (db) => db.exec('CREATE TABLE notes (place INTEGER NOT NULL, note TEXT NOT NULL)') };
  return [...steps([]), fourth, ...(fifth === null ? [] : [{ version: 5, name: 'place codes', up: (db: Database.Database) => db.exec("ALTER TABLE places ADD COLUMN code TEXT NOT NULL DEFAULT ''"), ...fifth }])];
}

const readers = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'layout_readers'").get() === undefined ? null : db.prepare('SELECT oldest FROM layout_readers').pluck().all();
    return { version: userVersion(db), table };
  } finally {
    db.close();
  }
};

test('a newer release\'s step that only adds (readableBy) leaves the file readable by the release before: it opens as it is', () => {
  const path = newFile();
  open(path, steps([])).close();
  assert.deepEqual(readers(path), { version: 3, table: null }, 'no step marked: no record of readers, the layouts that shipped unchanged');
  open(path, newerSteps(null)).close();
  assert.deepEqual(readers(path), { version: 4, table: [3] });
  const ran: number[] = [];
  const older = open(path, steps(ran));
  assert.deepEqual(ran, [], 'the older release runs no step');
  assert.equal(userVersion(older), 4, 'and leaves the newer layout as it is');
  assert.deepEqual(older.prepare('SELECT name, kind FROM places').all(), [{ name: 'Vaduz', kind: 'town' }]);
  older.close();
  // a further step that only adds, readable by 3 as well: still read
  open(path, newerSteps({ readableBy: 3 })).close();
  assert.deepEqual(readers(path), { version: 5, table: [3] });
  open(path, steps([])).close();
});

test('a newer release\'s step that older code cannot read refuses that code, saying which release it needs', () => {
  const path = newFile();
  open(path, newerSteps({})).close();
  assert.deepEqual(readers(path), { version: 5, table: [5] }, 'step 5 needs its own release');
  assertRefusedAsNewer(() => open(path, steps([])), path, 5, 3);
  // readable by 4, not by 3: the release at 3 is told the one it needs
  const partly = newFile();
  open(partly, newerSteps({ readableBy: 4 })).close();
  open(partly, newerSteps(null)).close();
  assert.throws(() => open(partly, steps([])), /it has layout version 5, newer than this release of the service knows \(3\), and needs a release that knows layout version 4 or later: a newer release wrote it\./);
  assert.throws(() => open(newFile(), newerSteps({ readableBy: 5 })), /step 5 \("place codes"\) has readableBy 5: name an earlier layout version \(0 to 4\) that still reads the layout, or leave it out/);
});

test('an empty list of steps leaves a database at version 0; one step more would be refused by it', () => {
  const path = newFile();
  const db = open(path, []);
  assert.equal(userVersion(db), 0);
  db.pragma('user_version = 1');
  db.close();
  assert.throws(() => open(path, []), NewerDatabaseError);
});

test('a list of steps with a gap is a mistake in the code, said before any step runs', () => {
  const ran: number[] = [];
  const [first, , third] = steps(ran);
  assert.throws(() => open(newFile(), [first, third]), /migration "place kinds" has version 3, expected 2/);
  assert.deepEqual(ran, []);
});

test('every database is opened durable (WAL, synchronous=FULL), waits for other writers and enforces foreign keys', () => {
  const db = open(newFile(), []);
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('synchronous', { simple: true }), 2); // FULL
  assert.equal(db.pragma('busy_timeout', { simple: true }), 5000);
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  db.close();
});

test('an owner-only database, its -wal and -shm are made readable by the owner only; a wider file is narrowed', () => {
  const mode = (file: string) => statSync(file).mode & 0o777;
  const path = newFile();
  const db = open(path, steps([]), true);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) assert.equal(mode(file), 0o600, file);
  db.close();

  const copied = newFile();
  writeFileSync(copied, '');
  chmodSync(copied, 0o644);
  open(copied, [], true).close();
  assert.equal(mode(copied), 0o600);
  assert.equal(mode(open(newFile(), []).name), 0o644 & ~process.umask(), 'other databases keep the usual mode');
});

test('a file that cannot be opened is named, with the error code of the cause kept (errors.ts reads it)', () => {
  const path = join(dir.path, 'not-a-folder');
  writeFileSync(path, '');
  const inside = join(path, 'test.db');
  assert.throws(
    () => open(inside, []),
    (error: Error) => {
      assert.match(error.message, new RegExp(`^cannot open the test database ${inside}: `));
      assert.equal(errorCode(error), errorCode(error.cause));
      assert.notEqual(errorCode(error), null);
      return true;
    },
  );
});

test('the features\' steps of one file come in the order of their global numbers, unique and without gaps', () => {
  const step = (version: number, name = `step ${version}`): Migration => ({ version, name, up: () => {} });
  const own = [step(1), step(3)];
  assert.deepEqual(collectSteps('test database', own, [step(2), step(4)]).map((s) => s.version), [1, 2, 3, 4]);
  assert.throws(() => collectSteps('test database', own, [step(2), step(3, 'a feature\'s')]), /two steps numbered 3 \("step 3" and "a feature's"\): give the newer one the next free number, 4/);
  assert.throws(() => collectSteps('test database', own), /has no step 2 \(the next is 3, "step 3"\)/);
});
