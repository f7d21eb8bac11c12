// The account page: the account (with its id, which the operator's commands take), its passkeys (add;
// remove, never the last), its sessions (end one, sign out everywhere else, also disconnecting every
// connected app, sign out) and its deletion. Sensitive operations go through the re-authentication
// dialog (account-api.ts); after a passkey is added or removed the page offers to end the other sessions.
// A deletion refused because partner subscriptions can still charge (409 account-not-deletable, whose
// detail names the listings) shows those listings and offers to cancel them with the account.
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { clearOfflineCopies, fieldText, localHref, rememberSignedIn, t } from './common.js';
import { call, failureText, isProblem, withReauthentication, type Account, type Answer } from './account-api.js';
import { dateTime, el } from './dom.js';
import type { SchemaValue } from '../../src/schemas/answer-types.js';

/** One passkey and one session as listPasskeys and listSessions answer them (the registry's schemas). */
type Passkey = SchemaValue<'Passkey'>;
type Session = SchemaValue<'Session'>;

const statusOf = (form: HTMLFormElement) => form.querySelector('.form-status')!;

export async function start(): Promise<void> {
  const account = await call('GET', '/account');
  if (account.status === 401) return toSignIn();
  const pageStatus = document.getElementById('account-status')!;
  if (account.status !== 200) {
    pageStatus.textContent = failureText(account);
    return;
  }
  pageStatus.textContent = '';
  pageStatus.hidden = true;
  rememberSignedIn(true);
  showAccount(account.body);
  document.getElementById('account')!.hidden = false;
  await Promise.all([showPasskeys(), showSessions()]);
  wireForms();
}

function toSignIn(): void {
  rememberSignedIn(false);
  location.replace(localHref('/signin?next=/account'));
}

function showAccount(account: Account): void {
  document.getElementById('acc-name')!.textContent = account.display_name;
  document.getElementById('acc-meta')!.textContent = [t('account.since', { date: dateTime(account.created_at) }), account.email ? t('account.email', { email: account.email }) : t('account.noEmail')].join(' ');
  document.getElementById('acc-id')!.textContent = t('account.id', { id: account.id });
  document.getElementById('acc-moderator')!.hidden = !account.moderator;
}

async function showPasskeys(): Promise<void> {
  const answer = await call('GET', '/account/passkeys');
  if (answer.status === 401) return toSignIn();
  const list = document.getElementById('passkey-list')!;
  const only = answer.body.passkeys.length === 1;
  list.replaceChildren(
    ...answer.body.passkeys.map((passkey) => {
      const remove = el('button', { type: 'button', class: 'danger-outline', ...(only ? { disabled: true, 'aria-describedby': 'last-passkey' } : {}) }, t('account.remove', { name: passkey.name }));
      remove.addEventListener('click', () => void removePasskey(passkey, remove as HTMLButtonElement));
      const used = passkey.last_used_at === null ? t('account.passkeyNeverUsed') : t('account.passkeyUsed', { date: dateTime(passkey.last_used_at) });
      return el('li', { class: 'item' }, el('div', {}, el('strong', {}, passkey.name), el('br'), el('span', { class: 'hint' }, `${t('account.passkeyCreated', { date: dateTime(passkey.created_at) })}, ${used}`)), remove);
    }),
  );
  if (only) list.append(el('li', { id: 'last-passkey', class: 'hint' }, t('account.lastPasskey')));
}

async function showSessions(): Promise<void> {
  const answer = await call('GET', '/account/sessions');
  if (answer.status === 401) return toSignIn();
  const list = document.getElementById('session-list')!;
  list.replaceChildren(
    ...answer.body.sessions.map((session) => {
      const device = session.device ?? t('account.sessionUnknown');
      const end = session.current ? null : el('button', { type: 'button', class: 'danger-outline' }, t('account.endSession', { device }));
      end?.addEventListener('click', () => void endSession(session, end as HTMLButtonElement));
      return el(
        'li',
        { class: 'item' },
        el('div', {}, el('strong', {}, device), session.current ? el('span', { class: 'badge' }, t('account.sessionThis')) : null, el('br'), el('span', { class: 'hint' }, t('account.sessionTimes', { created: dateTime(session.created_at), used: dateTime(session.last_used_at) }))),
        end,
      );
    }),
  );
  document.getElementById('sign-out-everywhere')!.hidden = answer.body.sessions.length < 2;
}

/** Says an outcome in the status line of the form the action belongs to; a 401 without a session goes to sign-in. */
function report(form: HTMLFormElement, answer: Answer, success: string): boolean {
  if (answer.status === 401 && isProblem(answer, 'sign-in-required')) {
    toSignIn();
    return false;
  }
  statusOf(form).textContent = answer.status < 300 ? success : failureText(answer);
  return answer.status < 300;
}

/** After a passkey change: the other sessions may belong to whoever held a lost passkey. */
function offerToEndOthers(count: number): void {
  const offer = document.getElementById('end-others')!;
  offer.hidden = count === 0;
  offer.querySelector('p')!.textContent = t('account.endOthers', { count });
}

async function removePasskey(passkey: Passkey, button: HTMLButtonElement): Promise<void> {
  const form = document.getElementById('add-passkey') as HTMLFormElement;
  button.disabled = true;
  try {
    const answer = await withReauthentication(() => call('DELETE', `/account/passkeys/${encodeURIComponent(passkey.id)}` as const));
    if (report(form, answer, t('account.removed'))) offerToEndOthers(answer.body.other_sessions);
  } catch (error) {
    statusOf(form).textContent = failureText(error);
  } finally {
    button.disabled = false;
  }
  await showPasskeys();
}

