// What the accounts keep (accounts, passkeys, sessions, WebAuthn challenges, recovery links), behind one
// asynchronous interface with two implementations: the ACCOUNTS_DB file (sqlite-store.ts, synchronous
// inside) and PostgreSQL's `accounts` schema with DATABASE_URL (postgres-store.ts). Personal and secret data:
// only the server's main thread and the operator's commands reach it, never a read thread or the dump.
// Secrets are kept as SHA-256 hashes only (session tokens, WebAuthn challenges, recovery links): a copy of the
// data lets nobody sign in. Every method that changes more than one row is one transaction, committed
// before its promise resolves; the methods are the units the routes need, so no caller holds a transaction
// open across an await.
import { createHash } from 'node:crypto';
import type { DatabaseKind } from '../storage/database.js';
import type { Migration } from '../storage/migrations.js';
import type { Step } from '../storage/steps.js';
import type { Transaction } from 'kysely';

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

export interface RecoveryRow {
  account_id: string;
  expires_at: number;
}

/** A passkey to store: its name, or null for "Passkey <n>" where n counts the account's passkeys with it. */
export type NewPasskeyRow = Omit<PasskeyRow, 'last_used_at' | 'name'> & { name: string | null };

/** Times before which a session is over, by its idle and absolute end (moderators' are shorter). */
export interface SessionEnds {
  idle: number;
  absolute: number;
  moderatorIdle: number;
  moderatorAbsolute: number;
}

/**
 * The transaction a unit of the store runs in, for what other parts end inside it: null in the file (their
 * tables are on the store's connection, inside its immediate transaction), else PostgreSQL's transaction.
 */
export type AccountsTransaction = Transaction<unknown> | null;

/**
 * The credentials other parts derive from a session (connected-credentials.ts), ended in the transaction
 * that ends the sessions, written as Steps (src/storage/steps.ts) on that transaction: how many ended.
 */
export type EndConnected = (within: AccountsTransaction) => Step<number>;

/** What removePasskey did: the account has no such passkey, it is the last one (kept), or it is gone. */
export type PasskeyRemoval = 'unknown' | 'last' | 'removed';

export interface AccountsStore {
  account(id: string): Promise<AccountRow | null>;
  /** The new account with its first passkey and first session, in one transaction. */
  createAccount(account: Omit<AccountRow, 'moderator'>, passkey: NewPasskeyRow, session: SessionRow): Promise<PasskeyRow>;
  /** Deletes the account; its passkeys, sessions, challenges and recovery links go with it (ON DELETE CASCADE). */
  deleteAccount(id: string): Promise<boolean>;
  /** Grants the role, or withdraws it and ends every session of the account (a moderator session never outlives the role): how many ended. */
  setModerator(id: string, moderator: boolean): Promise<number>;
  /** The moderators, the oldest account first. */
  moderators(): Promise<AccountRow[]>;

  passkey(credentialId: string): Promise<PasskeyRow | null>;
  /** The account's passkeys, the oldest first. */
  passkeys(accountId: string): Promise<PasskeyRow[]>;
  addPasskey(passkey: NewPasskeyRow): Promise<PasskeyRow>;
  usePasskey(credentialId: string, counter: number, atMs: number): Promise<void>;
  /** Removes one of the account's passkeys unless it is its last. */
  removePasskey(credentialId: string, accountId: string): Promise<PasskeyRemoval>;

  session(tokenHash: Buffer): Promise<SessionRow | null>;
  /** Stores a new session; `replacing` (the one the browser held at sign-in) ends in the same transaction. */
  startSession(session: SessionRow, replacing: Buffer | null): Promise<void>;
  /** The account's sessions, the last used first. */
  sessionsOf(accountId: string): Promise<SessionRow[]>;
  touchSession(tokenHash: Buffer, atMs: number): Promise<void>;
  deleteSession(tokenHash: Buffer): Promise<void>;
  /** Ends every session of the account but `keep`, and what `endConnected` ends, in one transaction: how many sessions ended. */
  deleteOtherSessions(accountId: string, keep: Buffer, endConnected: EndConnected): Promise<number>;
  countOtherSessions(accountId: string, current: Buffer): Promise<number>;

  /** Stores a challenge handed out, and deletes the expired challenges and recovery links. */
  insertChallenge(challengeHash: Buffer, row: ChallengeRow, nowMs: number): Promise<void>;
  /** The challenge, deleted in the same statement: a challenge is used once whatever the outcome. */
  takeChallenge(challengeHash: Buffer): Promise<ChallengeRow | null>;

  insertRecovery(tokenHash: Buffer, accountId: string, expiresAtMs: number): Promise<void>;
  /** The account a recovery link opens, without using the link. */
  recovery(tokenHash: Buffer): Promise<RecoveryRow | null>;
  /**
   * Uses a recovery link: in one transaction takes it (null when it was used or is unknown), stores the
   * passkey it admits, ends every session of the account and what `endConnected` ends, and starts `session`.
   */
  recover(tokenHash: Buffer, passkey: NewPasskeyRow, session: SessionRow, endConnected: EndConnected): Promise<AccountRow | null>;

  /** Deletes the sessions past their ends and the challenges and recovery links past theirs: how many sessions. */
  purge(sessionEnds: SessionEnds, nowMs: number): Promise<number>;
  close(): Promise<void>;
}

/** SHA-256 of a secret: what the accounts keep of tokens, challenges and links. */
export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** The accounts database with every feature's steps (src/databases.ts makes it): personal data, owner-only. */
export function accountsDatabase(migrations: readonly Migration[]): DatabaseKind {
  return { name: 'accounts database', migrations, ownerOnly: true };
}

/** "Passkey <n>" for the n-th passkey of an account, when the person named none. */
export function passkeyName(passkey: NewPasskeyRow, count: number): string {
  return passkey.name ?? `Passkey ${count}`;
}
