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
import type { InputOf } from '../schemas/answer-types.js';
import { GuardChain, RECENT_PASSKEY_MS, REAUTHENTICATE, type GuardContext, type HumanCheckPass, type HumanCheckVerifier, type Refusal } from '../api/guards.js';
import { operationIn, type RegistryEntry } from '../schemas/operations.js';
import { ACCOUNT_OPERATIONS } from './operations.js';
import type { AccountRow, AccountsStore, NewPasskeyRow, PasskeyRow, SessionRow } from './store.js';
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
  const register = <const Id extends AccountOperationId>(operationId: Id, handle: Handler<Id>, headers?: string[]) => {
    const spec: RegistryEntry = operationIn(ACCOUNT_OPERATIONS, operationId);
    guards.operation(server, spec, { headers, handle: (request, context) => handle(context.input as InputOf<AccountOperation<Id>>, context, request) });
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

/** What the handler of operation `Id` gets: the checked body (or query) typed from its entry's schema, the guard chain's context, the request. */
type Handler<Id extends AccountOperationId> = (body: InputOf<AccountOperation<Id>>, context: GuardContext<unknown>, request: HttpRequestInfo) => RouteResult | Promise<RouteResult>;

/** A credential as the WebAuthn library types it: the entry's schema checked its JSON form, the library verifies the rest. */
const registrationJson = (credential: object) => credential as RegistrationResponseJSON;
const authenticationJson = (credential: object) => credential as AuthenticationResponseJSON;

type AccountOperationId = (typeof ACCOUNT_OPERATIONS)[number]['operationId'];
type AccountOperation<Id extends AccountOperationId> = Extract<(typeof ACCOUNT_OPERATIONS)[number], { readonly operationId: Id }>;

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

  readonly startPasskeyRegistration: Handler<'startPasskeyRegistration'> = async (body, context) => {
    if (body.recovery_token !== undefined) {
      const link = await this.deps.store.recovery(secretHash(body.recovery_token));
      const account = link !== null && link.expires_at > context.nowMs ? await this.deps.store.account(link.account_id) : null;
      if (account === null) return this.refuse(RECOVERY_GONE, context);
      const options = await this.deps.ceremonies.creationOptions({ purpose: 'recover', accountId: account.id, userHandle: account.user_handle, name: account.display_name, existing: await this.deps.store.passkeys(account.id) }, context.nowMs);
      return answer(200, context, options);
    }
    if (context.session !== null) {
      // refused before the authenticator makes a passkey that addPasskey would then refuse
      if (context.nowMs - context.session.verifiedAtMs > RECENT_PASSKEY_MS) return this.refuse(REAUTHENTICATE, context);
      const account = (await this.deps.store.account(context.session.account))!;
      const options = await this.deps.ceremonies.creationOptions({ purpose: 'add-passkey', accountId: account.id, userHandle: account.user_handle, name: account.display_name, existing: await this.deps.store.passkeys(account.id) }, context.nowMs);
      return answer(200, context, options);
    }
    const name = body.display_name?.trim();
    if (name === undefined || name === '') {
      return this.refuse({ slug: 'invalid-parameters', detail: 'Send display_name (1 to 60 characters) for a new account, or sign in first to add a passkey.', invalidParams: [{ name: 'display_name', reason: 'is required when no account is signed in' }] }, context);
    }
    const options = await this.deps.ceremonies.creationOptions({ purpose: 'create-account', accountId: null, userHandle: randomBytes(32), name, existing: [] }, context.nowMs);
    return answer(200, context, options);
  };

  readonly createAccount: Handler<'createAccount'> = async (body, context, request) => {
    const verified = await this.deps.ceremonies.registration(registrationJson(body.credential), 'create-account', null, context.nowMs);
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
    const session = this.deps.sessions.issue(account.id, false, nowMs, request.headers['user-agent']);
    await this.deps.store.createAccount(account, passkeyRow(verified.value, account.id, null, nowMs), session.row);
    this.deps.log.info('account created', { account: account.id });
    return answer(201, context, accountAnswer(account), session.cookie);
  };

  readonly getAccount: Handler<'getAccount'> = async (_body, context) => answer(200, context, accountAnswer((await this.deps.store.account(context.session!.account))!));

  readonly deleteAccount: Handler<'deleteAccount'> = async (body, context) => {
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
    await this.deps.store.deleteAccount(accountId);
    this.deps.log.info('account deleted', { account: accountId });
    return answer(200, context, { deleted: true }, this.deps.sessions.clearCookie());
  };

  readonly listPasskeys: Handler<'listPasskeys'> = async (_body, context) => answer(200, context, { passkeys: (await this.deps.store.passkeys(context.session!.account)).map(passkeyAnswer) });

  readonly addPasskey: Handler<'addPasskey'> = async (body, context) => {
    const session = context.session!;
    const verified = await this.deps.ceremonies.registration(registrationJson(body.credential), 'add-passkey', session.account, context.nowMs);
    if (!verified.ok) return this.refuse(passkeyRefused(verified.detail), context);
    const stored = await this.deps.store.addPasskey(passkeyRow(verified.value, session.account, body.name?.trim() ?? null, context.nowMs));
    this.deps.log.info('passkey added', { account: session.account, passkey: stored.id });
    return answer(201, context, { passkey: passkeyAnswer(stored), other_sessions: await this.deps.store.countOtherSessions(session.account, session.tokenHash) });
  };

  readonly removePasskey: Handler<'removePasskey'> = async (_body, context, request) => {
    const session = context.session!;
    const id = request.params.passkey;
    const outcome = await this.deps.store.removePasskey(id, session.account);
    if (outcome === 'unknown') return this.refuse({ slug: 'not-found', detail: 'The account has no passkey with this id; listPasskeys lists them.' }, context);
    if (outcome === 'last') return this.refuse({ slug: 'last-passkey', detail: 'This is the last passkey of the account: add another one first (startPasskeyRegistration, addPasskey), or delete the account.' }, context);
    this.deps.log.info('passkey removed', { account: session.account, passkey: id });
    return answer(200, context, { removed: id, other_sessions: await this.deps.store.countOtherSessions(session.account, session.tokenHash) });
  };

  readonly listSessions: Handler<'listSessions'> = async (_body, context) => {
    const session = context.session!;
    return answer(200, context, { sessions: (await this.deps.store.sessionsOf(session.account)).map((row) => sessionAnswer(row, session.tokenHash)) });
  };

  readonly endSession: Handler<'endSession'> = async (_body, context, request) => {
    const session = context.session!;
    const id = request.params.session;
    const row = (await this.deps.store.sessionsOf(session.account)).find((candidate) => sessionId(candidate.token_hash) === id);
    if (row === undefined) return this.refuse({ slug: 'not-found', detail: 'The account has no session with this id (it may have ended already); listSessions lists them.' }, context);
    await this.deps.store.deleteSession(row.token_hash);
    const current = row.token_hash.equals(session.tokenHash);
    this.deps.log.info('session ended', { account: session.account, current });
    return answer(200, context, { ended: id, current }, current ? this.deps.sessions.clearCookie() : undefined);
  };

  readonly signOutEverywhere: Handler<'signOutEverywhere'> = async (query, context) => {
    const session = context.session!;
    let connections_ended = 0;
    const { connected } = this.deps;
    const ended = await this.deps.store.deleteOtherSessions(session.account, session.tokenHash, function* (within) {
      if (query.connections === 'all') connections_ended = yield* connected.endAll(session.account, 'signed out everywhere', within);
      return connections_ended;
    });
    this.deps.log.info('other sessions ended', { account: session.account, ended, connections_ended });
    return answer(200, context, { ended, connections_ended });
  };

  readonly recoverAccount: Handler<'recoverAccount'> = async (body, context, request) => {
    const tokenHash = secretHash(body.recovery_token);
    const link = await this.deps.store.recovery(tokenHash);
    if (link === null || link.expires_at <= context.nowMs) return this.refuse(RECOVERY_GONE, context);
    const verified = await this.deps.ceremonies.registration(registrationJson(body.credential), 'recover', link.account_id, context.nowMs);
    if (!verified.ok) return this.refuse(passkeyRefused(verified.detail), context);
    const nowMs = context.nowMs;
    const target = await this.deps.store.account(link.account_id);
    if (target === null) return this.refuse(RECOVERY_GONE, context);
    const session = this.deps.sessions.issue(target.id, target.moderator === 1, nowMs, request.headers['user-agent']);
    // the link is taken in the transaction that stores the passkey it admits (one passkey per link); whoever
    // held the lost passkeys is signed out, and every app connected with them ends
    const account = await this.deps.store.recover(tokenHash, passkeyRow(verified.value, target.id, body.name?.trim() ?? 'Recovered passkey', nowMs), session.row, (within) =>
      this.deps.connected.endAll(target.id, 'account recovered', within),
    );
    if (account === null) return this.refuse(RECOVERY_GONE, context);
    this.deps.log.info('account recovered with an operator link', { account: account.id });
    return answer(201, context, accountAnswer(account), session.cookie);
  };

  readonly startSignIn: Handler<'startSignIn'> = async (_body, context) => answer(200, context, await this.deps.ceremonies.requestOptions(context.nowMs));

  readonly signIn: Handler<'signIn'> = async (body, context, request) => {
    const verified = await this.deps.ceremonies.authentication(authenticationJson(body.credential), context.nowMs);
    if (!verified.ok) return this.refuse({ slug: 'sign-in-failed', detail: verified.detail }, context);
    const { account } = verified.value;
    const previous = this.deps.sessions.tokenHashOf(request.headers.cookie);
    // rotated: the session the browser held (if any) ends, a new token starts
    const session = this.deps.sessions.issue(account.id, account.moderator === 1, context.nowMs, request.headers['user-agent']);
    await this.deps.store.startSession(session.row, previous);
    return answer(200, context, accountAnswer(account), session.cookie);
  };

  readonly signOut: Handler<'signOut'> = async (_body, context, request) => {
    const current = this.deps.sessions.tokenHashOf(request.headers.cookie);
    if (current !== null) await this.deps.store.deleteSession(current);
    return answer(200, context, { signed_out: true }, this.deps.sessions.clearCookie());
  };

}

/** The row of a verified new passkey; a null name is "Passkey <n>" (store.ts). */
function passkeyRow(passkey: NewPasskey, accountId: string, name: string | null, nowMs: number): NewPasskeyRow {
  return { id: passkey.credentialId, account_id: accountId, public_key: passkey.publicKey, counter: passkey.counter, transports: JSON.stringify(passkey.transports), name, created_at: nowMs };
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
