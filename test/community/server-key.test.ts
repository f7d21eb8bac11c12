// The server key's store (src/community/server-key.ts) in both of its implementations, the same checks for
// each: the SQLite install's key file and the row in PostgreSQL's accounts schema (a cluster of the test's
// own). Made once on first use, the same for every process that uses the same place, never replaced; and
// kept where only the service reads it. An install that moves to DATABASE_URL brings its key file's key along.
import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FileServerKey, PostgresServerKey, type ServerKeyStore, type ServerKeyTables } from '../../src/community/server-key.js';
import { PostgresDatabase } from '../../src/storage/postgres.js';
import { POSTGRES_SCHEMAS } from '../../src/databases.js';
import { postgresUrl } from '../../src/config-values.js';
import { openStorage } from '../../src/stores.js';
import { loadConfig } from '../../src/config.js';
import { tempDir } from '../api/support.js';
import { fileCluster, noPostgres, postgresPlace } from '../support/postgres.js';

/** One place a key is kept, and a way to open a store over it as another process would. */
interface Place {
  open(): Promise<ServerKeyStore>;
  close(): Promise<void>;
}

interface Implementation {
  name: string;
  skip: string | false;
  place(): Promise<Place>;
}

const postgres = fileCluster();
let databases = 0;
const dir = tempDir('toilet-server-key');
after(() => dir.remove());

const IMPLEMENTATIONS: Implementation[] = [
  {
    name: 'the key file ($OVERLAY_DB.key)',
    skip: false,
    place: async () => {
      const path = join(dir.path, `overlay-${++databases}.db.key`);
      return { open: async () => new FileServerKey(path), close: async () => {} };
    },
  },
  {
    name: 'PostgreSQL (accounts.server_key)',
    skip: noPostgres,
    place: async () => postgresPlace(postgres.cluster, `key_${++databases}`, (database) => new PostgresServerKey(database.schema<ServerKeyTables>('accounts'))),
  },
];

for (const implementation of IMPLEMENTATIONS) {
  describe(implementation.name, { skip: implementation.skip }, () => {
    test('the first use makes 32 random bytes; every later use, by any process, reads the same', async () => {
      const place = await implementation.place();
      try {
        const first = await (await place.open()).key();
        assert.equal(first.length, 32);
        const other = await place.open(); // another process over the same place
        assert.deepEqual(await other.key(), first);
        assert.deepEqual(await other.key(), first);
        const elsewhere = await implementation.place();
        assert.notDeepEqual(await (await elsewhere.open()).key(), first, 'another install has a key of its own');
        await elsewhere.close();
      } finally {
        await place.close();
      }
    });

    test('processes making the key at the same moment all end with one key', async () => {
      const place = await implementation.place();
      try {
        const stores = await Promise.all([1, 2, 3, 4].map(() => place.open()));
        const keys = await Promise.all(stores.map((store) => store.key()));
        for (const key of keys) assert.deepEqual(key, keys[0]);
      } finally {
        await place.close();
      }
    });
  });
}

test('the key file is the owner\'s only, and a short one is refused with what to do', async () => {
  const path = join(dir.path, 'owner.db.key');
  await new FileServerKey(path).key();
  assert.equal(statSync(path).mode & 0o777, 0o600);
  const short = join(dir.path, 'short.db.key');
  writeFileSync(short, Buffer.alloc(8));
  await assert.rejects(new FileServerKey(short).key(), new RegExp(`^Error: ${short} holds 8 bytes; the server key needs 32 \\(delete the file to make a new one\\)$`));
});

test('PostgreSQL keeps one key of 32 bytes: a second row or a short key is refused by the table', { skip: noPostgres }, async () => {
  const url = postgres.cluster.database('key_rules');
  const database = await PostgresDatabase.open(postgresUrl(url)!, POSTGRES_SCHEMAS, () => {});
  try {
    await new PostgresServerKey(database.schema<ServerKeyTables>('accounts')).key();
    assert.throws(() => postgres.cluster.psql("INSERT INTO accounts.server_key (id, key) VALUES (2, decode(repeat('00', 32), 'hex'))", url), /server_key_id_check/);
    assert.throws(() => postgres.cluster.psql("UPDATE accounts.server_key SET key = decode('00', 'hex')", url), /server_key_key_check/);
  } finally {
    await database.close();
  }
});

test('an install moving to DATABASE_URL keeps the key of its key file; a replica whose file differs is told, in a line without the key', { skip: noPostgres }, async () => {
  const url = postgres.cluster.database('key_move');
  const lines: string[] = [];
  const log = { info() {}, error: (message: string) => void lines.push(message) };
  const install = (name: string, key: Buffer) => {
    const overlayDb = join(dir.path, name, 'overlay.db');
    mkdirSync(dirname(overlayDb));
    writeFileSync(`${overlayDb}.key`, key, { mode: 0o600 }); // the key this install had
    return loadConfig({ TOILETS_DB: join(dir.path, name, 'toilets.db'), OVERLAY_DB: overlayDb, DATABASE_URL: url });
  };
  const [moved, other] = [Buffer.alloc(32, 7), Buffer.alloc(32, 9)];
  const first = await openStorage(install('moved', moved), log);
  assert.deepEqual(first.serverKey, moved);
  assert.equal(lines.length, 0);
  const second = await openStorage(install('other', other), log);
  assert.deepEqual(second.serverKey, moved, 'the key PostgreSQL holds is everyone\'s');
  assert.equal(lines.length, 1);
  assert.match(lines[0], /other\/overlay\.db\.key holds another server key than PostgreSQL's, which another replica put there first/);
  assert.ok(!lines[0].includes(other.toString('hex')) && !lines[0].includes(moved.toString('hex')));
  await Promise.all([first.close(), second.close()]);
});
