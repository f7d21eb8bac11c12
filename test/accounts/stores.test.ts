// The accounts' store (src/accounts/store.ts) in both of its implementations, the same checks for each: the
// ACCOUNTS_DB file and PostgreSQL's accounts schema (a cluster of the test's own). Each unit is one
// transaction (a failure inside leaves nothing of it); sign-out everywhere, recovery and deletion end every
// credential derived from what they end; a challenge and a recovery link are used once; the last passkey
// stays even when two removals race; and what one process writes another sees (two stores over one place).
import assert from 'node:assert/strict';
import { answered } from '../../src/storage/steps.js';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SqliteAccountsStore } from '../../src/accounts/sqlite-store.js';
import { PostgresAccountsStore } from '../../src/accounts/postgres-store.js';
import type { AccountsTables } from '../../src/accounts/postgres-tables.js';
import { secretHash, type AccountsStore, type NewPasskeyRow, type SessionRow } from '../../src/accounts/store.js';
import { ACCOUNTS_DATABASE } from '../../src/databases.js';
import { tempDir } from '../support/extracts.js';
import { fileCluster, noPostgres, postgresPlace } from '../support/postgres.js';

const dir = tempDir('toilet-account-stores');
after(() => dir.remove());
const postgres = fileCluster();

/** A fresh place to keep accounts; open() is one more process over it. */
interface Place {
  open(): Promise<AccountsStore>;
  close(): Promise<void>;
}

let places = 0;
const IMPLEMENTATIONS: { name: string; skip: string | false; place(): Promise<Place> }[] = [
  {
    name: 'the ACCOUNTS_DB file',
    skip: false,
    place: async () => {
      const path = join(dir.path, `accounts-${++places}.db`);
      const opened: AccountsStore[] = [];
      return {
        open: async () => {
          const store = new SqliteAccountsStore(path, ACCOUNTS_DATABASE);
          opened.push(store);
          return store;
        },
        close: async () => {
          for (const store of opened) await store.close();
        },
      };
    },
  },
  {
    name: 'PostgreSQL (the accounts schema)',
    skip: noPostgres,
    place: async () =>
      postgresPlace(postgres.cluster, `accounts_${++places}`, (database) => new PostgresAccountsStore(database.schema<AccountsTables>('accounts'))),
  },
];

const T0 = Date.parse('2024-06-05T08:00:00Z');
const HOUR = 3_600_000;
let accounts = 0;

/** An account's rows as createAccount takes them, with a passkey and a session of its own. */
function newAccount(atMs = T0) {
  const id = `acc_${(++accounts).toString(16).padStart(24, '0')}`;
  return {
    id,
    account: { id, user_handle: Buffer.from(id), display_name: `Person ${accounts}`, email: null, created_at: atMs },
    passkey: passkeyOf(id, `cred-${id}-1`, atMs),
    session: sessionOf(id, `token-${id}-1`, atMs),
  };
}

function passkeyOf(accountId: string, credentialId: string, atMs: number, name: string | null = null): NewPasskeyRow {
  return { id: credentialId, account_id: accountId, public_key: Buffer.from(`key of ${credentialId}`), counter: 0, transports: '["internal"]', name, created_at: atMs };
}

function sessionOf(accountId: string, token: string, atMs: number): SessionRow {
  return { token_hash: secretHash(token), account_id: accountId, created_at: atMs, last_seen_at: atMs, verified_at: atMs, device: 'Firefox on Android' };
}

