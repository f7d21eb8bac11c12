// REST routes of the account operations (operations registry: startPasskeyRegistration ... signOut,
// recoverAccount). The guard chain runs what the registry declares, in its one order: rate limit (the
// attempts' own 10 a minute for sign-in and registration), origin (403), session (401, and the recent
// passkey assertion of the sensitive operations), body size, validation (400, here), human check (403,
// createAccount only); then the handler. Every answer carries Cache-Control: no-store and no CORS header.
import { randomBytes } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { HttpRequestInfo, HttpServer, RouteResult } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Config } from '../config.js';
import type { Limits } from '../api/limits.js';
import type { Logger } from '../log.js';
import { GuardChain, RECENT_PASSKEY_MS, REAUTHENTICATE, type GuardContext, type HumanCheckPass, type HumanCheckVerifier, type Refusal } from '../api/guards.js';
import { operationIn } from '../schemas/operations.js';
import { ACCOUNT_OPERATIONS } from './operations.js';
import type { AccountRow, AccountsStore, PasskeyRow, SessionRow } from './store.js';
import { secretHash } from './store.js';
import { sessionId, type Sessions } from './sessions.js';
import type { PasskeyCeremonies, NewPasskey } from './passkeys.js';
import { DeletionPostponed, type DeletionHooks } from './deletion.js';
import type { ConnectedCredentialsRegistry } from './connected-credentials.js';

/** Spends a verified human-check token once (the overlay keeps the used ones): false when it was used before. */
export interface HumanCheckLedger {
  spend(pass: HumanCheckPass): Promise<boolean>;
}

export interface AccountRouteDeps {
  config: Config;
  limits: Limits;
  problems: Problems;
  store: AccountsStore;
  sessions: Sessions;
  ceremonies: PasskeyCeremonies;
  deletion: DeletionHooks;
  connected: ConnectedCredentialsRegistry;
  humanCheck: HumanCheckVerifier;
  ledger: HumanCheckLedger;
  log: Logger;
  now: () => number;
}

const JSON_TYPE = ['Content-Type', 'application/json'];
/** Read where a session starts, for its coarse device label only (device-label.ts). */
const USER_AGENT = ['user-agent'];

export function registerAccountRoutes(server: HttpServer, deps: AccountRouteDeps): void {
  const guards = new GuardChain(deps);
  const handlers = new AccountHandlers(deps, guards);
  /** Registers an operation; the chain checks its body or query, if it takes one, against its schema. */
  const register = <B>(operationId: string, handle: Handler<B>, headers?: string[]) => {
    const spec = operationIn(ACCOUNT_OPERATIONS, operationId);
    guards.operation<B>(server, spec, { headers, handle: (request, context) => handle(context.input, context, request) });
  };
  register('startPasskeyRegistration', handlers.startPasskeyRegistration);
  register('createAccount', handlers.createAccount, USER_AGENT);
  register('getAccount', handlers.getAccount);
  register('deleteAccount', handlers.deleteAccount);
  register('listPasskeys', handlers.listPasskeys);
  register('addPasskey', handlers.addPasskey);
  register('removePasskey', handlers.removePasskey);
  register('listSessions', handlers.listSessions);
  register('endSession', handlers.endSession);
  register('signOutEverywhere', handlers.signOutEverywhere);
  register('recoverAccount', handlers.recoverAccount, USER_AGENT);
  register('startSignIn', handlers.startSignIn);
  register('signIn', handlers.signIn, ['cookie', ...USER_AGENT]);
  register('signOut', handlers.signOut, ['cookie']);
}

/** What a handler gets: the checked body (or query), the guard chain's context, the request. */
type Handler<B> = (body: B, context: GuardContext<B>, request: HttpRequestInfo) => RouteResult | Promise<RouteResult>;

function answer(status: number, context: GuardContext<unknown>, body: unknown, cookie?: string): RouteResult {
  return { status, headers: [...JSON_TYPE, ...context.headers, ...(cookie === undefined ? [] : ['Set-Cookie', cookie])], body: JSON.stringify(body) };
}

