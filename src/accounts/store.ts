// The accounts database (ACCOUNTS_DB): personal and secret data, in a file of its own so that nothing
// that reads or publishes the open data (the read threads, `npm run dump`) ever opens it, and so that the
// operator can keep it, and its backups, readable by the service's user only. src/accounts/README.md
// lists what it holds and for how long; docs/PRIVACY.md says it to the people whose data it is.
//
// Only the main thread of the server and the operator's commands that need it open it. Secrets are kept
// as SHA-256 hashes only (session tokens, WebAuthn challenges, recovery links): a copy of the file lets
// nobody sign in. Every write is one transaction, on disk before it returns (WAL, synchronous=FULL).
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openDatabase } from '../storage/database.js';
import type { DatabaseKind } from '../storage/database.js';
import type { Migration } from '../storage/migrations.js';

export type ChallengePurpose = 'create-account' | 'add-passkey' | 'sign-in' | 'recover';

export interface AccountRow {
  id: string;
  user_handle: Buffer;
  display_name: string;
  email: string | null;
  moderator: 0 | 1;
  created_at: number;
}

export interface PasskeyRow {
  id: string;
  account_id: string;
  public_key: Buffer;
  counter: number;
  /** JSON array of AuthenticatorTransport names. */
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface SessionRow {
  token_hash: Buffer;
  account_id: string;
  created_at: number;
  last_seen_at: number;
  verified_at: number;
  /** Coarse device label (sessions.ts), null when unknown or started before labels were kept. */
  device: string | null;
}

export interface ChallengeRow {
  purpose: ChallengePurpose;
  account_id: string | null;
  user_handle: Buffer | null;
  expires_at: number;
}

/** SHA-256 of a secret: what the database keeps of tokens, challenges and links. */
export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** How the file is opened: by the server, the commands and a restore (src/backup). */
/** The accounts database with every feature's steps (src/databases.ts makes it): personal data, owner-only. */
export function accountsDatabase(migrations: readonly Migration[]): DatabaseKind {
  return { name: 'accounts database', migrations, ownerOnly: true };
}

export class AccountsStore {
  readonly db: Database.Database;
  private readonly sql;

