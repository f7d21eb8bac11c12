// Sends one contribution from a form: the self-hosted ALTCHA widget (its CSP-friendly build, loaded on
// first use, with same-origin workers) solves the server's challenge; ratings and votes carry the
// browser's device_id; the server's problem+json details appear next to the fields they name, and 429 and
// 503 say when to try again. Each challenge is used once, so the widget starts over after every send.
// A signed-in browser sends no challenge_token (the account passed a human check); should the server say
// the session ended, the form gets its human check and the person sends again, nothing typed lost.
import { asset, lang, loadCss, rememberSignedIn, signedIn, t } from './common.js';
import { fieldProblemText, problemText } from '../../src/web/text/problem.js';
import type { Language } from '../../src/web/text/catalogue.js';

const DEVICE_KEY = 'device-id';

/** The random number this browser keeps for ratings and votes (the server stores only its hash). */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (id === null || !/^[0-9a-f]{32}$/.test(id)) {
    id = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/** The human check's own texts per language: the name it registers them under, and the module (English is built in). */
const ALTCHA_TEXTS: Record<Language, [string, () => Promise<unknown>] | null> = {
  en: null,
  de: ['de', () => import('altcha/i18n/de')],
  fr: ['fr-fr', () => import('altcha/i18n/fr-fr')],
  it: ['it', () => import('altcha/i18n/it')],
  es: ['es-es', () => import('altcha/i18n/es-es')],
  pt: ['pt-pt', () => import('altcha/i18n/pt-pt')],
  nl: ['nl', () => import('altcha/i18n/nl')],
};

let altchaLoaded: Promise<void> | null = null;

function loadAltcha(): Promise<void> {
  altchaLoaded ??= (async () => {
    loadCss(asset('altchaCss'));
    await import('altcha/external');
    await ALTCHA_TEXTS[lang]?.[1]();
    const registry = (globalThis as unknown as { $altcha: { algorithms: Map<string, () => Worker> } }).$altcha.algorithms;
    for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512']) registry.set(algorithm, () => new Worker(asset('altchaSha')));
    for (const algorithm of ['PBKDF2/SHA-256', 'PBKDF2/SHA-384', 'PBKDF2/SHA-512']) registry.set(algorithm, () => new Worker(asset('altchaPbkdf2')));
  })();
  return altchaLoaded;
}

/** Readies a contribution form: the human check, or a line saying that a signed-in account needs none. */
export async function prepareContribution(form: HTMLFormElement): Promise<void> {
  const slot = form.querySelector<HTMLElement>('.human');
  if (slot === null) return;
  if (!signedIn()) return addHumanCheck(form);
  if (slot.childElementCount === 0) {
    const note = document.createElement('p');
    note.className = 'hint signed-in-note';
    note.textContent = t('improve.signedIn');
    slot.append(note);
  }
}

/** Puts the human check into the form's `.human` slot (once). */
export async function addHumanCheck(form: HTMLFormElement): Promise<void> {
  const slot = form.querySelector('.human');
  if (slot === null || slot.querySelector('altcha-widget') !== null) return;
  slot.querySelector('.signed-in-note')?.remove();
  await loadAltcha();
  const widget = document.createElement('altcha-widget');
  widget.setAttribute('challenge', '/api/v1/challenge');
  widget.setAttribute('name', 'challenge_token');
  widget.setAttribute('language', ALTCHA_TEXTS[lang]?.[0] ?? 'en');
  // the widget cannot fetch a challenge when contributions are off (503) or the budget is spent (429): say so
  widget.addEventListener('statechange', (event) => {
    if ((event as CustomEvent<{ state?: string }>).detail?.state === 'error') void explainChallengeFailure(form);
  });
  slot.append(widget);
}

async function explainChallengeFailure(form: HTMLFormElement): Promise<void> {
  const status = form.querySelector('.form-status')!;
  try {
    const response = await fetch('/api/v1/challenge', { credentials: 'omit', cache: 'no-store' });
    const refusal = refusalText(response);
    if (refusal !== null) status.textContent = refusal;
  } catch {
    status.textContent = t('improve.offline');
  }
}

/** What a 429 or 503 means for the person, with when to try again; null for other answers. */
function refusalText(response: Response): string | null {
  const retry = Number(response.headers.get('Retry-After'));
  const seconds = Number.isFinite(retry) && retry > 0 ? retry : null;
  if (response.status === 429) return seconds ? t('improve.tooMany', { seconds }) : t('improve.tooManyLater');
  if (response.status === 503) return seconds ? t('improve.unavailable', { seconds }) : t('improve.unavailableLater');
  return null;
}

function resetHumanCheck(form: HTMLFormElement): void {
  const widget = form.querySelector('altcha-widget') as (HTMLElement & { reset?: () => void }) | null;
  widget?.reset?.();
}

export interface Problem {
  type?: string;
  status?: number;
  title?: string;
  detail?: string;
  invalid_params?: { name: string; reason: string }[];
}

export function clearErrors(form: HTMLFormElement): void {
  for (const old of form.querySelectorAll('.field-error')) old.remove();
  for (const field of form.querySelectorAll('[aria-invalid]')) {
    const message = field.getAttribute('aria-errormessage');
    const described = (field.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '' && id !== message);
    if (described.length > 0) field.setAttribute('aria-describedby', described.join(' '));
    else field.removeAttribute('aria-describedby');
    field.removeAttribute('aria-invalid');
    field.removeAttribute('aria-errormessage');
  }
}

/**
 * Shows each invalid parameter next to its field (as `say` words it: by default the site's own words for
 * the field, never the server's English reason); returns the ones no field of the form matched.
 */
export function showFieldErrors(form: HTMLFormElement, problem: Problem, say = (param: { name: string; reason: string }) => fieldProblemText(lang, param.name)): string[] {
  const unmatched: string[] = [];
  for (const [index, param] of (problem.invalid_params ?? []).entries()) {
    const field = param.name.split('.').pop()!.replace(/\[\d+\]$/, '');
    const input = form.querySelector<HTMLElement>(`[name="${CSS.escape(field)}"]`);
    if (input === null) {
      unmatched.push(say(param));
      continue;
    }
    const error = document.createElement('p');
    error.className = 'field-error';
    error.id = `${form.dataset.op}-error-${index}`;
    error.textContent = say(param);
    const anchor = input.closest('fieldset') ?? input;
    anchor.after(error);
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-errormessage', error.id);
    // read with the field too (screen readers that skip aria-errormessage; axe asks for one of the two)
    input.setAttribute('aria-describedby', [input.getAttribute('aria-describedby'), error.id].filter(Boolean).join(' '));
  }
  return unmatched;
}

export interface SendResult {
  ok: boolean;
  body: unknown;
}

/**
 * POSTs `body` (plus the solved challenge) to `path` and says the outcome in the form's status line.
 * Resolves with the parsed answer when it succeeded.
 */
export async function send(form: HTMLFormElement, path: string, body: Record<string, unknown>, thanks: (answer: unknown) => string): Promise<SendResult> {
  const status = form.querySelector('.form-status')!;
  clearErrors(form);
  const token = new FormData(form).get('challenge_token');
  const solved = typeof token === 'string' && token !== '';
  const account = signedIn() && form.querySelector('altcha-widget') === null;
  if (!solved && !account) {
    status.textContent = t('improve.humanCheck');
    return { ok: false, body: null };
  }
  status.textContent = t('improve.sending');
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(solved ? { ...body, challenge_token: token } : body),
    });
  } catch {
    status.textContent = t('improve.offline');
    return { ok: false, body: null };
  }
  const answer = (await response.json().catch(() => ({}))) as Problem;
  resetHumanCheck(form);
  if (response.ok) {
    status.textContent = thanks(answer);
    return { ok: true, body: answer };
  }
  // the daily limit lasts until the next UTC day: said as "tomorrow", not in seconds
  const refusal = answer.type?.endsWith('/problems/daily-limit') ? problemText(lang, answer, response.status) : refusalText(response);
  if (refusal !== null) status.textContent = refusal;
  else if (!solved && response.status === 403 && answer.type?.endsWith('/problems/human-check-failed')) {
    // the session ended (signed out elsewhere, expired): the human check it spared is needed again
    rememberSignedIn(false);
    await addHumanCheck(form);
    status.textContent = t('improve.sessionEnded');
  } else {
    showFieldErrors(form, answer);
    status.textContent = t('improve.failed', { detail: problemText(lang, answer, response.status) });
  }
  return { ok: false, body: answer };
}
