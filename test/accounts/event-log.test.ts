// The account event log (src/accounts/event-log.ts) in both of its implementations, the same checks for each:
// the ACCOUNTS_DB file and PostgreSQL's accounts schema (a cluster of the test's own). Appended only inside
// the transaction of the change it reports (a rolled-back change leaves no entry), ordered by a seq that
// is never used twice (not even after the newest entries were purged), read after a seq with a limit and
// filtered by account, listing or toilet, stamped by the injected clock, and purged after 30 days.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-store.js';
import { PostgresAccountEventLog } from '../../src/accounts/event-log-postgres.js';
import type { AccountsTables, EventLogTables } from '../../src/accounts/postgres-tables.js';
import type { AccountsStore } from '../../src/accounts/store.js';
import { ACCOUNTS_DATABASE, POSTGRES_SCHEMAS } from '../../src/databases.js';
import { ACCOUNT_EVENT_RETENTION_MS, SqliteAccountEventLog, type AccountEventLog, type NewAccountEvent } from '../../src/accounts/event-log.js';
import { PostgresDatabase } from '../../src/storage/postgres.js';
import { postgresUrl } from '../../src/config-values.js';
import { tempDir } from '../support/extracts.js';
import { fileCluster, noPostgres } from '../support/postgres.js';

const dir = tempDir('toilet-event-log');
after(() => dir.remove());
const postgres = fileCluster();

/** A log over a fresh place, the accounts' store beside it, and a way to append inside a transaction of the place. */
interface Place {
  accounts: AccountsStore;
  log: AccountEventLog;
  /** Runs `run` in one transaction of the place: its appends, then the rest of `run`; rejects with what `run` threw. */
  inTransaction<T>(events: readonly NewAccountEvent[], then?: () => T): Promise<number[]>;
  close(): Promise<void>;
}

const IMPLEMENTATIONS: { name: string; skip: string | false; open(now: () => number): Promise<Place> }[] = [
  {
    name: 'the ACCOUNTS_DB file',
    skip: false,
    open: async (now) => {
      const store = new SqliteAccountsStore(join(dir.path, `accounts-${Math.random().toString(16).slice(2)}.db`), ACCOUNTS_DATABASE);
      const log = new SqliteAccountEventLog(store.db, now);
      assert.throws(() => log.append({ account: 'acc_x', type: 'partner.profile.updated', listing: null, toilet: null, data: {} }), /inside the transaction/);
      return {
        accounts: store,
        log,
        inTransaction: async (events, then) => store.transaction(() => {
          const seqs = events.map((event) => log.append(event));
          then?.();
          return seqs;
        }),
        close: () => store.close(),
      };
    },
  },
  {
    name: 'PostgreSQL (accounts.account_events)',
    skip: noPostgres,
    open: async (now) => {
      const database = await PostgresDatabase.open(postgresUrl(postgres.cluster.database(`log_${Math.random().toString(16).slice(2)}`))!, POSTGRES_SCHEMAS, () => {});
      const schema = database.schema<AccountsTables & EventLogTables>('accounts');
      const log = new PostgresAccountEventLog(schema as unknown as Kysely<EventLogTables>, now);
      return {
        accounts: new PostgresAccountsStore(schema),
        log,
        inTransaction: (events, then) =>
          schema.transaction().execute(async (tx) => {
            const seqs: number[] = [];
            for (const event of events) seqs.push(await log.append(tx as never, event));
            then?.();
            return seqs;
          }),
        close: () => database.close(),
      };
    },
  },
];

for (const implementation of IMPLEMENTATIONS) {
  describe(implementation.name, { skip: implementation.skip }, () => {
    test('entries are durable, ordered, filtered and purged', async () => {
  let nowMs = Date.parse('2024-06-05T08:00:00Z');
  const place = await implementation.open(() => nowMs);
  const { log } = place;
  try {
    for (const id of ['acc_000000000000000000000001', 'acc_000000000000000000000002']) {
      await place.accounts.createAccount({ id, user_handle: Buffer.from(id), display_name: id, email: null, created_at: 0 }, { id: `cred-${id}`, account_id: id, public_key: Buffer.alloc(8), counter: 0, transports: '[]', name: null, created_at: 0 }, { token_hash: Buffer.from(id), account_id: id, created_at: 0, last_seen_at: 0, verified_at: 0, device: null });
    }
    const [ada, bob] = ['acc_000000000000000000000001', 'acc_000000000000000000000002'];
    await assert.rejects(
      place.inTransaction([{ account: ada, type: 'partner.profile.updated', listing: 'pl_a', toilet: 'n1', data: {} }], () => {
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    assert.equal(await log.lastSeq(), 0, 'a rolled-back change leaves no entry');

    const seqs = await place.inTransaction([
      { account: ada, type: 'partner.claim.status_changed', listing: 'pl_a', toilet: 'n1', data: { claim_id: 'clm_a', old_status: null, new_status: 'pending' } },
      { account: bob, type: 'partner.claim.status_changed', listing: 'pl_b', toilet: 'n2', data: { claim_id: 'clm_b', old_status: null, new_status: 'pending' } },
    ]);
    nowMs += 1000;
    const [third] = await place.inTransaction([{ account: ada, type: 'partner.profile.updated', listing: 'pl_a', toilet: 'n1', data: { changed: ['open_now'] } }]);
    const first = seqs[0];
    assert.deepEqual([...seqs, third].map((seq) => seq - first), [0, 1, 2], 'in order, one apart (PostgreSQL: after the seq the rolled-back change used)');

    const [s1, s2, s3] = [first, first + 1, first + 2];
    const all = await log.read({ after: 0, limit: 10 });
    assert.deepEqual(all.map((e) => e.seq), [s1, s2, s3]);
    assert.deepEqual(all[0], { seq: s1, account_id: ada, type: 'partner.claim.status_changed', listing_id: 'pl_a', toilet_id: 'n1', data: { claim_id: 'clm_a', old_status: null, new_status: 'pending' }, created_at: nowMs - 1000 });
    assert.deepEqual((await log.read({ after: s1, limit: 1 })).map((e) => e.seq), [s2], 'after a seq, at most limit');
    assert.deepEqual((await log.read({ after: 0, limit: 10, account: ada })).map((e) => e.seq), [s1, s3]);
    assert.deepEqual((await log.read({ after: 0, limit: 10, toilet: 'n2' })).map((e) => e.seq), [s2]);
    assert.deepEqual((await log.read({ after: 0, limit: 10, listing: 'pl_a', account: ada })).map((e) => e.seq), [s1, s3]);
    await assert.rejects(log.read({ after: 0, limit: 0 }), RangeError);

    nowMs += ACCOUNT_EVENT_RETENTION_MS;
    assert.equal(await log.purge(nowMs), 2, 'the two entries older than 30 days go');
    nowMs += 1000;
    assert.equal(await log.purge(nowMs), 1);
    const [next] = await place.inTransaction([{ account: bob, type: 'partner.profile.updated', listing: 'pl_b', toilet: 'n2', data: {} }]);
    assert.equal(next, s3 + 1, 'a purged seq is never given again: a reader after the last sees the new entry');
    assert.deepEqual((await log.read({ after: s3, limit: 10 })).map((e) => e.seq), [next]);
    assert.equal(await log.lastSeq(), next);
    await place.accounts.deleteAccount(bob);
    assert.deepEqual(await log.read({ after: 0, limit: 10 }), [], 'entries go with their account');
  } finally {
    await place.close();
  }
});
  });
}
