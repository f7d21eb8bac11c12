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
import { checkedBody, GuardChain, invalidQuery, RECENT_PASSKEY_MS, REAUTHENTICATE, type GuardContext, type HumanCheckPass, type HumanCheckVerifier, type Refusal } from '../api/guards.js';
import { operationIn } from '../schemas/operations.js';
import { ACCOUNT_OPERATIONS } from './operations.js';
import { parseQuery } from '../schemas/query.js';
import type { AccountRow, AccountsStore, PasskeyRow, SessionRow } from './store.js';
import { secretHash } from './store.js';
import { sessionId, type Sessions } from './sessions.js';
import type { PasskeyCeremonies, NewPasskey } from './passkeys.js';
import { DeletionPostponed, type DeletionHooks } from './deletion.js';
import type { ConnectedCredentialsRegistry } from './connected-credentials.js';

/** Spends a verified human-check token once (the overlay keeps the used ones): false when it was used before. */
export interface HumanCheckLedger {
  spend(pass: HumanCheckPass): boolean;
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
  const { store, sessions, ceremonies, deletion, connected, ledger, log } = deps;
  const guards = new GuardChain({ ...deps, sessions });

  const answer = (status: number, context: GuardContext<unknown>, body: unknown, cookie?: string): RouteResult => ({
    status,
    headers: [...JSON_TYPE, ...context.headers, ...(cookie === undefined ? [] : ['Set-Cookie', cookie])],
    body: JSON.stringify(body),
  });
  const refuse = (refusal: Refusal, context: GuardContext<unknown>) => guards.refuse(refusal, context);
  const passkeyRefused = (detail: string): Refusal => ({ slug: 'passkey-refused', detail });
  const recoveryGone: Refusal = passkeyRefused('The recovery link is unknown, used already or expired (after 15 minutes): ask the operator for a new one.');

  /** Registers an operation whose body, if it takes one, is checked against its schema. */
  const operation = <B>(operationId: string, handle: (body: B, context: GuardContext<B>, request: HttpRequestInfo) => RouteResult | Promise<RouteResult>, headers?: string[]) => {
    const spec = operationIn(ACCOUNT_OPERATIONS, operationId);
    guards.operation<B>(server, spec, {
      headers,
      validate:
        spec.query !== undefined
          ? (request) => {
              const parsed = parseQuery(spec.query!, request.query);
              return parsed.ok ? { input: parsed.params as B } : invalidQuery(parsed.invalid);
            }
          : spec.requestBody === undefined
            ? undefined
            : (request, context) => {
                const checked = checkedBody(request, spec);
                if ('slug' in checked) return checked;
                context.body = checked.body;
                return { input: checked.body as B };
              },
      handle: (request, context) => handle(context.input, context, request),
    });
  };

  operation<{ display_name?: string; recovery_token?: string }>('startPasskeyRegistration', async (body, context) => {
    if (body.recovery_token !== undefined) {
      const link = store.recovery(secretHash(body.recovery_token));
      const account = link !== null && link.expires_at > context.nowMs ? store.account(link.account_id) : null;
      if (account === null) return refuse(recoveryGone, context);
      const options = await ceremonies.creationOptions({ purpose: 'recover', accountId: account.id, userHandle: account.user_handle, name: account.display_name, existing: store.passkeys(account.id) }, context.nowMs);
      return answer(200, context, options);
    }
    if (context.session !== null) {
      // refused before the authenticator makes a passkey that addPasskey would then refuse
      if (context.nowMs - context.session.verifiedAtMs > RECENT_PASSKEY_MS) return refuse(REAUTHENTICATE, context);
      const account = store.account(context.session.account)!;
      const options = await ceremonies.creationOptions({ purpose: 'add-passkey', accountId: account.id, userHandle: account.user_handle, name: account.display_name, existing: store.passkeys(account.id) }, context.nowMs);
      return answer(200, context, options);
    }
    const name = body.display_name?.trim();
    if (name === undefined || name === '') {
      return refuse({ slug: 'invalid-parameters', detail: 'Send display_name (1 to 60 characters) for a new account, or sign in first to add a passkey.', invalidParams: [{ name: 'display_name', reason: 'is required when no account is signed in' }] }, context);
    }
    const options = await ceremonies.creationOptions({ purpose: 'create-account', accountId: null, userHandle: randomBytes(32), name, existing: [] }, context.nowMs);
    return answer(200, context, options);
  });

