// The OAuth rows of the accounts database (layout: src/oauth/tables.ts): clients, grants, codes,
// tokens and pending consents, as prepared statements over the accounts store's connection, so a grant
// and its account are written in one transaction. Secrets arrive here already hashed (tokens.ts).
import type Database from 'better-sqlite3';

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

export class OAuthStore {
  private readonly sql;

  constructor(readonly db: Database.Database) {
    this.sql = {
      client: db.prepare('SELECT * FROM oauth_clients WHERE id = ?'),
      insertClient: db.prepare('INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at, authorized_at, document_expires_at) VALUES (@id, @name, @redirect_uris, @metadata, @created_at, @authorized_at, @document_expires_at)'),
      refreshDocument: db.prepare('UPDATE oauth_clients SET name = @name, redirect_uris = @redirect_uris, metadata = @metadata, document_expires_at = @document_expires_at WHERE id = @id AND document_expires_at IS NOT NULL'),
      markAuthorized: db.prepare('UPDATE oauth_clients SET authorized_at = ? WHERE id = ? AND authorized_at IS NULL'),
      evictUnauthorized: db.prepare(
        'DELETE FROM oauth_clients WHERE id IN (SELECT id FROM oauth_clients WHERE authorized_at IS NULL ORDER BY created_at, rowid LIMIT max(0, (SELECT count(*) FROM oauth_clients WHERE authorized_at IS NULL) - ?))',
      ),
      purgeUnauthorized: db.prepare('DELETE FROM oauth_clients WHERE authorized_at IS NULL AND created_at <= ?'),
      insertConsent: db.prepare(
        'INSERT INTO oauth_consents (token_hash, session_hash, client_id, redirect_uri, code_challenge, resource, scope, state, expires_at) VALUES (@token_hash, @session_hash, @client_id, @redirect_uri, @code_challenge, @resource, @scope, @state, @expires_at)',
      ),
      takeConsent: db.prepare('DELETE FROM oauth_consents WHERE token_hash = ? RETURNING *'),
      insertCode: db.prepare(
        'INSERT INTO oauth_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, resource, scope, expires_at) VALUES (@code_hash, @client_id, @account_id, @redirect_uri, @code_challenge, @resource, @scope, @expires_at)',
      ),
      code: db.prepare('SELECT * FROM oauth_codes WHERE code_hash = ?'),
      redeemCode: db.prepare('UPDATE oauth_codes SET grant_id = ? WHERE code_hash = ? AND grant_id IS NULL'),
      grant: db.prepare('SELECT * FROM oauth_grants WHERE id = ?'),
      insertGrant: db.prepare('INSERT INTO oauth_grants (id, account_id, client_id, scope, resource, created_at, last_used_at) VALUES (@id, @account_id, @client_id, @scope, @resource, @created_at, @last_used_at)'),
      deleteGrant: db.prepare('DELETE FROM oauth_grants WHERE id = ?'),
      touchGrant: db.prepare('UPDATE oauth_grants SET last_used_at = ? WHERE id = ?'),
      grantsOf: db.prepare('SELECT id FROM oauth_grants WHERE account_id = ?').pluck(),
      connections: db.prepare(
        'SELECT g.*, c.name AS client_name, c.metadata AS client_metadata FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id WHERE g.account_id = ? ORDER BY g.created_at, g.rowid',
      ),
      insertAccess: db.prepare('INSERT INTO oauth_access_tokens (token_hash, grant_id, expires_at) VALUES (?, ?, ?)'),
      access: db.prepare('SELECT g.*, t.expires_at FROM oauth_access_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ?'),
      deleteAccess: db.prepare('DELETE FROM oauth_access_tokens WHERE token_hash = ?'),
      insertRefresh: db.prepare('INSERT INTO oauth_refresh_tokens (token_hash, grant_id, issued_at) VALUES (?, ?, ?)'),
      refresh: db.prepare('SELECT grant_id, issued_at, rotated_at FROM oauth_refresh_tokens WHERE token_hash = ?'),
      rotateRefresh: db.prepare('UPDATE oauth_refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL'),
      purgeCodes: db.prepare('DELETE FROM oauth_codes WHERE expires_at <= ?'),
      purgeConsents: db.prepare('DELETE FROM oauth_consents WHERE expires_at <= ?'),
      purgeAccess: db.prepare('DELETE FROM oauth_access_tokens WHERE expires_at <= ?'),
      purgeGrants: db.prepare('DELETE FROM oauth_grants WHERE created_at <= ? OR last_used_at <= ?'),
      purgeClients: db.prepare('DELETE FROM oauth_clients WHERE authorized_at IS NOT NULL AND created_at <= ? AND id NOT IN (SELECT client_id FROM oauth_grants)'),
    };
  }

  transaction<T>(run: () => T): T {
    return this.db.transaction(run).immediate();
  }