const passkeyRefused = (detail: string): Refusal => ({ slug: 'passkey-refused', detail });
const RECOVERY_GONE: Refusal = passkeyRefused('The recovery link is unknown, used already or expired (after 15 minutes): ask the operator for a new one.');

/** The handler of each account operation, one named function each. */
class AccountHandlers {
  constructor(
    private readonly deps: AccountRouteDeps,
    private readonly guards: GuardChain,
  ) {}

  private refuse(refusal: Refusal, context: GuardContext<unknown>): RouteResult {
    return this.guards.refuse(refusal, context);
  }

  readonly startPasskeyRegistration: Handler<{ display_name?: string; recovery_token?: string }> = async (body, context) => {
    if (body.recovery_token !== undefined) {
      const link = this.deps.store.recovery(secretHash(body.recovery_token));
      const account = link !== null && link.expires_at > context.nowMs ? this.deps.store.account(link.account_id) : null;
      if (account === null) return this.refuse(RECOVERY_GONE, context);
      const options = await this.deps.ceremonies.creationOptions({ purpose: 'recover', accountId: account.id, userHandle: account.user_handle, name: account.display_name, existing: this.deps.store.passkeys(account.id) }, context.nowMs);
      return answer(200, context, options);
    }
    if (context.session !== null) {
      // refused before the authenticator makes a passkey that addPasskey would then refuse
      if (context.nowMs - context.session.verifiedAtMs > RECENT_PASSKEY_MS) return this.refuse(REAUTHENTICATE, context);
      const account = this.deps.store.account(context.session.account)!;
      const options = await this.deps.ceremonies.creationOptions({ purpose: 'add-passkey', accountId: account.id, userHandle: account.user_handle, name: account.display_name, existing: this.deps.store.passkeys(account.id) }, context.nowMs);
      return answer(200, context, options);
    }
    const name = body.display_name?.trim();
    if (name === undefined || name === '') {
      return this.refuse({ slug: 'invalid-parameters', detail: 'Send display_name (1 to 60 characters) for a new account, or sign in first to add a passkey.', invalidParams: [{ name: 'display_name', reason: 'is required when no account is signed in' }] }, context);
    }
    const options = await this.deps.ceremonies.creationOptions({ purpose: 'create-account', accountId: null, userHandle: randomBytes(32), name, existing: [] }, context.nowMs);
    return answer(200, context, options);
  };

  readonly createAccount: Handler<{ display_name: string; email?: string; credential: RegistrationResponseJSON }> = async (body, context, request) => {
    const verified = await this.deps.ceremonies.registration(body.credential, 'create-account', null, context.nowMs);
    if (!verified.ok) return this.refuse(passkeyRefused(verified.detail), context);
    if (context.humanCheck !== null && !(await this.deps.ledger.spend(context.humanCheck))) {
      return this.refuse({ slug: 'human-check-failed', detail: 'The human check failed: this challenge_token was used before; solve a new challenge.' }, context);
    }
    const nowMs = context.nowMs;
    const account: AccountRow = {
      id: `acc_${randomBytes(12).toString('hex')}`,
      user_handle: verified.value.userHandle,
      display_name: body.display_name.trim(),
      email: body.email ?? null,
      moderator: 0,
      created_at: nowMs,
    };
    const cookie = this.deps.store.transaction(() => {
      this.deps.store.insertAccount(account);
      this.storePasskey(verified.value, account.id, 'Passkey 1', nowMs);
      return this.deps.sessions.start(account.id, false, nowMs, request.headers['user-agent']);
    });
    this.deps.log.info('account created', { account: account.id });
    return answer(201, context, accountAnswer(account), cookie);
  };

  readonly getAccount: Handler<never> = (_body, context) => answer(200, context, accountAnswer(this.deps.store.account(context.session!.account)!));