  operation<{ display_name: string; email?: string; credential: RegistrationResponseJSON }>('createAccount', async (body, context, request) => {
    const verified = await ceremonies.registration(body.credential, 'create-account', null, context.nowMs);
    if (!verified.ok) return refuse(passkeyRefused(verified.detail), context);
    if (context.humanCheck !== null && !ledger.spend(context.humanCheck)) {
      return refuse({ slug: 'human-check-failed', detail: 'The human check failed: this challenge_token was used before; solve a new challenge.' }, context);
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
    const cookie = store.transaction(() => {
      store.insertAccount(account);
      storePasskey(verified.value, account.id, 'Passkey 1', nowMs);
      return sessions.start(account.id, false, nowMs, request.headers['user-agent']);
    });
    log.info('account created', { account: account.id });
    return answer(201, context, accountAnswer(account), cookie);
  }, USER_AGENT);

  operation<never>('getAccount', (_body, context) => answer(200, context, accountAnswer(store.account(context.session!.account)!)));

  operation<{ confirm_cancellation?: boolean }>('deleteAccount', async (body, context) => {
    const accountId = context.session!.account;
    const blockers = await deletion.blockers(accountId, { cancellation: body.confirm_cancellation === true });
    if (blockers.length > 0) {
      return refuse({ slug: 'account-not-deletable', detail: `${blockers.join(' ')} Send the request again with "confirm_cancellation": true to end it with the account.` }, context);
    }
    try {
      await deletion.erase(accountId);
    } catch (error) {
      if (error instanceof DeletionPostponed) return refuse({ slug: 'unavailable', detail: error.message, retryAfterSeconds: 60 }, context);
      throw error;
    }
    store.deleteAccount(accountId);
    log.info('account deleted', { account: accountId });
    return answer(200, context, { deleted: true }, sessions.clearCookie());
  });

  operation<never>('listPasskeys', (_body, context) => answer(200, context, { passkeys: store.passkeys(context.session!.account).map(passkeyAnswer) }));

  operation<{ name?: string; credential: RegistrationResponseJSON }>('addPasskey', async (body, context) => {
    const session = context.session!;
    const verified = await ceremonies.registration(body.credential, 'add-passkey', session.account, context.nowMs);
    if (!verified.ok) return refuse(passkeyRefused(verified.detail), context);
    const stored = store.transaction(() => storePasskey(verified.value, session.account, body.name?.trim() ?? `Passkey ${store.passkeys(session.account).length + 1}`, context.nowMs));
    log.info('passkey added', { account: session.account, passkey: stored.id });
    return answer(201, context, { passkey: passkeyAnswer(stored), other_sessions: store.countOtherSessions(session.account, session.tokenHash) });
  });

  operation<never>('removePasskey', (_body, context, request) => {
    const session = context.session!;
    const id = request.params.passkey;
    const outcome = store.transaction(() => {
      const passkeys = store.passkeys(session.account);
      if (!passkeys.some((p) => p.id === id)) return 'unknown';
      if (passkeys.length === 1) return 'last';
      store.deletePasskey(id, session.account);
      return 'removed';
    });
    if (outcome === 'unknown') return refuse({ slug: 'not-found', detail: 'The account has no passkey with this id; listPasskeys lists them.' }, context);
    if (outcome === 'last') return refuse({ slug: 'last-passkey', detail: 'This is the last passkey of the account: add another one first (startPasskeyRegistration, addPasskey), or delete the account.' }, context);
    log.info('passkey removed', { account: session.account, passkey: id });
    return answer(200, context, { removed: id, other_sessions: store.countOtherSessions(session.account, session.tokenHash) });
  });

  operation<never>('listSessions', (_body, context) => {
    const session = context.session!;
    return answer(200, context, { sessions: store.sessionsOf(session.account).map((row) => sessionAnswer(row, session.tokenHash)) });
  });

  operation<never>('endSession', (_body, context, request) => {
    const session = context.session!;
    const id = request.params.session;
    const row = store.sessionsOf(session.account).find((candidate) => sessionId(candidate.token_hash) === id);
    if (row === undefined) return refuse({ slug: 'not-found', detail: 'The account has no session with this id (it may have ended already); listSessions lists them.' }, context);
    store.deleteSession(row.token_hash);
    const current = row.token_hash.equals(session.tokenHash);
    log.info('session ended', { account: session.account, current });
    return answer(200, context, { ended: id, current }, current ? sessions.clearCookie() : undefined);
  });

  operation<{ connections?: string }>('signOutEverywhere', (query, context) => {
    const session = context.session!;
    const { ended, connections_ended } = store.transaction(() => ({
      ended: store.deleteOtherSessions(session.account, session.tokenHash),
      connections_ended: query.connections === 'all' ? connected.endAll(session.account, 'signed out everywhere') : 0,
    }));
    log.info('other sessions ended', { account: session.account, ended, connections_ended });
    return answer(200, context, { ended, connections_ended });
  });

  operation<{ recovery_token: string; name?: string; credential: RegistrationResponseJSON }>('recoverAccount', async (body, context, request) => {
    const tokenHash = secretHash(body.recovery_token);
    const link = store.recovery(tokenHash);
    if (link === null || link.expires_at <= context.nowMs) return refuse(recoveryGone, context);
    const verified = await ceremonies.registration(body.credential, 'recover', link.account_id, context.nowMs);
    if (!verified.ok) return refuse(passkeyRefused(verified.detail), context);
    const nowMs = context.nowMs;
    const done = store.transaction(() => {
      // taken in the same transaction as the passkey it admits: one passkey per link
      if (store.takeRecovery(tokenHash) === null) return null;
      const account = store.account(link.account_id)!;
      storePasskey(verified.value, account.id, body.name?.trim() ?? 'Recovered passkey', nowMs);
      // whoever held the lost passkeys is signed out, and every app connected with them ends
      store.deleteSessions(account.id);
      connected.endAll(account.id, 'account recovered');
      return { account, cookie: sessions.start(account.id, account.moderator === 1, nowMs, request.headers['user-agent']) };
    });
    if (done === null) return refuse(recoveryGone, context);
    log.info('account recovered with an operator link', { account: done.account.id });
    return answer(201, context, accountAnswer(done.account), done.cookie);
  }, USER_AGENT);

  operation<never>('startSignIn', async (_body, context) => answer(200, context, await ceremonies.requestOptions(context.nowMs)));

  operation<{ credential: AuthenticationResponseJSON }>(
    'signIn',
    async (body, context, request) => {
      const verified = await ceremonies.authentication(body.credential, context.nowMs);
      if (!verified.ok) return refuse({ slug: 'sign-in-failed', detail: verified.detail }, context);
      const { account } = verified.value;
      const previous = sessions.tokenHashOf(request.headers.cookie);
      const cookie = store.transaction(() => {
        // rotated: the session the browser held (if any) ends, a new token starts
        if (previous !== null) store.deleteSession(previous);
        return sessions.start(account.id, account.moderator === 1, context.nowMs, request.headers['user-agent']);
      });
      return answer(200, context, accountAnswer(account), cookie);
    },
    ['cookie', ...USER_AGENT],
  );

  operation<never>(
    'signOut',
    (_body, context, request) => {
      const current = sessions.tokenHashOf(request.headers.cookie);
      if (current !== null) store.deleteSession(current);
      return answer(200, context, { signed_out: true }, sessions.clearCookie());
    },
    ['cookie'],
  );

  function storePasskey(passkey: NewPasskey, accountId: string, name: string, nowMs: number): PasskeyRow {
    const row = { id: passkey.credentialId, account_id: accountId, public_key: passkey.publicKey, counter: passkey.counter, transports: JSON.stringify(passkey.transports), name, created_at: nowMs };
    store.insertPasskey(row);
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