for (const implementation of IMPLEMENTATIONS) {
  describe(implementation.name, { skip: implementation.skip }, () => {
    let place: Place;
    let store: AccountsStore;
    before(async () => {
      place = await implementation.place();
      store = await place.open();
    });
    after(() => place?.close());

    test('an account is made with its first passkey and session in one transaction; another process reads them', async () => {
      const ada = newAccount();
      const stored = await store.createAccount(ada.account, ada.passkey, ada.session);
      assert.equal(stored.name, 'Passkey 1');
      const other = await place.open();
      assert.deepEqual(await other.account(ada.id), { ...ada.account, moderator: 0 });
      assert.deepEqual(await other.session(ada.session.token_hash), ada.session);
      assert.deepEqual(await other.passkeys(ada.id), [{ ...ada.passkey, name: 'Passkey 1', last_used_at: null }]);
      assert.deepEqual(await other.passkey(ada.passkey.id), { ...ada.passkey, name: 'Passkey 1', last_used_at: null });

      const twin = newAccount();
      await assert.rejects(store.createAccount({ ...twin.account, user_handle: ada.account.user_handle }, twin.passkey, twin.session), 'a user handle is one account\'s');
      assert.equal(await store.account(twin.id), null, 'nothing of a refused account is kept');
      assert.equal(await store.passkey(twin.passkey.id), null);
      assert.equal(await store.session(twin.session.token_hash), null);
    });

    test('passkeys: "Passkey n" when unnamed, the counter and last use recorded, the last one kept', async () => {
      const bo = newAccount();
      await store.createAccount(bo.account, bo.passkey, bo.session);
      assert.equal((await store.addPasskey(passkeyOf(bo.id, `cred-${bo.id}-2`, T0 + 1))).name, 'Passkey 2');
      assert.equal((await store.addPasskey(passkeyOf(bo.id, `cred-${bo.id}-3`, T0 + 2, 'Laptop'))).name, 'Laptop');
      await store.usePasskey(bo.passkey.id, 7, T0 + HOUR);
      const used = await store.passkey(bo.passkey.id);
      assert.deepEqual([used?.counter, used?.last_used_at], [7, T0 + HOUR]);
      assert.deepEqual((await store.passkeys(bo.id)).map((p) => p.name), ['Passkey 1', 'Passkey 2', 'Laptop'], 'the oldest first');

      assert.equal(await store.removePasskey('cred-nobody', bo.id), 'unknown');
      assert.equal(await store.removePasskey(`cred-${bo.id}-3`, 'acc_000000000000000000000bad'), 'unknown', "another account's passkey is not removed");
      assert.equal(await store.removePasskey(`cred-${bo.id}-3`, bo.id), 'removed');
      const outcomes = await Promise.all([store.removePasskey(bo.passkey.id, bo.id), (await place.open()).removePasskey(`cred-${bo.id}-2`, bo.id)]);
      assert.deepEqual(outcomes.sort(), ['last', 'removed'], 'two removals at once leave one passkey');
      assert.equal((await store.passkeys(bo.id)).length, 1);
    });

    test('sessions: a sign-in replaces the one the browser held; listed last used first; touched, ended, counted', async () => {
      const cy = newAccount();
      await store.createAccount(cy.account, cy.passkey, cy.session);
      const laptop = sessionOf(cy.id, `token-${cy.id}-laptop`, T0 + HOUR);
      await store.startSession(laptop, null);
      const rotated = sessionOf(cy.id, `token-${cy.id}-2`, T0 + 2 * HOUR);
      await store.startSession(rotated, cy.session.token_hash);
      assert.equal(await store.session(cy.session.token_hash), null, 'the rotated session ended');
      assert.deepEqual((await store.sessionsOf(cy.id)).map((s) => s.token_hash), [rotated.token_hash, laptop.token_hash]);
      await store.touchSession(laptop.token_hash, T0 + 3 * HOUR);
      assert.equal((await store.session(laptop.token_hash))?.last_seen_at, T0 + 3 * HOUR);
      assert.deepEqual((await store.sessionsOf(cy.id)).map((s) => s.token_hash), [laptop.token_hash, rotated.token_hash]);
      assert.equal(await store.countOtherSessions(cy.id, laptop.token_hash), 1);
      await store.deleteSession(rotated.token_hash);
      assert.equal(await store.countOtherSessions(cy.id, laptop.token_hash), 0);
    });

    test('sign-out everywhere ends the other sessions and the connected credentials together, or neither', async () => {
      const di = newAccount();
      await store.createAccount(di.account, di.passkey, di.session);
      const others = [1, 2].map((n) => sessionOf(di.id, `token-${di.id}-other-${n}`, T0 + n));
      for (const other of others) await store.startSession(other, null);
      await assert.rejects(
        store.deleteOtherSessions(di.id, di.session.token_hash, () => {
          throw new Error('the grants could not be ended');
        }),
        /could not be ended/,
      );
      assert.equal(await store.countOtherSessions(di.id, di.session.token_hash), 2, 'nothing ended when the connected credentials could not be');
      let connectedEnded = 0;
      const ended = await store.deleteOtherSessions(di.id, di.session.token_hash, () => answered((connectedEnded = 3)));
      assert.deepEqual([ended, connectedEnded], [2, 3]);
      for (const other of others) assert.equal(await store.session(other.token_hash), null);
      assert.notEqual(await store.session(di.session.token_hash), null, 'this session stays');
    });

    test('a challenge is taken once; expired challenges and recovery links go when the next challenge is stored', async () => {
      const ed = newAccount();
      await store.createAccount(ed.account, ed.passkey, ed.session);
      const row = { purpose: 'add-passkey' as const, account_id: ed.id, user_handle: ed.account.user_handle, expires_at: T0 + 300_000 };
      await store.insertChallenge(secretHash('challenge-1'), row, T0);
      const other = await place.open();
      const taken = await Promise.all([store.takeChallenge(secretHash('challenge-1')), other.takeChallenge(secretHash('challenge-1'))]);
      assert.deepEqual(taken.filter((t) => t !== null), [row], 'one of two answers at once gets it');
      await store.insertChallenge(secretHash('challenge-2'), { ...row, expires_at: T0 + 1 }, T0);
      await store.insertRecovery(secretHash('link-old'), ed.id, T0 + 1);
      await store.insertChallenge(secretHash('challenge-3'), { purpose: 'sign-in', account_id: null, user_handle: null, expires_at: T0 + 600_000 }, T0 + 2);
      assert.equal(await store.takeChallenge(secretHash('challenge-2')), null, 'the expired challenge went');
      assert.equal(await store.recovery(secretHash('link-old')), null, 'the expired recovery link went');
      assert.equal((await store.takeChallenge(secretHash('challenge-3')))?.purpose, 'sign-in');
    });

    test('a recovery link is used once: it admits one passkey, ends every session and connected credential, starts one session', async () => {
      const fi = newAccount();
      await store.createAccount(fi.account, fi.passkey, fi.session);
      const thief = sessionOf(fi.id, `token-${fi.id}-thief`, T0 + 1);
      await store.startSession(thief, null);
      const link = secretHash(`link-${fi.id}`);
      await store.insertRecovery(link, fi.id, T0 + 15 * 60_000);
      assert.deepEqual(await store.recovery(link), { account_id: fi.id, expires_at: T0 + 15 * 60_000 }, 'read without using it');

      const fresh = sessionOf(fi.id, `token-${fi.id}-recovered`, T0 + 2);
      await assert.rejects(store.recover(link, passkeyOf(fi.id, `cred-${fi.id}-new`, T0 + 2, 'New phone'), fresh, () => {
        throw new Error('the grants could not be ended');
      }));
      assert.notEqual(await store.recovery(link), null, 'a failed recovery leaves the link unused');
      assert.equal(await store.passkey(`cred-${fi.id}-new`), null);

      let why = '';
      const recovered = await store.recover(link, passkeyOf(fi.id, `cred-${fi.id}-new`, T0 + 2, 'New phone'), fresh, () => {
        why = 'grants ended';
        return answered(1);
      });
      assert.equal(recovered?.id, fi.id);
      assert.equal(why, 'grants ended');
      assert.deepEqual((await store.sessionsOf(fi.id)).map((s) => s.token_hash), [fresh.token_hash], 'every earlier session ended, the new one started');
      assert.equal((await store.passkey(`cred-${fi.id}-new`))?.name, 'New phone');
      const again = sessionOf(fi.id, `token-${fi.id}-again`, T0 + 3);
      assert.equal(await store.recover(link, passkeyOf(fi.id, `cred-${fi.id}-again`, T0 + 3), again, () => answered(0)), null, 'a used link admits nothing');
      assert.equal(await store.passkey(`cred-${fi.id}-again`), null);
      assert.equal(await store.session(again.token_hash), null);
    });

    test('the moderator role: granted, listed, withdrawn with every session of the account', async () => {
      const gu = newAccount();
      await store.createAccount(gu.account, gu.passkey, gu.session);
      await store.startSession(sessionOf(gu.id, `token-${gu.id}-2`, T0), null);
      assert.equal(await store.setModerator(gu.id, true), 0);
      assert.equal((await store.account(gu.id))?.moderator, 1);
      assert.ok((await store.moderators()).some((m) => m.id === gu.id));
      assert.equal(await store.setModerator(gu.id, false), 2, 'its two sessions ended');
      assert.equal((await store.account(gu.id))?.moderator, 0);
      assert.equal((await store.moderators()).some((m) => m.id === gu.id), false);
    });

    test('the clean-up: sessions past their idle or absolute end (moderators\' shorter) and expired links go', async () => {
      const own = await implementation.place(); // no session of the other tests in the way
      try {
        await cleanUp(await own.open());
      } finally {
        await own.close();
      }
    });

    test('deleting an account deletes its passkeys, sessions, challenges and recovery links', async () => {
      const ha = newAccount();
      await store.createAccount(ha.account, ha.passkey, ha.session);
      await store.insertChallenge(secretHash(`challenge-${ha.id}`), { purpose: 'add-passkey', account_id: ha.id, user_handle: ha.account.user_handle, expires_at: T0 + HOUR }, T0);
      await store.insertRecovery(secretHash(`link-${ha.id}`), ha.id, T0 + HOUR);
      assert.equal(await store.deleteAccount(ha.id), true);
      assert.equal(await store.deleteAccount(ha.id), false, 'once');
      assert.equal(await store.account(ha.id), null);
      assert.equal(await store.passkey(ha.passkey.id), null);
      assert.equal(await store.session(ha.session.token_hash), null, 'no session outlives its account');
      assert.equal(await store.takeChallenge(secretHash(`challenge-${ha.id}`)), null);
      assert.equal(await store.recovery(secretHash(`link-${ha.id}`)), null);
    });
  });
}