  readonly deleteAccount: Handler<{ confirm_cancellation?: boolean }> = async (body, context) => {
    const accountId = context.session!.account;
    const blockers = await this.deps.deletion.blockers(accountId, { cancellation: body.confirm_cancellation === true });
    if (blockers.length > 0) {
      return this.refuse({ slug: 'account-not-deletable', detail: `${blockers.join(' ')} Send the request again with "confirm_cancellation": true to end it with the account.` }, context);
    }
    try {
      await this.deps.deletion.erase(accountId);
    } catch (error) {
      if (error instanceof DeletionPostponed) return this.refuse({ slug: 'unavailable', detail: error.message, retryAfterSeconds: 60 }, context);
      throw error;
    }
    this.deps.store.deleteAccount(accountId);
    this.deps.log.info('account deleted', { account: accountId });
    return answer(200, context, { deleted: true }, this.deps.sessions.clearCookie());
  };

  readonly listPasskeys: Handler<never> = (_body, context) => answer(200, context, { passkeys: this.deps.store.passkeys(context.session!.account).map(passkeyAnswer) });

  readonly addPasskey: Handler<{ name?: string; credential: RegistrationResponseJSON }> = async (body, context) => {
    const session = context.session!;
    const verified = await this.deps.ceremonies.registration(body.credential, 'add-passkey', session.account, context.nowMs);
    if (!verified.ok) return this.refuse(passkeyRefused(verified.detail), context);
    const stored = this.deps.store.transaction(() => this.storePasskey(verified.value, session.account, body.name?.trim() ?? `Passkey ${this.deps.store.passkeys(session.account).length + 1}`, context.nowMs));
    this.deps.log.info('passkey added', { account: session.account, passkey: stored.id });
    return answer(201, context, { passkey: passkeyAnswer(stored), other_sessions: this.deps.store.countOtherSessions(session.account, session.tokenHash) });
  };

  readonly removePasskey: Handler<never> = (_body, context, request) => {
    const session = context.session!;
    const id = request.params.passkey;
    const outcome = this.deps.store.transaction(() => {
      const passkeys = this.deps.store.passkeys(session.account);
      if (!passkeys.some((p) => p.id === id)) return 'unknown';
      if (passkeys.length === 1) return 'last';
      this.deps.store.deletePasskey(id, session.account);
      return 'removed';
    });
    if (outcome === 'unknown') return this.refuse({ slug: 'not-found', detail: 'The account has no passkey with this id; listPasskeys lists them.' }, context);
    if (outcome === 'last') return this.refuse({ slug: 'last-passkey', detail: 'This is the last passkey of the account: add another one first (startPasskeyRegistration, addPasskey), or delete the account.' }, context);
    this.deps.log.info('passkey removed', { account: session.account, passkey: id });
    return answer(200, context, { removed: id, other_sessions: this.deps.store.countOtherSessions(session.account, session.tokenHash) });
  };

  readonly listSessions: Handler<never> = (_body, context) => {
    const session = context.session!;
    return answer(200, context, { sessions: this.deps.store.sessionsOf(session.account).map((row) => sessionAnswer(row, session.tokenHash)) });
  };

  readonly endSession: Handler<never> = (_body, context, request) => {
    const session = context.session!;
    const id = request.params.session;
    const row = this.deps.store.sessionsOf(session.account).find((candidate) => sessionId(candidate.token_hash) === id);
    if (row === undefined) return this.refuse({ slug: 'not-found', detail: 'The account has no session with this id (it may have ended already); listSessions lists them.' }, context);
    this.deps.store.deleteSession(row.token_hash);
    const current = row.token_hash.equals(session.tokenHash);
    this.deps.log.info('session ended', { account: session.account, current });
    return answer(200, context, { ended: id, current }, current ? this.deps.sessions.clearCookie() : undefined);
  };

  readonly signOutEverywhere: Handler<{ connections?: string }> = (query, context) => {
    const session = context.session!;
    const { ended, connections_ended } = this.deps.store.transaction(() => ({
      ended: this.deps.store.deleteOtherSessions(session.account, session.tokenHash),
      connections_ended: query.connections === 'all' ? this.deps.connected.endAll(session.account, 'signed out everywhere') : 0,
    }));
    this.deps.log.info('other sessions ended', { account: session.account, ended, connections_ended });
    return answer(200, context, { ended, connections_ended });
  };

