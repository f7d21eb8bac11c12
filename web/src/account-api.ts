// The account operations as the account pages call them: JSON with the session cookie (same origin only),
// the passkey ceremonies through @simplewebauthn/browser, and the re-authentication the sensitive
// operations ask for: when one answers 401 reauthentication-required, the page's dialog asks for a
// passkey, signs in again (a fresh session) and sends the request once more.
import { startAuthentication, WebAuthnError, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { lang, rememberSignedIn, t } from './common.js';
import { problemText } from '../../src/web/text/problem.js';
import type { Problem } from './contribute.js';
import type { ClientRoutes, RouteFor, SchemaValue } from '../../src/schemas/answer-types.js';
import type { ACCOUNT_OPERATIONS } from '../../src/accounts/operations.js';
import type { PARTNER_OPERATIONS } from '../../src/partners/operations.js';
import type { BILLING_OPERATIONS } from '../../src/billing/operations.js';
import type { MODERATION_OPERATIONS } from '../../src/moderation/operations.js';

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

export type Account = SchemaValue<'Account'>;

/** The operations the site's signed-in pages call, as the registry declares them (src/schemas/answer-types.ts). */
type Routes = ClientRoutes<(typeof ACCOUNT_OPERATIONS | typeof PARTNER_OPERATIONS | typeof BILLING_OPERATIONS | typeof MODERATION_OPERATIONS)[number]>;
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
/** A path no operation of `Routes` has with `method` does not compile. */
type KnownPath<M extends Method, P extends string> = [RouteFor<Routes, M, P>] extends [never] ? { 'no operation of the registry has this method and path': never } : unknown;

/**
 * Calls an operation under /api/v1 with the session cookie; the body parsed whatever the status, typed as
 * the registry's success answer (a refusal's body is a Problem: see isProblem).
 */
export async function call<M extends Method, P extends string>(method: M, path: P & KnownPath<M, P>, body?: RouteFor<Routes, M, P>['body']): Promise<Answer<RouteFor<Routes, M, P>['answer']>> {
  const response = await fetch(`/api/v1${path}`, {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as RouteFor<Routes, M, P>['answer'] };
}

export function isProblem(answer: Answer, slug: string): boolean {
  return (answer.body as Problem | null)?.type?.endsWith(`/problems/${slug}`) === true;
}

/** What a refused answer or a failed passkey prompt means, for the person. */
export function failureText(failure: Answer | unknown): string {
  if (failure instanceof WebAuthnError || failure instanceof DOMException) {
    const name = failure instanceof WebAuthnError ? (failure.cause as DOMException | undefined)?.name ?? failure.name : failure.name;
    if (failure instanceof WebAuthnError && failure.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return t('passkey.exists');
    return name === 'NotAllowedError' || name === 'AbortError' || name === 'ERROR_CEREMONY_ABORTED' ? t('passkey.cancelled') : t('passkey.error');
  }
  if (failure instanceof TypeError) return t('improve.offline');
  const problem = (failure as Answer<Problem | null>).body;
  return t('passkey.failed', { detail: problemText(lang, problem, (failure as Answer).status) });
}

/** Signs in with a passkey: from the browser's autofill (conditional mediation) or its prompt. */
export async function passkeySignIn(autofill: boolean): Promise<Answer<Account>> {
  const options = await call('POST', '/session/options');
  if (options.status !== 200) return options as unknown as Answer<Account>;
  const credential = await startAuthentication({ optionsJSON: options.body as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill });
  const answer = await call('POST', '/session', { credential });
  if (answer.status === 200) rememberSignedIn(true);
  return answer;
}

/**
 * Runs `send`; when it answers 401 reauthentication-required, shows the page's dialog, signs in again with a
 * passkey when the person confirms, and runs `send` once more. Without confirmation, the first answer.
 */
export async function withReauthentication<T>(send: () => Promise<Answer<T>>): Promise<Answer<T>> {
  const first = await send();
  if (!isProblem(first, 'reauthentication-required')) return first;
  return (await confirmIdentity()) ? send() : first;
}

/** The re-authentication dialog: resolves true once a passkey sign-in succeeded, false when cancelled. */
function confirmIdentity(): Promise<boolean> {
  const dialog = document.getElementById('reauth') as HTMLDialogElement;
  const go = dialog.querySelector<HTMLButtonElement>('#reauth-go')!;
  const cancel = dialog.querySelector<HTMLButtonElement>('#reauth-cancel')!;
  const status = dialog.querySelector('.form-status')!;
  status.textContent = '';
  return new Promise((resolve) => {
    const finish = (confirmed: boolean) => {
      go.onclick = null;
      cancel.onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(confirmed);
    };
    go.onclick = async () => {
      go.disabled = true;
      status.textContent = t('signin.working');
      try {
        const answer = await passkeySignIn(false);
        if (answer.status === 200) finish(true);
        else status.textContent = failureText(answer);
      } catch (error) {
        status.textContent = failureText(error);
      } finally {
        go.disabled = false;
      }
    };
    cancel.onclick = () => finish(false);
    dialog.onclose = () => finish(false);
    dialog.showModal();
    go.focus();
  });
}

/**
 * Where to go after signing in (`?next=`): the URL it names resolved against this page, followed only when
 * its origin is ours, else `fallback`. A pattern over the text cannot decide this: the URL parser drops
 * tabs and newlines and reads backslashes as slashes (`/\t/evil.example` is `//evil.example`).
 */
export function nextHref(fallback: string): string {
  const next = new URLSearchParams(location.search).get('next');
  if (next === null) return fallback;
  try {
    const url = new URL(next, location.origin);
    return url.origin === location.origin ? url.href : fallback;
  } catch {
    return fallback;
  }
}