  /** `database`: ACCOUNTS_DATABASE of src/databases.ts, with every feature's steps. */
  constructor(readonly path: string, database: DatabaseKind) {
    this.db = openDatabase(path, database);
    const db = this.db;
    this.sql = {
      account: db.prepare('SELECT * FROM accounts WHERE id = ?'),
      accountByHandle: db.prepare('SELECT * FROM accounts WHERE user_handle = ?'),
      insertAccount: db.prepare('INSERT INTO accounts (id, user_handle, display_name, email, created_at) VALUES (?, ?, ?, ?, ?)'),
      deleteAccount: db.prepare('DELETE FROM accounts WHERE id = ?'),
      setModerator: db.prepare('UPDATE accounts SET moderator = ? WHERE id = ?'),
      moderators: db.prepare('SELECT * FROM accounts WHERE moderator = 1 ORDER BY created_at'),
      passkey: db.prepare('SELECT * FROM passkeys WHERE id = ?'),
      passkeys: db.prepare('SELECT * FROM passkeys WHERE account_id = ? ORDER BY created_at, id'),
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

  transaction<T>(run: () => T): T {
    return this.db.transaction(run).immediate();
  }

  // ---- accounts ----

  account(id: string): AccountRow | null {
    return (this.sql.account.get(id) as AccountRow | undefined) ?? null;
  }

  accountByHandle(userHandle: Buffer): AccountRow | null {
    return (this.sql.accountByHandle.get(userHandle) as AccountRow | undefined) ?? null;
  }

  insertAccount(account: Omit<AccountRow, 'moderator'>): void {
    this.sql.insertAccount.run(account.id, account.user_handle, account.display_name, account.email, account.created_at);
  }

  /** Deletes the account; its passkeys, sessions, challenges and recovery links go with it (ON DELETE CASCADE). */
  deleteAccount(id: string): boolean {
    return this.sql.deleteAccount.run(id).changes > 0;
  }

  setModerator(id: string, moderator: boolean): void {
    this.sql.setModerator.run(moderator ? 1 : 0, id);
  }

  moderators(): AccountRow[] {
    return this.sql.moderators.all() as AccountRow[];
  }

  // ---- passkeys ----

  passkey(credentialId: string): PasskeyRow | null {
    return (this.sql.passkey.get(credentialId) as PasskeyRow | undefined) ?? null;
  }

  passkeys(accountId: string): PasskeyRow[] {
    return this.sql.passkeys.all(accountId) as PasskeyRow[];
  }

  insertPasskey(passkey: Omit<PasskeyRow, 'last_used_at'>): void {
    const p = passkey;
    this.sql.insertPasskey.run(p.id, p.account_id, p.public_key, p.counter, p.transports, p.name, p.created_at);
  }

  usePasskey(credentialId: string, counter: number, atMs: number): void {
    this.sql.usePasskey.run(counter, atMs, credentialId);
  }

  deletePasskey(credentialId: string, accountId: string): boolean {
    return this.sql.deletePasskey.run(credentialId, accountId).changes > 0;
  }

  // ---- sessions ----

  session(tokenHash: Buffer): SessionRow | null {
    return (this.sql.session.get(tokenHash) as SessionRow | undefined) ?? null;
  }

  insertSession(session: SessionRow): void {
    const s = session;
    this.sql.insertSession.run(s.token_hash, s.account_id, s.created_at, s.last_seen_at, s.verified_at, s.device);
  }

  /** The account's sessions, the last used first. */
  sessionsOf(accountId: string): SessionRow[] {
    return this.sql.sessionsOf.all(accountId) as SessionRow[];
  }

  touchSession(tokenHash: Buffer, atMs: number): void {
    this.sql.touchSession.run(atMs, tokenHash);
  }

  deleteSession(tokenHash: Buffer): void {
    this.sql.deleteSession.run(tokenHash);
  }

  /** Ends every session of the account but `keep`; returns how many ended. */
  deleteOtherSessions(accountId: string, keep: Buffer): number {
    return this.sql.deleteOtherSessions.run(accountId, keep).changes;
  }

  deleteSessions(accountId: string): number {
    return this.sql.deleteSessions.run(accountId).changes;
  }

  countOtherSessions(accountId: string, current: Buffer): number {
    return this.sql.countOtherSessions.get(accountId, current) as number;
  }

  /** Deletes the sessions past their idle or absolute end (each a time before which the session is over). */
  purgeSessions(before: { idle: number; absolute: number; moderatorIdle: number; moderatorAbsolute: number }): number {
    return this.sql.purgeSessions.run(before).changes;
  }

  // ---- challenges and recovery links ----

  insertChallenge(challengeHash: Buffer, row: ChallengeRow): void {
    this.sql.insertChallenge.run(challengeHash, row.purpose, row.account_id, row.user_handle, row.expires_at);
  }

  /** The challenge, deleted in the same statement: a challenge is used once whatever the outcome. */
  takeChallenge(challengeHash: Buffer): ChallengeRow | null {
    return (this.sql.takeChallenge.get(challengeHash) as ChallengeRow | undefined) ?? null;
  }

  insertRecovery(tokenHash: Buffer, accountId: string, expiresAtMs: number): void {
    this.sql.insertRecovery.run(tokenHash, accountId, expiresAtMs);
  }

  /** The account a recovery link opens, without using the link. */
  recovery(tokenHash: Buffer): { account_id: string; expires_at: number } | null {
    return (this.sql.recovery.get(tokenHash) as { account_id: string; expires_at: number } | undefined) ?? null;
  }

  takeRecovery(tokenHash: Buffer): { account_id: string; expires_at: number } | null {
    return (this.sql.takeRecovery.get(tokenHash) as { account_id: string; expires_at: number } | undefined) ?? null;
  }

  /** Deletes challenges and recovery links past their end. */
  purgeExpired(nowMs: number): void {
    this.sql.purgeChallenges.run(nowMs);
    this.sql.purgeRecovery.run(nowMs);
  }

  close(): void {
    this.db.close();
  }
}
