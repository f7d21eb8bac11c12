// The OAuth rows in PostgreSQL's accounts schema (DATABASE_URL; layout: postgres-tables.ts), shared by every
// replica, so a code issued through one is redeemed through another. A transaction's Steps run in one READ
// COMMITTED transaction (src/storage/postgres-steps.ts). What the file's immediate transactions guarantee
// holds across replicas by statements that say whether they changed something: a code is redeemed once
// (UPDATE … WHERE grant_id IS NULL), a refresh token rotated once (… WHERE rotated_at IS NULL), a consent's
// form token used once (DELETE … RETURNING), a client's first approval recorded once; a client ID metadata
// document fetched by two replicas at once is kept once (INSERT … ON CONFLICT DO NOTHING: the second finds
// the first's copy).
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { changedBy, rowsOf, stepTransaction } from '../storage/postgres-steps.js';
import type { Step } from '../storage/steps.js';
import type { AccountsTransaction } from '../accounts/store.js';
import type { AccessRow, ClientRow, CodeRow, ConnectionRow, ConsentRow, GrantRow, OAuthStore, OAuthTables, RefreshRow } from './store.js';

const CLIENT = sql.raw('id, name, redirect_uris, metadata, created_at, authorized_at, document_expires_at');
const GRANT = sql.raw('g.id, g.account_id, g.client_id, g.scope, g.resource, g.created_at, g.last_used_at');

export class PostgresOAuthStore implements OAuthStore {
  /** `db`: the accounts schema's database (PostgresDatabase.schema('accounts')). */
  constructor(private readonly db: Kysely<unknown>) {}

  /** The tables on the accounts' PostgreSQL transaction (the accounts and the grants are in one schema). */
  tablesIn(within: AccountsTransaction): OAuthTables {
    if (within === null) throw new Error('the OAuth tables in PostgreSQL cannot join a transaction of the accounts file');
    return new PostgresOAuthTables(within);
  }

  transaction<T>(work: (tables: OAuthTables) => Step<T>): Promise<T> {
    return stepTransaction(this.db, 'write', (trx) => new PostgresOAuthTables(trx), work);
  }

  read<T>(work: (tables: OAuthTables) => Step<T>): Promise<T> {
    return stepTransaction(this.db, 'read', (trx) => new PostgresOAuthTables(trx), work);
  }
}

/** The statements on one transaction; each query a Step that yields its promise. */
class PostgresOAuthTables implements OAuthTables {
  constructor(private readonly trx: Transaction<unknown>) {}

  client(id: string): Step<ClientRow | null> {
    return this.first(sql`SELECT ${CLIENT} FROM accounts.oauth_clients WHERE id = ${id}`);
  }

