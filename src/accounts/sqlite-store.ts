// The accounts in the ACCOUNTS_DB file (store.ts says what they keep): better-sqlite3, synchronous inside
// the asynchronous interface, each unit one immediate transaction, on disk before it returns (WAL,
// synchronous=FULL). The file holds the tables of the features that reference the accounts as well
// (partners, OAuth, billing, the event log and its subscriptions): they use `db` and `transaction`, so a
// change of theirs and its event-log entry commit together. Only the main thread of the server and the
// operator's commands open it; src/accounts/README.md lists what it holds and for how long.
import type Database from 'better-sqlite3';
import { runNow } from '../storage/steps.js';
import { openDatabase, type DatabaseKind } from '../storage/database.js';
import {
  passkeyName,
  type AccountRow,
  type AccountsStore,
  type ChallengeRow,
  type EndConnected,
  type NewPasskeyRow,
  type PasskeyRemoval,
  type PasskeyRow,
  type RecoveryRow,
  type SessionEnds,
  type SessionRow,
} from './store.js';

export class SqliteAccountsStore implements AccountsStore {
  readonly db: Database.Database;
  private readonly sql;

  /** `database`: ACCOUNTS_DATABASE of src/databases.ts, with every feature's steps. */
  constructor(readonly path: string, database: DatabaseKind) {
    this.db = openDatabase(path, database);
    const db = this.db;
    this.sql = {
      account: db.prepare('SELECT * FROM accounts WHERE id = ?'),
      insertAccount: db.prepare('INSERT INTO accounts (id, user_handle, display_name, email, created_at) VALUES (?, ?, ?, ?, ?)'),
      deleteAccount: db.prepare('DELETE FROM accounts WHERE id = ?'),
      setModerator: db.prepare('UPDATE accounts SET moderator = ? WHERE id = ?'),
      moderators: db.prepare('SELECT * FROM accounts WHERE moderator = 1 ORDER BY created_at'),
      passkey: db.prepare('SELECT * FROM passkeys WHERE id = ?'),
      passkeys: db.prepare('SELECT * FROM passkeys WHERE account_id = ? ORDER BY created_at, id'),
      countPasskeys: db.prepare('SELECT count(*) FROM passkeys WHERE account_id = ?').pluck(),
      insertPasskey: db.prepare('INSERT INTO passkeys (id, account_id, public_key, counter, transports, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      usePasskey: db.prepare('UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?'),
      deletePasskey: db.prepare('DELETE FROM passkeys WHERE id = ? AND account_id = ?'),
      session: db.prepare('SELECT * FROM sessions WHERE token_hash = ?'),
      insertSession: db.prepare('INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at, verified_at, device) VALUES (?, ?, ?, ?, ?, ?)'),
      sessionsOf: db.prepare('SELECT * FROM sessions WHERE account_id = ? ORDER BY last_seen_at DESC, created_at DESC'),
      touchSession: db.prepare('UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?'),
      deleteSession: db.prepare('DELETE FROM sessions WHERE token_hash = ?'),
      deleteOtherSessions: db.prepare('DELETE FROM sessions WHERE account_id = ? AND token_hash != ?'),
      deleteSessions: db.prepare('DELETE FROM sessions WHERE account_id = ?'),
      countOtherSessions: db.prepare('SELECT count(*) FROM sessions WHERE account_id = ? AND token_hash != ?').pluck(),
      insertChallenge: db.prepare('INSERT INTO challenges (challenge_hash, purpose, account_id, user_handle, expires_at) VALUES (?, ?, ?, ?, ?)'),
      takeChallenge: db.prepare('DELETE FROM challenges WHERE challenge_hash = ? RETURNING purpose, account_id, user_handle, expires_at'),
      purgeChallenges: db.prepare('DELETE FROM challenges WHERE expires_at <= ?'),
      insertRecovery: db.prepare('INSERT INTO recovery_links (token_hash, account_id, expires_at) VALUES (?, ?, ?)'),
      recovery: db.prepare('SELECT account_id, expires_at FROM recovery_links WHERE token_hash = ?'),
      takeRecovery: db.prepare('DELETE FROM recovery_links WHERE token_hash = ? RETURNING account_id, expires_at'),
      purgeRecovery: db.prepare('DELETE FROM recovery_links WHERE expires_at <= ?'),
      purgeSessions: db.prepare(
        `DELETE FROM sessions WHERE token_hash IN (
           SELECT s.token_hash FROM sessions s JOIN accounts a ON a.id = s.account_id
           WHERE s.last_seen_at <= CASE a.moderator WHEN 1 THEN @moderatorIdle ELSE @idle END
              OR s.created_at <= CASE a.moderator WHEN 1 THEN @moderatorAbsolute ELSE @absolute END)`,
      ),
    };
  }

  /** One immediate transaction over the file, for the features whose tables are in it (synchronous: no await inside). */
  transaction<T>(run: () => T): T {
    return this.db.transaction(run).immediate();
  }

  // ---- accounts ----

  async account(id: string): Promise<AccountRow | null> {
    return this.accountNow(id);
  }

  async createAccount(account: Omit<AccountRow, 'moderator'>, passkey: NewPasskeyRow, session: SessionRow): Promise<PasskeyRow> {
    return this.transaction(() => {
      this.sql.insertAccount.run(account.id, account.user_handle, account.display_name, account.email, account.created_at);
      const stored = this.insertPasskey(passkey);
      this.insertSession(session);
      return stored;
    });
  }

  async deleteAccount(id: string): Promise<boolean> {
    return this.sql.deleteAccount.run(id).changes > 0;
  }

  async setModerator(id: string, moderator: boolean): Promise<number> {
    return this.transaction(() => {
      this.sql.setModerator.run(moderator ? 1 : 0, id);
      return moderator ? 0 : this.sql.deleteSessions.run(id).changes;
    });
  }

  async moderators(): Promise<AccountRow[]> {
    return this.sql.moderators.all() as AccountRow[];
  }

  // ---- passkeys ----

  async passkey(credentialId: string): Promise<PasskeyRow | null> {
    return (this.sql.passkey.get(credentialId) as PasskeyRow | undefined) ?? null;
  }

  async passkeys(accountId: string): Promise<PasskeyRow[]> {
    return this.sql.passkeys.all(accountId) as PasskeyRow[];
  }

  async addPasskey(passkey: NewPasskeyRow): Promise<PasskeyRow> {
    return this.transaction(() => this.insertPasskey(passkey));
  }

  async usePasskey(credentialId: string, counter: number, atMs: number): Promise<void> {
    this.sql.usePasskey.run(counter, atMs, credentialId);
  }

  async removePasskey(credentialId: string, accountId: string): Promise<PasskeyRemoval> {
    return this.transaction(() => {
      const passkeys = this.sql.passkeys.all(accountId) as PasskeyRow[];
      if (!passkeys.some((p) => p.id === credentialId)) return 'unknown';
      if (passkeys.length === 1) return 'last';
      this.sql.deletePasskey.run(credentialId, accountId);
      return 'removed';
    });
  }

  // ---- sessions ----

  async session(tokenHash: Buffer): Promise<SessionRow | null> {
    return (this.sql.session.get(tokenHash) as SessionRow | undefined) ?? null;
  }

  async startSession(session: SessionRow, replacing: Buffer | null): Promise<void> {
    this.transaction(() => {
      if (replacing !== null) this.sql.deleteSession.run(replacing);
      this.insertSession(session);
    });
  }

  async sessionsOf(accountId: string): Promise<SessionRow[]> {
    return this.sql.sessionsOf.all(accountId) as SessionRow[];
  }

  async touchSession(tokenHash: Buffer, atMs: number): Promise<void> {
    this.sql.touchSession.run(atMs, tokenHash);
  }

  async deleteSession(tokenHash: Buffer): Promise<void> {
    this.sql.deleteSession.run(tokenHash);
  }

  async deleteOtherSessions(accountId: string, keep: Buffer, endConnected: EndConnected): Promise<number> {
    return this.transaction(() => {
      const ended = this.sql.deleteOtherSessions.run(accountId, keep).changes;
      runNow(endConnected(null));
      return ended;
    });
  }

  async countOtherSessions(accountId: string, current: Buffer): Promise<number> {
    return this.sql.countOtherSessions.get(accountId, current) as number;
  }

  // ---- challenges and recovery links ----

  async insertChallenge(challengeHash: Buffer, row: ChallengeRow, nowMs: number): Promise<void> {
    this.transaction(() => {
      this.purgeExpired(nowMs);
      this.sql.insertChallenge.run(challengeHash, row.purpose, row.account_id, row.user_handle, row.expires_at);
    });
  }

  async takeChallenge(challengeHash: Buffer): Promise<ChallengeRow | null> {
    return (this.sql.takeChallenge.get(challengeHash) as ChallengeRow | undefined) ?? null;
  }

  async insertRecovery(tokenHash: Buffer, accountId: string, expiresAtMs: number): Promise<void> {
    this.sql.insertRecovery.run(tokenHash, accountId, expiresAtMs);
  }

  async recovery(tokenHash: Buffer): Promise<RecoveryRow | null> {
    return (this.sql.recovery.get(tokenHash) as RecoveryRow | undefined) ?? null;
  }

  async recover(tokenHash: Buffer, passkey: NewPasskeyRow, session: SessionRow, endConnected: EndConnected): Promise<AccountRow | null> {
    return this.transaction(() => {
      const link = this.sql.takeRecovery.get(tokenHash) as RecoveryRow | undefined;
      const account = link === undefined ? null : this.accountNow(link.account_id);
      if (account === null) return null;
      this.insertPasskey(passkey);
      this.sql.deleteSessions.run(account.id);
      runNow(endConnected(null));
      this.insertSession(session);
      return account;
    });
  }

  async purge(ends: SessionEnds, nowMs: number): Promise<number> {
    return this.transaction(() => {
      this.purgeExpired(nowMs);
      return this.sql.purgeSessions.run(ends).changes;
    });
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private accountNow(id: string): AccountRow | null {
    return (this.sql.account.get(id) as AccountRow | undefined) ?? null;
  }

  private insertPasskey(passkey: NewPasskeyRow): PasskeyRow {
    const row = { ...passkey, name: passkeyName(passkey, (this.sql.countPasskeys.get(passkey.account_id) as number) + 1), last_used_at: null };
    this.sql.insertPasskey.run(row.id, row.account_id, row.public_key, row.counter, row.transports, row.name, row.created_at);
    return row;
  }

  private insertSession(s: SessionRow): void {
    this.sql.insertSession.run(s.token_hash, s.account_id, s.created_at, s.last_seen_at, s.verified_at, s.device);
  }

  private purgeExpired(nowMs: number): void {
    this.sql.purgeChallenges.run(nowMs);
    this.sql.purgeRecovery.run(nowMs);
  }
}
