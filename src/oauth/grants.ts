// The grant state machine (README.md): an approved consent makes a single-use code (60 s) bound to client,
// redirect URI, PKCE challenge, resource and account; redeeming it makes a grant with an access token
// (1 h) and a refresh token; each refresh rotates the refresh token; reuse of a code or of a rotated
// refresh token ends the grant, as do revocation (the client's /oauth/revoke or the person's connections
// page) and the account's deletion. Access tokens are opaque: /mcp/account looks each one up with its grant
// on every request, so an ended grant stops working at once. Only SHA-256 hashes of codes and tokens are
// stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { secretHash } from '../accounts/store.js';
import { ACCESS_TOKEN_LIFETIME_MS, CODE_LIFETIME_MS, CONSENT_LIFETIME_MS, GRANT_ABSOLUTE_MS, REFRESH_IDLE_MS, TOUCH_EVERY_MS } from './lifetimes.js';
import type { AccessRow, AuthorizationRequest, ConsentRow, GrantRow, OAuthStore, OAuthTables } from './store.js';
import type { Step } from '../storage/steps.js';
import { storageTrouble } from '../storage/errors.js';
import type { Logger } from '../log.js';

/** A token endpoint error (RFC 6749 section 5.2). */
export interface TokenError {
  error: 'invalid_request' | 'invalid_grant' | 'invalid_client' | 'invalid_target' | 'unsupported_grant_type' | 'unauthorized_client';
  error_description: string;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** Only for a client registered for the refresh_token grant (RFC 6749 section 5.1: optional). */
  refresh_token?: string;
  scope: string;
}

/** Why a grant ended, for the log and the subscriptions' terminated envelope. */
export type GrantEnd = 'revoked by the client' | 'revoked by the account' | 'account deleted' | 'account recovered' | 'code reused' | 'refresh token reused';

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** RFC 7636: BASE64URL(SHA-256(verifier)) equals the challenge, compared in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

const grantError = (error_description: string): TokenError => ({ error: 'invalid_grant', error_description });

export class Grants {
  /** Told, inside the transaction that ends a grant and before its rows go, which grant ends and why. */
  private readonly endListeners: ((grantId: string, why: GrantEnd) => void)[] = [];

  constructor(
    private readonly store: OAuthStore,
    private readonly log: Logger,
  ) {}

  onGrantEnd(listener: (grantId: string, why: GrantEnd) => void): void {
    this.endListeners.push(listener);
  }

  /** Records the consent page shown for `request`; its single-use form token. */
  async startConsent(request: AuthorizationRequest, sessionHash: Buffer, nowMs: number): Promise<string> {
    const token = newSecret();
    await this.store.transaction((tables) => tables.insertConsent(secretHash(token), { ...request, session_hash: sessionHash, expires_at: nowMs + CONSENT_LIFETIME_MS }));
    return token;
  }

  /** Takes the consent a form token names, if it was shown to this session and has not ended. */
  async takeConsent(token: string, sessionHash: Buffer, nowMs: number): Promise<ConsentRow | null> {
    const consent = await this.store.transaction((tables) => tables.takeConsent(secretHash(token)));
    if (consent === null || consent.expires_at <= nowMs || !consent.session_hash.equals(sessionHash)) return null;
    return consent;
  }

  /** The code for an approved request; the client counts as authorized from now on. */
  async issueCode(request: AuthorizationRequest, accountId: string, nowMs: number): Promise<string> {
    const code = newSecret();
    const { client_id, redirect_uri, code_challenge, resource, scope } = request;
    await this.store.transaction(function* (tables) {
      yield* tables.insertCode(secretHash(code), { client_id, redirect_uri, code_challenge, resource, scope, account_id: accountId, expires_at: nowMs + CODE_LIFETIME_MS });
      yield* tables.markAuthorized(client_id, nowMs);
    });
    return code;
  }