  client(id: string): ClientRow | null {
    return (this.sql.client.get(id) as ClientRow | undefined) ?? null;
  }

  insertClient(row: ClientRow): void {
    this.sql.insertClient.run(row);
  }

  /** A document client's newly fetched copy: name, redirect URIs, metadata and freshness (its grants stay). */
  refreshDocument(row: Pick<ClientRow, 'id' | 'name' | 'redirect_uris' | 'metadata' | 'document_expires_at'>): void {
    this.sql.refreshDocument.run(row);
  }

  /** Records the client's first approval by a person (later ones change nothing). */
  markAuthorized(clientId: string, atMs: number): void {
    this.sql.markAuthorized.run(atMs, clientId);
  }

  /**
   * Bounds the clients nobody authorized: deletes those registered at or before `registeredBeforeMs`, then
   * the oldest of the rest until at most `max` remain.
   */
  boundUnauthorized(registeredBeforeMs: number, max: number): void {
    this.sql.purgeUnauthorized.run(registeredBeforeMs);
    this.sql.evictUnauthorized.run(max);
  }

  insertConsent(tokenHash: Buffer, row: ConsentRow): void {
    this.sql.insertConsent.run({ token_hash: tokenHash, ...row });
  }

  /** The consent, deleted in the same statement: its form token is used once, whatever the outcome. */
  takeConsent(tokenHash: Buffer): ConsentRow | null {
    return (this.sql.takeConsent.get(tokenHash) as ConsentRow | undefined) ?? null;
  }

  insertCode(codeHash: Buffer, row: Omit<CodeRow, 'grant_id'>): void {
    this.sql.insertCode.run({ code_hash: codeHash, ...row });
  }

  code(codeHash: Buffer): CodeRow | null {
    return (this.sql.code.get(codeHash) as CodeRow | undefined) ?? null;
  }

  /** Marks the code redeemed for `grantId`; false when it was redeemed before. */
  redeemCode(codeHash: Buffer, grantId: string): boolean {
    return this.sql.redeemCode.run(grantId, codeHash).changes > 0;
  }

  grant(id: string): GrantRow | null {
    return (this.sql.grant.get(id) as GrantRow | undefined) ?? null;
  }

  insertGrant(row: GrantRow): void {
    this.sql.insertGrant.run(row);
  }

  /** Ends the grant: its tokens and event subscriptions go with it (ON DELETE CASCADE). */
  deleteGrant(id: string): boolean {
    return this.sql.deleteGrant.run(id).changes > 0;
  }

  touchGrant(id: string, atMs: number): void {
    this.sql.touchGrant.run(atMs, id);
  }

  grantIdsOf(accountId: string): string[] {
    return this.sql.grantsOf.all(accountId) as string[];
  }

  connections(accountId: string): ConnectionRow[] {
    return this.sql.connections.all(accountId) as ConnectionRow[];
  }

  insertAccess(tokenHash: Buffer, grantId: string, expiresAtMs: number): void {
    this.sql.insertAccess.run(tokenHash, grantId, expiresAtMs);
  }

  access(tokenHash: Buffer): AccessRow | null {
    return (this.sql.access.get(tokenHash) as AccessRow | undefined) ?? null;
  }

  deleteAccess(tokenHash: Buffer): boolean {
    return this.sql.deleteAccess.run(tokenHash).changes > 0;
  }

  insertRefresh(tokenHash: Buffer, grantId: string, issuedAtMs: number): void {
    this.sql.insertRefresh.run(tokenHash, grantId, issuedAtMs);
  }

  refresh(tokenHash: Buffer): RefreshRow | null {
    return (this.sql.refresh.get(tokenHash) as RefreshRow | undefined) ?? null;
  }

  /** Marks the refresh token exchanged; false when it was exchanged before (reuse). */
  rotateRefresh(tokenHash: Buffer, atMs: number): boolean {
    return this.sql.rotateRefresh.run(atMs, tokenHash).changes > 0;
  }

  /**
   * Deletes what has ended: codes and consents past their end, expired access tokens, grants past their
   * absolute or idle end, clients nobody authorized within `ends.unauthorizedClientMs` of registering, and
   * authorized clients registered longer ago than a grant's absolute end that hold no grant (registration
   * is open to anyone: unused ones must not pile up).
   */
  purge(nowMs: number, ends: { absoluteMs: number; idleMs: number; unauthorizedClientMs: number }): void {
    this.sql.purgeCodes.run(nowMs);
    this.sql.purgeConsents.run(nowMs);
    this.sql.purgeAccess.run(nowMs);
    this.sql.purgeGrants.run(nowMs - ends.absoluteMs, nowMs - ends.idleMs);
    this.sql.purgeUnauthorized.run(nowMs - ends.unauthorizedClientMs);
    this.sql.purgeClients.run(nowMs - ends.absoluteMs);
  }
}
