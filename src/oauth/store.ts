// Where the OAuth rows are kept (layout: src/oauth/tables.ts): clients, grants, codes, tokens and pending
// consents. One asynchronous interface for every engine; the SQLite implementation is sqlite-store.ts, on
// the accounts database's connection, so a grant and its account are written in one transaction. A
// transaction's work is written once as Steps (src/storage/steps.ts): a code is checked and redeemed, a
// refresh token checked and rotated, with nothing between. Secrets arrive here already hashed (tokens.ts).
import type { Step } from '../storage/steps.js';
import type { AccountsTransaction } from '../accounts/store.js';

export interface ClientRow {
  id: string;
  name: string;
  /** JSON array of the registered redirect URIs. */
  redirect_uris: string;
  /** JSON of the registered metadata, as answered by the registration. */
  metadata: string;
  created_at: number;
  /** When a person first approved the client; null until then (it is deleted an hour after registering). */
  authorized_at: number | null;
  /** A client ID metadata document's client (id: its URL): until when the stored copy is fresh; null for a registered client. */
  document_expires_at: number | null;
}

export interface GrantRow {
  id: string;
  account_id: string;
  client_id: string;
  scope: string;
  resource: string;
  created_at: number;
  last_used_at: number;
}

/** What an authorization request asks for, once validated: a consent shown, then a code. */
export interface AuthorizationRequest {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  state: string | null;
}

export interface CodeRow extends Omit<AuthorizationRequest, 'state'> {
  account_id: string;
  expires_at: number;
  grant_id: string | null;
}

export interface ConsentRow extends AuthorizationRequest {
  session_hash: Buffer;
  expires_at: number;
}

export interface RefreshRow {
  grant_id: string;
  issued_at: number;
  rotated_at: number | null;
}

/** A live access token with its grant: what /mcp/account checks on every request. */
export interface AccessRow extends GrantRow {
  expires_at: number;
}

/** A connected client as the connections page lists it. */
export interface ConnectionRow extends GrantRow {
  client_name: string;
  client_metadata: string;
}

/** The OAuth tables inside one transaction: every query a Step, read with `yield*`. */
export interface OAuthTables {
  client(id: string): Step<ClientRow | null>;
  insertClient(row: ClientRow): Step<void>;
  /** A document client's newly fetched copy: name, redirect URIs, metadata and freshness (its grants stay). */
  refreshDocument(row: Pick<ClientRow, 'id' | 'name' | 'redirect_uris' | 'metadata' | 'document_expires_at'>): Step<void>;
  /** Records the client's first approval by a person (later ones change nothing). */
  markAuthorized(clientId: string, atMs: number): Step<void>;
  /**
   * Bounds the clients nobody authorized: deletes those registered at or before `registeredBeforeMs`, then
   * the oldest of the rest until at most `max` remain.
   */
  boundUnauthorized(registeredBeforeMs: number, max: number): Step<void>;
  insertConsent(tokenHash: Buffer, row: ConsentRow): Step<void>;
  /** The consent, deleted in the same statement: its form token is used once, whatever the outcome. */
  takeConsent(tokenHash: Buffer): Step<ConsentRow | null>;
  insertCode(codeHash: Buffer, row: Omit<CodeRow, 'grant_id'>): Step<void>;
  code(codeHash: Buffer): Step<CodeRow | null>;
  /** Marks the code redeemed for `grantId`; false when it was redeemed before. */
  redeemCode(codeHash: Buffer, grantId: string): Step<boolean>;
  grant(id: string): Step<GrantRow | null>;
  insertGrant(row: GrantRow): Step<void>;
  /** Ends the grant: its tokens and event subscriptions go with it (ON DELETE CASCADE). */
  deleteGrant(id: string): Step<boolean>;
  touchGrant(id: string, atMs: number): Step<void>;
  grantIdsOf(accountId: string): Step<string[]>;
  connections(accountId: string): Step<ConnectionRow[]>;
  insertAccess(tokenHash: Buffer, grantId: string, expiresAtMs: number): Step<void>;
  access(tokenHash: Buffer): Step<AccessRow | null>;
  deleteAccess(tokenHash: Buffer): Step<boolean>;
  insertRefresh(tokenHash: Buffer, grantId: string, issuedAtMs: number): Step<void>;
  refresh(tokenHash: Buffer): Step<RefreshRow | null>;
  /** Marks the refresh token exchanged; false when it was exchanged before (reuse). */
  rotateRefresh(tokenHash: Buffer, atMs: number): Step<boolean>;
  /**
   * Deletes what has ended: codes and consents past their end, expired access tokens, grants past their
   * absolute or idle end, clients nobody authorized within `ends.unauthorizedClientMs` of registering, and
   * authorized clients registered longer ago than a grant's absolute end that hold no grant (registration
   * is open to anyone: unused ones must not pile up).
   */
  purge(nowMs: number, ends: { absoluteMs: number; idleMs: number; unauthorizedClientMs: number }): Step<void>;
}

export interface OAuthStore {
  /**
   * The tables on the accounts' transaction `within` (AccountsStore's units that end connected credentials):
   * the grants end in it, with the sessions, in the file or in PostgreSQL.
   */
  tablesIn(within: AccountsTransaction): OAuthTables;
  /** Runs `work` as one transaction, as if nothing else ran meanwhile; what it answers, once committed. A throw rolls it back. */
  transaction<T>(work: (tables: OAuthTables) => Step<T>): Promise<T>;
  /** Runs reads that see one state of the tables (work must not write). */
  read<T>(work: (tables: OAuthTables) => Step<T>): Promise<T>;
}