  readonly recoverAccount: Handler<{ recovery_token: string; name?: string; credential: RegistrationResponseJSON }> = async (body, context, request) => {
    const tokenHash = secretHash(body.recovery_token);
    const link = this.deps.store.recovery(tokenHash);
    if (link === null || link.expires_at <= context.nowMs) return this.refuse(RECOVERY_GONE, context);
    const verified = await this.deps.ceremonies.registration(body.credential, 'recover', link.account_id, context.nowMs);
    if (!verified.ok) return this.refuse(passkeyRefused(verified.detail), context);
    const nowMs = context.nowMs;
    const done = this.deps.store.transaction(() => {
      // taken in the same transaction as the passkey it admits: one passkey per link
      if (this.deps.store.takeRecovery(tokenHash) === null) return null;
      const account = this.deps.store.account(link.account_id)!;
      this.storePasskey(verified.value, account.id, body.name?.trim() ?? 'Recovered passkey', nowMs);
      // whoever held the lost passkeys is signed out, and every app connected with them ends
      this.deps.store.deleteSessions(account.id);
      this.deps.connected.endAll(account.id, 'account recovered');
      return { account, cookie: this.deps.sessions.start(account.id, account.moderator === 1, nowMs, request.headers['user-agent']) };
    });
    if (done === null) return this.refuse(RECOVERY_GONE, context);
    this.deps.log.info('account recovered with an operator link', { account: done.account.id });
    return answer(201, context, accountAnswer(done.account), done.cookie);
  };

  readonly startSignIn: Handler<never> = async (_body, context) => answer(200, context, await this.deps.ceremonies.requestOptions(context.nowMs));

  readonly signIn: Handler<{ credential: AuthenticationResponseJSON }> = async (body, context, request) => {
    const verified = await this.deps.ceremonies.authentication(body.credential, context.nowMs);
    if (!verified.ok) return this.refuse({ slug: 'sign-in-failed', detail: verified.detail }, context);
    const { account } = verified.value;
    const previous = this.deps.sessions.tokenHashOf(request.headers.cookie);
    const cookie = this.deps.store.transaction(() => {
      // rotated: the session the browser held (if any) ends, a new token starts
      if (previous !== null) this.deps.store.deleteSession(previous);
      return this.deps.sessions.start(account.id, account.moderator === 1, context.nowMs, request.headers['user-agent']);
    });
    return answer(200, context, accountAnswer(account), cookie);
  };

  readonly signOut: Handler<never> = (_body, context, request) => {
    const current = this.deps.sessions.tokenHashOf(request.headers.cookie);
    if (current !== null) this.deps.store.deleteSession(current);
    return answer(200, context, { signed_out: true }, this.deps.sessions.clearCookie());
  };

  private storePasskey(passkey: NewPasskey, accountId: string, name: string, nowMs: number): PasskeyRow {
    const row = { id: passkey.credentialId, account_id: accountId, public_key: passkey.publicKey, counter: passkey.counter, transports: JSON.stringify(passkey.transports), name, created_at: nowMs };
    this.deps.store.insertPasskey(row);
    return { ...row, last_used_at: null };
  }
}

function accountAnswer(account: AccountRow) {
  return { id: account.id, display_name: account.display_name, email: account.email, moderator: account.moderator === 1, created_at: new Date(account.created_at).toISOString() };
}

function sessionAnswer(session: SessionRow, current: Buffer) {
  return {
    id: sessionId(session.token_hash),
    created_at: new Date(session.created_at).toISOString(),
    last_used_at: new Date(session.last_seen_at).toISOString(),
    device: session.device,
    current: session.token_hash.equals(current),
  };
}

function passkeyAnswer(passkey: PasskeyRow) {
  return { id: passkey.id, name: passkey.name, created_at: new Date(passkey.created_at).toISOString(), last_used_at: passkey.last_used_at === null ? null : new Date(passkey.last_used_at).toISOString() };
}