async function endSession(session: Session, button: HTMLButtonElement): Promise<void> {
  const form = document.getElementById('sessions') as HTMLFormElement;
  button.disabled = true;
  const answer = await withReauthentication(() => call('DELETE', `/account/sessions/${encodeURIComponent(session.id)}` as const));
  report(form, answer, t('account.sessionEnded'));
  await showSessions();
}

function wireForms(): void {
  const add = document.getElementById('add-passkey') as HTMLFormElement;
  add.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = fieldText(new FormData(add), 'name').trim();
    void (async () => {
      statusOf(add).textContent = t('signup.working');
      try {
        // the options are refused (401) while the last passkey sign-in is old: confirmed before a passkey is made
        const answer = await withReauthentication(async () => {
          const options = await call('POST', '/account/passkey-options', {});
          if (options.status !== 200) return options as unknown as Answer<{ other_sessions: number }>;
          const credential = await startRegistration({ optionsJSON: options.body as PublicKeyCredentialCreationOptionsJSON });
          return call('POST', '/account/passkeys', { ...(name ? { name } : {}), credential });
        });
        if (report(add, answer, t('account.added'))) {
          add.reset();
          offerToEndOthers(answer.body.other_sessions);
        }
      } catch (error) {
        statusOf(add).textContent = failureText(error);
      }
      await showPasskeys();
    })();
  });

  /** Ends the other sessions, and with `connections` every connected app (OAuth grant) too; says how many of each. */
  const endOthers = async (form: HTMLFormElement, connections: boolean) => {
    const answer = await withReauthentication(() => call('DELETE', connections ? '/account/sessions?connections=all' : '/account/sessions'));
    const ended = answer.body?.ended ?? 0;
    const said = connections ? t('account.allEnded', { sessions: ended, connections: answer.body?.connections_ended ?? 0 }) : t('account.othersEnded', { count: ended });
    if (report(form, answer, said)) document.getElementById('end-others')!.hidden = true;
    await showSessions();
  };
  const sessions = document.getElementById('sessions') as HTMLFormElement;
  sessions.addEventListener('submit', (event) => {
    event.preventDefault();
    void endOthers(sessions, false);
  });
  document.getElementById('end-everything')!.addEventListener('click', () => void endOthers(sessions, true));
  document.querySelector('#end-others button')!.addEventListener('click', () => void endOthers(sessions, false));

  const signOut = document.getElementById('sign-out') as HTMLFormElement;
  signOut.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const answer = await call('DELETE', '/session');
      if (!report(signOut, answer, t('account.signedOutNotice'))) return;
      await leave();
    })();
  });

  const remove = document.getElementById('delete-account') as HTMLFormElement;
  remove.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!remove.querySelector<HTMLInputElement>('input[name=confirm]')!.checked) {
      remove.querySelector<HTMLInputElement>('input[name=confirm]')!.focus();
      statusOf(remove).textContent = t('account.deleteText');
      return;
    }
    void (async () => {
      const answer = await withReauthentication(() => call('DELETE', '/account', {}));
      if (answer.status === 409 && isProblem(answer, 'account-not-deletable')) return offerCancellation(remove, answer);
      if (!report(remove, answer, t('account.deleted'))) return;
      await leave();
    })();
  });
  document.querySelector('#delete-subscriptions button')!.addEventListener('click', (event) => void deleteWithCancellation(event.target as HTMLButtonElement));
}

/** The listings the refused deletion named (their ids are in its detail), by the names the dashboard shows. */
async function offerCancellation(form: HTMLFormElement, refused: Answer): Promise<void> {
  const ids = [...new Set(((refused.body as { detail?: string } | null)?.detail ?? '').match(/pl_[0-9a-f]{32}/g) ?? [])];
  const listed = await call('GET', '/partner/listings');
  const named = new Map(listed.status === 200 ? listed.body.listings.map((l) => [l.id, l.toilet_name === null ? l.name : `${l.name}, ${l.toilet_name}`]) : []);
  const offer = document.getElementById('delete-subscriptions')!;
  offer.querySelector('ul')!.replaceChildren(...ids.map((id) => el('li', { class: 'item' }, t('account.deleteSubsItem', { name: named.get(id) ?? id, id }))));
  offer.hidden = false;
  statusOf(form).textContent = t('account.deleteSubsFound');
  offer.querySelector('button')!.focus();
}

async function deleteWithCancellation(button: HTMLButtonElement): Promise<void> {
  const status = document.querySelector('#delete-subscriptions .form-status')!;
  button.disabled = true;
  try {
    const answer = await withReauthentication(() => call('DELETE', '/account', { confirm_cancellation: true }));
    if (answer.status === 401 && isProblem(answer, 'sign-in-required')) return toSignIn();
    status.textContent = answer.status < 300 ? t('account.deleted') : failureText(answer);
    if (answer.status < 300) return await leave();
  } catch (error) {
    status.textContent = failureText(error);
  }
  button.disabled = false;
}

/** Signed out or deleted: nothing of the visit stays in this browser, then the finder. */
async function leave(): Promise<void> {
  rememberSignedIn(false);
  await clearOfflineCopies();
  location.assign(localHref('/'));
}