  /** The authorization_code grant: a new grant and its first tokens, or why not. */
  redeemCode(params: { code: string; clientId: string; redirectUri: string; verifier: string; resource: string | null }, nowMs: number): Promise<IssuedTokens | TokenError> {
    const codeHash = secretHash(params.code);
    return this.store.transaction((tables) => this.redeeming(tables, codeHash, params, nowMs));
  }

  private *redeeming(tables: OAuthTables, codeHash: Buffer, params: { clientId: string; redirectUri: string; verifier: string; resource: string | null }, nowMs: number): Step<IssuedTokens | TokenError> {
    const code = yield* tables.code(codeHash);
    if (code === null) return grantError('The code is unknown or has ended; start the authorization again.');
    if (code.grant_id !== null) {
      // a second redemption: someone else holds the code, so what it gave is taken back
      yield* this.end(tables, code.grant_id, 'code reused');
      return grantError('The code was used before; every token issued from it is revoked. Start the authorization again.');
    }
    if (code.expires_at <= nowMs) return grantError(`The code has expired (codes last ${CODE_LIFETIME_MS / 1000} s); start the authorization again.`);
    if (code.client_id !== params.clientId) return grantError('The code was issued to another client_id.');
    if (code.redirect_uri !== params.redirectUri) return grantError('redirect_uri differs from the one of the authorization request; send the same URI.');
    if (!VERIFIER.test(params.verifier)) return { error: 'invalid_request', error_description: 'code_verifier is required: 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636).' };
    if (!pkceMatches(params.verifier, code.code_challenge)) return grantError('code_verifier does not match the code_challenge (S256) of the authorization request.');
    if (params.resource !== null && params.resource !== code.resource) return { error: 'invalid_target', error_description: `resource must be ${code.resource}, as in the authorization request.` };
    const grant: GrantRow = { id: `og_${randomBytes(16).toString('hex')}`, account_id: code.account_id, client_id: code.client_id, scope: code.scope, resource: code.resource, created_at: nowMs, last_used_at: nowMs };
    yield* tables.insertGrant(grant);
    yield* tables.redeemCode(codeHash, grant.id);
    return yield* this.issue(tables, grant, nowMs);
  }

  /** The refresh_token grant: rotates the refresh token, or ends the grant when an old one comes back. */
  refresh(params: { refreshToken: string; clientId: string; resource: string | null }, nowMs: number): Promise<IssuedTokens | TokenError> {
    const tokenHash = secretHash(params.refreshToken);
    return this.store.transaction((tables) => this.refreshing(tables, tokenHash, params, nowMs));
  }

  private *refreshing(tables: OAuthTables, tokenHash: Buffer, params: { clientId: string; resource: string | null }, nowMs: number): Step<IssuedTokens | TokenError> {
    const token = yield* tables.refresh(tokenHash);
    const grant = token === null ? null : yield* tables.grant(token.grant_id);
    if (token === null || grant === null) return grantError('The refresh token is unknown or its grant has ended; authorize again.');
    if (grant.client_id !== params.clientId) return grantError('The refresh token was issued to another client_id.');
    if (!(yield* refreshes(tables, grant.client_id))) return { error: 'unauthorized_client', error_description: 'This client is not registered for the refresh_token grant; register it with grant_types including "refresh_token", or authorize again.' };
    if (token.rotated_at !== null) {
      yield* this.end(tables, grant.id, 'refresh token reused');
      return grantError('The refresh token was used before; the grant is revoked. Authorize again.');
    }
    if (nowMs - grant.created_at >= GRANT_ABSOLUTE_MS) return grantError(`The grant has ended (${GRANT_ABSOLUTE_MS / 86_400_000} days after approval); authorize again.`);
    if (nowMs - token.issued_at >= REFRESH_IDLE_MS) return grantError(`The refresh token has ended (unused for ${REFRESH_IDLE_MS / 86_400_000} days); authorize again.`);
    if (params.resource !== null && params.resource !== grant.resource) return { error: 'invalid_target', error_description: `resource must be ${grant.resource}.` };
    yield* tables.rotateRefresh(tokenHash, nowMs);
    yield* tables.touchGrant(grant.id, nowMs);
    return yield* this.issue(tables, grant, nowMs);
  }

