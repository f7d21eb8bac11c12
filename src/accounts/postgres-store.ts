// The accounts in PostgreSQL's `accounts` schema (DATABASE_URL; tables: postgres-tables.ts), with Kysely over
// the process's one pool (src/storage/postgres.ts). Each unit of store.ts is one transaction. Where a check
// and a write must not interleave with another replica's (the last passkey, the n of "Passkey n"), the
// transaction first locks the account's row, as the file's immediate transactions exclude each other.
import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  passkeyName,
  type AccountRow,
  type AccountsStore,
  type ChallengePurpose,
  type ChallengeRow,
  type EndConnected,
  type NewPasskeyRow,
  type PasskeyRemoval,
  type PasskeyRow,
  type RecoveryRow,
  type SessionEnds,
  type SessionRow,
} from './store.js';
import type { AccountsTables } from './postgres-tables.js';
import { runSteps } from '../storage/postgres-steps.js';

type Db = Kysely<AccountsTables> | Transaction<AccountsTables>;

export class PostgresAccountsStore implements AccountsStore {
  /** `db`: the accounts schema (PostgresDatabase.schema('accounts')); closing the pool is its owner's. */
  constructor(private readonly db: Kysely<AccountsTables>) {}

  async account(id: string): Promise<AccountRow | null> {
    return accountOf(await this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst());
  }

  async createAccount(account: Omit<AccountRow, 'moderator'>, passkey: NewPasskeyRow, session: SessionRow): Promise<PasskeyRow> {
    return this.db.transaction().execute(async (tx) => {
      await tx.insertInto('accounts').values(account).execute();
      const stored = await insertPasskey(tx, passkey);
      await tx.insertInto('sessions').values(session).execute();
      return stored;
    });
  }