  *insertClient(row: ClientRow): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.oauth_clients (id, name, redirect_uris, metadata, created_at, authorized_at, document_expires_at)
      VALUES (${row.id}, ${row.name}, ${row.redirect_uris}, ${row.metadata}, ${row.created_at}, ${row.authorized_at}, ${row.document_expires_at}) ON CONFLICT (id) DO NOTHING`);
  }

  *refreshDocument(row: Pick<ClientRow, 'id' | 'name' | 'redirect_uris' | 'metadata' | 'document_expires_at'>): Step<void> {
    yield* this.change(sql`UPDATE accounts.oauth_clients SET name = ${row.name}, redirect_uris = ${row.redirect_uris}, metadata = ${row.metadata}, document_expires_at = ${row.document_expires_at}
      WHERE id = ${row.id} AND document_expires_at IS NOT NULL`);
  }

  *markAuthorized(clientId: string, atMs: number): Step<void> {
    yield* this.change(sql`UPDATE accounts.oauth_clients SET authorized_at = ${atMs} WHERE id = ${clientId} AND authorized_at IS NULL`);
  }

  *boundUnauthorized(registeredBeforeMs: number, max: number): Step<void> {
    yield* this.change(sql`DELETE FROM accounts.oauth_clients WHERE authorized_at IS NULL AND created_at <= ${registeredBeforeMs}`);
    yield* this.change(sql`DELETE FROM accounts.oauth_clients WHERE id IN (SELECT id FROM accounts.oauth_clients WHERE authorized_at IS NULL ORDER BY created_at, made
      LIMIT GREATEST(0, (SELECT count(*) FROM accounts.oauth_clients WHERE authorized_at IS NULL) - ${max}))`);
  }

  *insertConsent(tokenHash: Buffer, row: ConsentRow): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.oauth_consents (token_hash, session_hash, client_id, redirect_uri, code_challenge, resource, scope, state, expires_at)
      VALUES (${tokenHash}, ${row.session_hash}, ${row.client_id}, ${row.redirect_uri}, ${row.code_challenge}, ${row.resource}, ${row.scope}, ${row.state}, ${row.expires_at})`);
  }

  takeConsent(tokenHash: Buffer): Step<ConsentRow | null> {
    return this.first(sql`DELETE FROM accounts.oauth_consents WHERE token_hash = ${tokenHash}
      RETURNING session_hash, client_id, redirect_uri, code_challenge, resource, scope, state, expires_at`);
  }

  *insertCode(codeHash: Buffer, row: Omit<CodeRow, 'grant_id'>): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.oauth_codes (code_hash, client_id, account_id, redirect_uri, code_challenge, resource, scope, expires_at)
      VALUES (${codeHash}, ${row.client_id}, ${row.account_id}, ${row.redirect_uri}, ${row.code_challenge}, ${row.resource}, ${row.scope}, ${row.expires_at})`);
  }

  code(codeHash: Buffer): Step<CodeRow | null> {
    return this.first(sql`SELECT client_id, account_id, redirect_uri, code_challenge, resource, scope, expires_at, grant_id FROM accounts.oauth_codes WHERE code_hash = ${codeHash}`);
  }

  *redeemCode(codeHash: Buffer, grantId: string): Step<boolean> {
    return (yield* this.change(sql`UPDATE accounts.oauth_codes SET grant_id = ${grantId} WHERE code_hash = ${codeHash} AND grant_id IS NULL`)) > 0;
  }

  grant(id: string): Step<GrantRow | null> {
    return this.first(sql`SELECT ${GRANT} FROM accounts.oauth_grants g WHERE g.id = ${id}`);
  }

  *insertGrant(row: GrantRow): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.oauth_grants (id, account_id, client_id, scope, resource, created_at, last_used_at)
      VALUES (${row.id}, ${row.account_id}, ${row.client_id}, ${row.scope}, ${row.resource}, ${row.created_at}, ${row.last_used_at})`);
  }

  *deleteGrant(id: string): Step<boolean> {
    return (yield* this.change(sql`DELETE FROM accounts.oauth_grants WHERE id = ${id}`)) > 0;
  }

  *touchGrant(id: string, atMs: number): Step<void> {
    yield* this.change(sql`UPDATE accounts.oauth_grants SET last_used_at = ${atMs} WHERE id = ${id}`);
  }

  *grantIdsOf(accountId: string): Step<string[]> {
    return (yield* rowsOf<{ id: string }>(this.trx, sql`SELECT id FROM accounts.oauth_grants WHERE account_id = ${accountId}`)).map((row) => row.id);
  }

  connections(accountId: string): Step<ConnectionRow[]> {
    return rowsOf(this.trx, sql`SELECT ${GRANT}, c.name AS client_name, c.metadata AS client_metadata FROM accounts.oauth_grants g JOIN accounts.oauth_clients c ON c.id = g.client_id
      WHERE g.account_id = ${accountId} ORDER BY g.created_at, g.made`);
  }

  *insertAccess(tokenHash: Buffer, grantId: string, expiresAtMs: number): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.oauth_access_tokens (token_hash, grant_id, expires_at) VALUES (${tokenHash}, ${grantId}, ${expiresAtMs})`);
  }

  access(tokenHash: Buffer): Step<AccessRow | null> {
    return this.first(sql`SELECT ${GRANT}, t.expires_at FROM accounts.oauth_access_tokens t JOIN accounts.oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ${tokenHash}`);
  }

  *deleteAccess(tokenHash: Buffer): Step<boolean> {
    return (yield* this.change(sql`DELETE FROM accounts.oauth_access_tokens WHERE token_hash = ${tokenHash}`)) > 0;
  }

  *insertRefresh(tokenHash: Buffer, grantId: string, issuedAtMs: number): Step<void> {
    yield* this.change(sql`INSERT INTO accounts.oauth_refresh_tokens (token_hash, grant_id, issued_at) VALUES (${tokenHash}, ${grantId}, ${issuedAtMs})`);
  }

  refresh(tokenHash: Buffer): Step<RefreshRow | null> {
    return this.first(sql`SELECT grant_id, issued_at, rotated_at FROM accounts.oauth_refresh_tokens WHERE token_hash = ${tokenHash}`);
  }

  *rotateRefresh(tokenHash: Buffer, atMs: number): Step<boolean> {
    return (yield* this.change(sql`UPDATE accounts.oauth_refresh_tokens SET rotated_at = ${atMs} WHERE token_hash = ${tokenHash} AND rotated_at IS NULL`)) > 0;
  }

  *purge(nowMs: number, ends: { absoluteMs: number; idleMs: number; unauthorizedClientMs: number }): Step<void> {
    yield* this.change(sql`DELETE FROM accounts.oauth_codes WHERE expires_at <= ${nowMs}`);
    yield* this.change(sql`DELETE FROM accounts.oauth_consents WHERE expires_at <= ${nowMs}`);
    yield* this.change(sql`DELETE FROM accounts.oauth_access_tokens WHERE expires_at <= ${nowMs}`);
    yield* this.change(sql`DELETE FROM accounts.oauth_grants WHERE created_at <= ${nowMs - ends.absoluteMs} OR last_used_at <= ${nowMs - ends.idleMs}`);
    yield* this.change(sql`DELETE FROM accounts.oauth_clients WHERE authorized_at IS NULL AND created_at <= ${nowMs - ends.unauthorizedClientMs}`);
    yield* this.change(sql`DELETE FROM accounts.oauth_clients c WHERE authorized_at IS NOT NULL AND created_at <= ${nowMs - ends.absoluteMs}
      AND NOT EXISTS (SELECT 1 FROM accounts.oauth_grants g WHERE g.client_id = c.id)`);
  }

  private *first<R>(query: RawBuilder<unknown>): Step<R | null> {
    return (yield* rowsOf<R>(this.trx, query))[0] ?? null;
  }

  private change(query: RawBuilder<unknown>): Step<number> {
    return changedBy(this.trx, query);
  }
}