  /** RFC 7009: ends what the token belongs to if `clientId` holds it (a refresh token: its grant; an access token: itself). */
  async revoke(token: string, clientId: string): Promise<void> {
    const tokenHash = secretHash(token);
    const grants = this;
    await this.store.transaction(function* (tables) {
      const refresh = yield* tables.refresh(tokenHash);
      const refreshGrant = refresh === null ? null : yield* tables.grant(refresh.grant_id);
      if (refreshGrant !== null && refreshGrant.client_id === clientId) return void (yield* grants.end(tables, refreshGrant.id, 'revoked by the client'));
      const access = yield* tables.access(tokenHash);
      if (access !== null && access.client_id === clientId) yield* tables.deleteAccess(tokenHash);
    });
  }

  /** Ends one of the account's grants (the connections page); false when it has no such grant. */
  revokeForAccount(grantId: string, accountId: string): Promise<boolean> {
    const grants = this;
    return this.store.transaction(function* (tables) {
      const grant = yield* tables.grant(grantId);
      if (grant === null || grant.account_id !== accountId) return false;
      return yield* grants.end(tables, grantId, 'revoked by the account');
    });
  }

  /** Ends every grant of the account (its deletion); how many ended. */
  revokeAll(accountId: string, why: GrantEnd): Promise<number> {
    return this.store.transaction((tables) => this.revokeAllIn(tables, accountId, why));
  }

  /** revokeAll inside the caller's transaction (sign-out everywhere with its connections, a recovery: the accounts'). */
  *revokeAllIn(tables: OAuthTables, accountId: string, why: GrantEnd): Step<number> {
    let ended = 0;
    for (const grantId of yield* tables.grantIdsOf(accountId)) if (yield* this.end(tables, grantId, why)) ended++;
    return ended;
  }

  /**
   * The live grant an access token belongs to, or null; records the grant's use (at most once a minute).
   * While the storage cannot take that record the token still works: the read it allows goes on, and the
   * use is recorded at a later request.
   */
  async verifyAccess(token: string, nowMs: number): Promise<AccessRow | null> {
    const row = await this.store.read((tables) => tables.access(secretHash(token)));
    if (row === null || row.expires_at <= nowMs) return null;
    if (nowMs - row.last_used_at < TOUCH_EVERY_MS) return row;
    try {
      await this.store.transaction((tables) => tables.touchGrant(row.id, nowMs));
    } catch (error) {
      const trouble = storageTrouble(error);
      if (trouble === null) throw error;
      this.log.error(`the use of an oauth grant is not recorded now: ${trouble}; recorded at a later request`, { grant: row.id });
    }
    return row;
  }

  private *end(tables: OAuthTables, grantId: string, why: GrantEnd): Step<boolean> {
    for (const listener of this.endListeners) listener(grantId, why);
    return yield* tables.deleteGrant(grantId);
  }

  /** A new access token, and a refresh token when the client registered for the refresh_token grant. */
  private *issue(tables: OAuthTables, grant: GrantRow, nowMs: number): Step<IssuedTokens> {
    const access = newSecret();
    yield* tables.insertAccess(secretHash(access), grant.id, nowMs + ACCESS_TOKEN_LIFETIME_MS);
    const tokens: IssuedTokens = { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_MS / 1000, scope: grant.scope };
    if (!(yield* refreshes(tables, grant.client_id))) return tokens;
    const refresh = newSecret();
    yield* tables.insertRefresh(secretHash(refresh), grant.id, nowMs);
    return { ...tokens, refresh_token: refresh };
  }
}

/** Whether the client registered for the refresh_token grant (RFC 7591 grant_types). */
function* refreshes(tables: OAuthTables, clientId: string): Step<boolean> {
  const client = yield* tables.client(clientId);
  return client !== null && (JSON.parse(client.metadata) as { grant_types?: string[] }).grant_types?.includes('refresh_token') === true;
}
