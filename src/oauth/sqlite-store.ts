// The OAuth rows in the accounts SQLite file (ACCOUNTS_DB), on the accounts store's connection: a
// transaction's work runs synchronously inside one immediate better-sqlite3 transaction
// (src/storage/steps.ts), so nothing else runs between a read and the write that depends on it.
import type Database from 'better-sqlite3';
import { answered, runNow, type Step } from '../storage/steps.js';
import type { AccountsTransaction } from '../accounts/store.js';
import type { AccessRow, ClientRow, CodeRow, ConnectionRow, ConsentRow, GrantRow, OAuthStore, OAuthTables, RefreshRow } from './store.js';

export class SqliteOAuthStore implements OAuthStore {
  readonly tables: SqliteOAuthTables;

  constructor(private readonly db: Database.Database) {
    this.tables = new SqliteOAuthTables(db);
  }

  /** The file's tables: the accounts' transaction runs on the same connection. */
  tablesIn(within: AccountsTransaction): OAuthTables {
    if (within !== null) throw new Error('the OAuth tables in the file cannot join a PostgreSQL transaction of the accounts');
    return this.tables;
  }

  async transaction<T>(work: (tables: OAuthTables) => Step<T>): Promise<T> {
    return this.db.transaction(() => runNow(work(this.tables))).immediate();
  }

  async read<T>(work: (tables: OAuthTables) => Step<T>): Promise<T> {
    return this.db.transaction(() => runNow(work(this.tables))).deferred();
  }
}

/** The statements; each query answers at once (a Step that never yields). */
export class SqliteOAuthTables implements OAuthTables {
  private readonly sql;

  constructor(db: Database.Database) {
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

  client(id: string): Step<ClientRow | null> {
    return answered((this.sql.client.get(id) as ClientRow | undefined) ?? null);
  }

  insertClient(row: ClientRow): Step<void> {
    return answered(void this.sql.insertClient.run(row));
  }

  refreshDocument(row: Pick<ClientRow, 'id' | 'name' | 'redirect_uris' | 'metadata' | 'document_expires_at'>): Step<void> {
    return answered(void this.sql.refreshDocument.run(row));
  }

  markAuthorized(clientId: string, atMs: number): Step<void> {
    return answered(void this.sql.markAuthorized.run(atMs, clientId));
  }

  boundUnauthorized(registeredBeforeMs: number, max: number): Step<void> {
    this.sql.purgeUnauthorized.run(registeredBeforeMs);
    return answered(void this.sql.evictUnauthorized.run(max));
  }

  insertConsent(tokenHash: Buffer, row: ConsentRow): Step<void> {
    return answered(void this.sql.insertConsent.run({ token_hash: tokenHash, ...row }));
  }

  takeConsent(tokenHash: Buffer): Step<ConsentRow | null> {
    return answered((this.sql.takeConsent.get(tokenHash) as ConsentRow | undefined) ?? null);
  }

  insertCode(codeHash: Buffer, row: Omit<CodeRow, 'grant_id'>): Step<void> {
    return answered(void this.sql.insertCode.run({ code_hash: codeHash, ...row }));
  }

  code(codeHash: Buffer): Step<CodeRow | null> {
    return answered((this.sql.code.get(codeHash) as CodeRow | undefined) ?? null);
  }

  redeemCode(codeHash: Buffer, grantId: string): Step<boolean> {
    return answered(this.sql.redeemCode.run(grantId, codeHash).changes > 0);
  }

  grant(id: string): Step<GrantRow | null> {
    return answered((this.sql.grant.get(id) as GrantRow | undefined) ?? null);
  }

  insertGrant(row: GrantRow): Step<void> {
    return answered(void this.sql.insertGrant.run(row));
  }

  deleteGrant(id: string): Step<boolean> {
    return answered(this.sql.deleteGrant.run(id).changes > 0);
  }

  touchGrant(id: string, atMs: number): Step<void> {
    return answered(void this.sql.touchGrant.run(atMs, id));
  }

  grantIdsOf(accountId: string): Step<string[]> {
    return answered(this.sql.grantsOf.all(accountId) as string[]);
  }

  connections(accountId: string): Step<ConnectionRow[]> {
    return answered(this.sql.connections.all(accountId) as ConnectionRow[]);
  }

  insertAccess(tokenHash: Buffer, grantId: string, expiresAtMs: number): Step<void> {
    return answered(void this.sql.insertAccess.run(tokenHash, grantId, expiresAtMs));
  }

  access(tokenHash: Buffer): Step<AccessRow | null> {
    return answered((this.sql.access.get(tokenHash) as AccessRow | undefined) ?? null);
  }

  deleteAccess(tokenHash: Buffer): Step<boolean> {
    return answered(this.sql.deleteAccess.run(tokenHash).changes > 0);
  }

  insertRefresh(tokenHash: Buffer, grantId: string, issuedAtMs: number): Step<void> {
    return answered(void this.sql.insertRefresh.run(tokenHash, grantId, issuedAtMs));
  }

  refresh(tokenHash: Buffer): Step<RefreshRow | null> {
    return answered((this.sql.refresh.get(tokenHash) as RefreshRow | undefined) ?? null);
  }

  rotateRefresh(tokenHash: Buffer, atMs: number): Step<boolean> {
    return answered(this.sql.rotateRefresh.run(atMs, tokenHash).changes > 0);
  }

  purge(nowMs: number, ends: { absoluteMs: number; idleMs: number; unauthorizedClientMs: number }): Step<void> {
    this.sql.purgeCodes.run(nowMs);
    this.sql.purgeConsents.run(nowMs);
    this.sql.purgeAccess.run(nowMs);
    this.sql.purgeGrants.run(nowMs - ends.absoluteMs, nowMs - ends.idleMs);
    this.sql.purgeUnauthorized.run(nowMs - ends.unauthorizedClientMs);
    return answered(void this.sql.purgeClients.run(nowMs - ends.absoluteMs));
  }
}