/** The clean-up's checks, on a store of their own. */
async function cleanUp(store: AccountsStore): Promise<void> {
  const [person, moderator] = [newAccount(), newAccount()];
  for (const one of [person, moderator]) await store.createAccount(one.account, one.passkey, one.session);
  await store.setModerator(moderator.id, true);
  const fresh = sessionOf(moderator.id, `token-${moderator.id}-fresh`, T0 + 10 * HOUR);
  await store.startSession(fresh, null);
  await store.insertRecovery(secretHash(`link-${person.id}`), person.id, T0 + HOUR);
  // idle ends: a person's before T0 - 1 h, a moderator's before T0 + 5 h
  const ends = { idle: T0 - HOUR, absolute: T0 - 2 * HOUR, moderatorIdle: T0 + 5 * HOUR, moderatorAbsolute: T0 - 2 * HOUR };
  assert.equal(await store.purge(ends, T0 + 2 * HOUR), 1, "the moderator's idle session ended, not the person's");
  assert.notEqual(await store.session(person.session.token_hash), null);
  assert.equal(await store.session(moderator.session.token_hash), null);
  assert.notEqual(await store.session(fresh.token_hash), null);
  assert.equal(await store.recovery(secretHash(`link-${person.id}`)), null, 'the expired link went');
  assert.equal(await store.purge({ ...ends, absolute: T0 + 1 }, T0 + 2 * HOUR), 1, "past its absolute end, the person's session ended");
}