  async deleteAccount(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('accounts').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async setModerator(id: string, moderator: boolean): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      await tx.updateTable('accounts').set({ moderator }).where('id', '=', id).execute();
      if (moderator) return 0;
      return Number((await tx.deleteFrom('sessions').where('account_id', '=', id).executeTakeFirst()).numDeletedRows);
    });
  }

  async moderators(): Promise<AccountRow[]> {
    const rows = await this.db.selectFrom('accounts').selectAll().where('moderator', '=', true).orderBy('created_at').execute();
    return rows.map((row) => accountOf(row)!);
  }

  async passkey(credentialId: string): Promise<PasskeyRow | null> {
    const row = await this.db.selectFrom('passkeys').selectAll().where('id', '=', credentialId).executeTakeFirst();
    return row === undefined ? null : passkeyOf(row);
  }

  async passkeys(accountId: string): Promise<PasskeyRow[]> {
    return passkeysOf(this.db, accountId);
  }

  async addPasskey(passkey: NewPasskeyRow): Promise<PasskeyRow> {
    return this.db.transaction().execute(async (tx) => {
      await lockAccount(tx, passkey.account_id);
      return insertPasskey(tx, passkey);
    });
  }

  async usePasskey(credentialId: string, counter: number, atMs: number): Promise<void> {
    await this.db.updateTable('passkeys').set({ counter, last_used_at: atMs }).where('id', '=', credentialId).execute();
  }

  async removePasskey(credentialId: string, accountId: string): Promise<PasskeyRemoval> {
    return this.db.transaction().execute(async (tx) => {
      await lockAccount(tx, accountId);
      const passkeys = await passkeysOf(tx, accountId);
      if (!passkeys.some((p) => p.id === credentialId)) return 'unknown';
      if (passkeys.length === 1) return 'last';
      await tx.deleteFrom('passkeys').where('id', '=', credentialId).where('account_id', '=', accountId).execute();
      return 'removed';
    });
  }

  async session(tokenHash: Buffer): Promise<SessionRow | null> {
    const row = await this.db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row === undefined ? null : sessionOf(row);
  }

  async startSession(session: SessionRow, replacing: Buffer | null): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      if (replacing !== null) await tx.deleteFrom('sessions').where('token_hash', '=', replacing).execute();
      await tx.insertInto('sessions').values(session).execute();
    });
  }

  async sessionsOf(accountId: string): Promise<SessionRow[]> {
    const rows = await this.db.selectFrom('sessions').selectAll().where('account_id', '=', accountId).orderBy('last_seen_at', 'desc').orderBy('created_at', 'desc').execute();
    return rows.map(sessionOf);
  }

  async touchSession(tokenHash: Buffer, atMs: number): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: atMs }).where('token_hash', '=', tokenHash).execute();
  }

  async deleteSession(tokenHash: Buffer): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteOtherSessions(accountId: string, keep: Buffer, endConnected: EndConnected): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const result = await tx.deleteFrom('sessions').where('account_id', '=', accountId).where('token_hash', '!=', keep).executeTakeFirst();
      await runSteps(endConnected(tx as Transaction<unknown>)); // before the commit: when it fails, no session has ended either, and the request can be sent again
      return Number(result.numDeletedRows);
    });
  }

  async countOtherSessions(accountId: string, current: Buffer): Promise<number> {
    const row = await this.db.selectFrom('sessions').select((eb) => eb.fn.countAll<string>().as('count')).where('account_id', '=', accountId).where('token_hash', '!=', current).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async insertChallenge(challengeHash: Buffer, row: ChallengeRow, nowMs: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await purgeExpired(tx, nowMs);
      await tx.insertInto('challenges').values({ challenge_hash: challengeHash, ...row }).execute();
    });
  }

  async takeChallenge(challengeHash: Buffer): Promise<ChallengeRow | null> {
    const row = await this.db.deleteFrom('challenges').where('challenge_hash', '=', challengeHash).returning(['purpose', 'account_id', 'user_handle', 'expires_at']).executeTakeFirst();
    return row === undefined ? null : { ...row, purpose: row.purpose as ChallengePurpose, expires_at: Number(row.expires_at) };
  }

  async insertRecovery(tokenHash: Buffer, accountId: string, expiresAtMs: number): Promise<void> {
    await this.db.insertInto('recovery_links').values({ token_hash: tokenHash, account_id: accountId, expires_at: expiresAtMs }).execute();
  }

  async recovery(tokenHash: Buffer): Promise<RecoveryRow | null> {
    const row = await this.db.selectFrom('recovery_links').select(['account_id', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
    return row === undefined ? null : { account_id: row.account_id, expires_at: Number(row.expires_at) };
  }

  async recover(tokenHash: Buffer, passkey: NewPasskeyRow, session: SessionRow, endConnected: EndConnected): Promise<AccountRow | null> {
    return this.db.transaction().execute(async (tx) => {
      // one winner: a second use of the link finds nothing to delete
      const link = await tx.deleteFrom('recovery_links').where('token_hash', '=', tokenHash).returning('account_id').executeTakeFirst();
      const account = link === undefined ? null : accountOf(await tx.selectFrom('accounts').selectAll().where('id', '=', link.account_id).forUpdate().executeTakeFirst());
      if (account === null) return null;
      await insertPasskey(tx, passkey);
      await tx.deleteFrom('sessions').where('account_id', '=', account.id).execute();
      await runSteps(endConnected(tx as Transaction<unknown>));
      await tx.insertInto('sessions').values(session).execute();
      return account;
    });
  }

  async purge(ends: SessionEnds, nowMs: number): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      await purgeExpired(tx, nowMs);
      const ended = tx
        .selectFrom('sessions as s')
        .innerJoin('accounts as a', 'a.id', 's.account_id')
        .select('s.token_hash')
        .where((eb) => {
          const over = (idle: number, absolute: number) => eb.or([eb('s.last_seen_at', '<=', idle), eb('s.created_at', '<=', absolute)]);
          return eb.or([
            eb.and([eb('a.moderator', '=', true), over(ends.moderatorIdle, ends.moderatorAbsolute)]),
            eb.and([eb('a.moderator', '=', false), over(ends.idle, ends.absolute)]),
          ]);
        });
      const result = await tx.deleteFrom('sessions').where('token_hash', 'in', ended).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** The pool is the process's (src/stores.ts closes it with the app). */
  async close(): Promise<void> {}
}

/** Holds the account's row until the transaction ends: the other replicas' changes to its passkeys wait. */
async function lockAccount(tx: Transaction<AccountsTables>, accountId: string): Promise<void> {
  await tx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

async function passkeysOf(db: Db, accountId: string): Promise<PasskeyRow[]> {
  const rows = await db.selectFrom('passkeys').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  return rows.map(passkeyOf);
}

async function insertPasskey(tx: Transaction<AccountsTables>, passkey: NewPasskeyRow): Promise<PasskeyRow> {
  const { count } = await tx.selectFrom('passkeys').select((eb) => eb.fn.countAll<string>().as('count')).where('account_id', '=', passkey.account_id).executeTakeFirstOrThrow();
  const row: PasskeyRow = { ...passkey, name: passkeyName(passkey, Number(count) + 1), last_used_at: null };
  await tx.insertInto('passkeys').values(row).execute();
  return row;
}

async function purgeExpired(tx: Transaction<AccountsTables>, nowMs: number): Promise<void> {
  await tx.deleteFrom('challenges').where('expires_at', '<=', nowMs).execute();
  await tx.deleteFrom('recovery_links').where('expires_at', '<=', nowMs).execute();
}

function accountOf(row: Selectable<AccountsTables['accounts']> | undefined): AccountRow | null {
  if (row === undefined) return null;
  return { ...row, moderator: row.moderator ? 1 : 0, created_at: Number(row.created_at) };
}

function passkeyOf(row: Selectable<AccountsTables['passkeys']>): PasskeyRow {
  return { ...row, counter: Number(row.counter), created_at: Number(row.created_at), last_used_at: row.last_used_at === null ? null : Number(row.last_used_at) };
}

function sessionOf(row: Selectable<AccountsTables['sessions']>): SessionRow {
  return { ...row, created_at: Number(row.created_at), last_seen_at: Number(row.last_seen_at), verified_at: Number(row.verified_at) };
}
