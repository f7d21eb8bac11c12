// The account event log (src/accounts/event-log.ts) over a real accounts database: appended only inside
// the transaction of the change it reports (a rolled-back change leaves no entry), ordered by a seq that
// is never used twice (not even after the newest entries were purged), read after a seq with a limit and
// filtered by account, listing or toilet, stamped by the injected clock, and purged after 30 days.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AccountsStore } from '../../src/accounts/store.js';
import { ACCOUNTS_DATABASE } from '../../src/databases.js';
import { ACCOUNT_EVENT_RETENTION_MS, AccountEventLog } from '../../src/accounts/event-log.js';
import { tempDir } from '../support/extracts.js';

const dir = tempDir('toilet-event-log');
after(() => dir.remove());

test('entries are durable, ordered, filtered and purged', () => {
  const store = new AccountsStore(join(dir.path, 'accounts.db'), ACCOUNTS_DATABASE);
  let nowMs = Date.parse('2024-06-05T08:00:00Z');
  const log = new AccountEventLog(store.db, () => nowMs);
  try {
    for (const id of ['acc_000000000000000000000001', 'acc_000000000000000000000002']) store.insertAccount({ id, user_handle: Buffer.from(id), display_name: id, email: null, created_at: 0 });
    const [ada, bob] = ['acc_000000000000000000000001', 'acc_000000000000000000000002'];
    assert.throws(() => log.append({ account: ada, type: 'partner.profile.updated', listing: 'pl_a', toilet: 'n1', data: {} }), /inside the transaction/);
    assert.throws(
      () =>
        store.transaction(() => {
          log.append({ account: ada, type: 'partner.profile.updated', listing: 'pl_a', toilet: 'n1', data: {} });
          throw new Error('the change failed');
        }),
      /the change failed/,
    );
    assert.equal(log.lastSeq(), 0, 'a rolled-back change leaves no entry');

    const seqs = store.transaction(() => [
      log.append({ account: ada, type: 'partner.claim.status_changed', listing: 'pl_a', toilet: 'n1', data: { claim_id: 'clm_a', old_status: null, new_status: 'pending' } }),
      log.append({ account: bob, type: 'partner.claim.status_changed', listing: 'pl_b', toilet: 'n2', data: { claim_id: 'clm_b', old_status: null, new_status: 'pending' } }),
    ]);
    nowMs += 1000;
    const third = store.transaction(() => log.append({ account: ada, type: 'partner.profile.updated', listing: 'pl_a', toilet: 'n1', data: { changed: ['open_now'] } }));
    assert.deepEqual([...seqs, third], [1, 2, 3]);

    const all = log.read({ after: 0, limit: 10 });
    assert.deepEqual(all.map((e) => e.seq), [1, 2, 3]);
    assert.deepEqual(all[0], { seq: 1, account_id: ada, type: 'partner.claim.status_changed', listing_id: 'pl_a', toilet_id: 'n1', data: { claim_id: 'clm_a', old_status: null, new_status: 'pending' }, created_at: nowMs - 1000 });
    assert.deepEqual(log.read({ after: 1, limit: 1 }).map((e) => e.seq), [2], 'after a seq, at most limit');
    assert.deepEqual(log.read({ after: 0, limit: 10, account: ada }).map((e) => e.seq), [1, 3]);
    assert.deepEqual(log.read({ after: 0, limit: 10, toilet: 'n2' }).map((e) => e.seq), [2]);
    assert.deepEqual(log.read({ after: 0, limit: 10, listing: 'pl_a', account: ada }).map((e) => e.seq), [1, 3]);
    assert.throws(() => log.read({ after: 0, limit: 0 }), RangeError);

    nowMs += ACCOUNT_EVENT_RETENTION_MS;
    assert.equal(log.purge(nowMs), 2, 'the two entries older than 30 days go');
    nowMs += 1000;
    assert.equal(log.purge(nowMs), 1);
    const next = store.transaction(() => log.append({ account: bob, type: 'partner.profile.updated', listing: 'pl_b', toilet: 'n2', data: {} }));
    assert.equal(next, 4, 'a purged seq is never given again: a reader after 3 sees the new entry');
    assert.deepEqual(log.read({ after: 3, limit: 10 }).map((e) => e.seq), [4]);
  } finally {
    store.close();
  }
});
