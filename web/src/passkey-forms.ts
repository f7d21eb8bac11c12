// Sign up (display name, optional e-mail, the human check, then a new passkey), sign in (the browser's
// passkey autofill on the field with autocomplete="username webauthn", and a button for the prompt) and
// the recovery-link landing (a new passkey with the operator's token from the link's fragment).
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { enableSubmit, fieldText, localHref, rememberSignedIn, t } from './common.js';
import { addHumanCheck, clearErrors, showFieldErrors, type Problem } from './contribute.js';
import { call, failureText, isProblem, nextHref, passkeySignIn, type Account, type Answer } from './account-api.js';

export function start(page: 'signup' | 'signin' | 'recover'): void {
  const form = document.querySelector<HTMLFormElement>('form.account-form')!;
  if (!browserSupportsWebAuthn()) {
    document.querySelector<HTMLElement>('.unsupported')!.hidden = false;
    for (const button of form.querySelectorAll('button')) button.disabled = true;
    return;
  }
  if (page === 'signup') signUp(form);
  else if (page === 'signin') {
    carryNextToSignUp();
    signIn(form);
  }
  else recover(form);
  enableSubmit(form);
}

/** A person sent here to sign in from a page (?next=) who has no account yet comes back there after signing up. */
function carryNextToSignUp(): void {
  const next = nextHref('');
  if (next === '') return;
  // carried as this site's path: the sign-up page checks it again, as this page did
  const { pathname, search, hash } = new URL(next);
  for (const link of document.querySelectorAll<HTMLAnchorElement>('main a[href^="/signup"]')) link.href = localHref(`/signup?next=${encodeURIComponent(`${pathname}${search}${hash}`)}`);
}

/** Runs one step of a form: its status line says what happens and what went wrong, field errors beside their fields. */
async function step(form: HTMLFormElement, working: string, run: () => Promise<Answer | null>, say: (refused: Answer) => string = failureText): Promise<void> {
  const status = form.querySelector('.form-status')!;
  const submit = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  clearErrors(form);
  status.textContent = working;
  submit.disabled = true;
  try {
    const refused = await run();
    if (refused !== null) {
      const unmatched = showFieldErrors(form, (refused.body ?? {}) as Problem);
      status.textContent = [say(refused), ...unmatched].join(' ');
    }
  } catch (error) {
    status.textContent = failureText(error);
  } finally {
    submit.disabled = false;
  }
}

function signUp(form: HTMLFormElement): void {
  void addHumanCheck(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const displayName = fieldText(data, 'display_name').trim();
    const email = fieldText(data, 'email').trim();
    const token = fieldText(data, 'challenge_token');
    if (token === '') {
      form.querySelector('.form-status')!.textContent = t('improve.humanCheck');
      return;
    }
    void step(form, t('signup.working'), async () => {
      const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', '/account/passkey-options', { display_name: displayName });
      if (options.status !== 200) return options;
      const credential = await startRegistration({ optionsJSON: options.body });
      const created = await call<Account>('POST', '/account', { display_name: displayName, ...(email ? { email } : {}), challenge_token: token, credential });
      // a challenge is used once: a refused request needs a new one
      (form.querySelector('altcha-widget') as (HTMLElement & { reset?: () => void }) | null)?.reset?.();
      if (created.status !== 201) return created;
      rememberSignedIn(true);
      location.assign(localHref(nextHref('/account')));
      return null;
    });
  });
}

function signIn(form: HTMLFormElement): void {
  const done = (answer: Answer<Account>): Answer | null => {
    if (answer.status !== 200) return answer;
    location.assign(localHref(nextHref('/account')));
    return null;
  };
  // the browser offers passkeys in the field's autofill; a choice there signs in without the button
  void browserSupportsWebAuthnAutofill().then((autofill) => {
    if (!autofill) return;
    passkeySignIn(true).then(
      (answer) => {
        const refused = done(answer);
        if (refused !== null) form.querySelector('.form-status')!.textContent = failureText(refused);
      },
      () => {
        // aborted when the person uses the button instead, or the autofill is dismissed: nothing to say
      },
    );
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void step(form, t('signin.working'), async () => done(await passkeySignIn(false)));
  });
}

function recover(form: HTMLFormElement): void {
  const token = location.hash.slice(1);
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) {
    form.hidden = true;
    form.insertAdjacentHTML('beforebegin', '<p class="notice-inline"></p>');
    form.previousElementSibling!.textContent = t('recover.noToken');
    return;
  }
  // the token leaves the address bar (and the history) once read
  history.replaceState(null, '', location.pathname + location.search);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = fieldText(new FormData(form), 'name').trim();
    let linkRefused = false;
    void step(form, t('signup.working'), async () => {
      const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', '/account/passkey-options', { recovery_token: token });
      linkRefused = isProblem(options, 'passkey-refused');
      if (options.status !== 200) return options;
      const credential = await startRegistration({ optionsJSON: options.body });
      const recovered = await call<Account>('POST', '/account/recovery', { recovery_token: token, ...(name ? { name } : {}), credential });
      if (recovered.status !== 201) return recovered;
      rememberSignedIn(true);
      location.assign(localHref('/account'));
      return null;
    }, (refused) => (linkRefused ? t('recover.gone') : failureText(refused)));
  });
}
