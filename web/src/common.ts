// What every page script shares: the page's language and texts, JSON requests to the public reads
// (credentials omitted: public reads carry no cookie), the demo-data notice from /status, the service
// worker's registration, and whether this browser is signed in. The session cookie is HttpOnly, so the
// page keeps a hint of its own (set at sign-in, removed at sign-out, deletion or when the server says the
// session ended): it names no one and holds no secret; the server decides every request by the cookie.
import { languageOf, LOCALES, text, type Language, type TextKey } from '../../src/web/text/catalogue.js';
import { loadTexts } from './texts.js';

export const lang: Language = languageOf(document.documentElement.lang);
/** The locale Intl formats with on this page. */
export const locale = LOCALES[lang];
await loadTexts(lang);

export function t(key: TextKey, vars?: Record<string, string | number>): string {
  return text(lang, key, vars);
}

/** A link on this site that keeps the language the page was served in when it was chosen in the URL. */
export function localHref(path: string): string {
  const chosen = new URLSearchParams(location.search).get('lang');
  return chosen === null ? path : `${path}${path.includes('?') ? '&' : '?'}lang=${chosen}`;
}

export interface JsonAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** A public read: no cookie sent, JSON parsed whatever the status (problem+json included). */
export async function getJson<T>(path: string): Promise<JsonAnswer<T>> {
  const response = await fetch(path, { credentials: 'omit', headers: { Accept: 'application/json' } });
  const body = (await response.json().catch(() => null)) as T;
  return { status: response.status, body, headers: response.headers };
}

/**
 * Server-rendered forms come with their submit buttons disabled: a click before the page wired the form would
 * submit it natively: a reload, with the fields in the address bar and the history. Called once wired.
 */
export function enableSubmit(form: HTMLFormElement): void {
  for (const button of form.querySelectorAll<HTMLButtonElement>('button[type=submit]')) button.disabled = false;
}

/** A form field's text ('' when absent). */
export function fieldText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}

/** The body's data attribute (the server puts the built assets' paths there). */
export function asset(name: 'mapCss' | 'mapWorker' | 'altchaCss' | 'altchaSha' | 'altchaPbkdf2'): string {
  return document.body.dataset[name] ?? '';
}

interface Status {
  demo?: boolean;
  region?: string | null;
  data_as_of?: string | null;
}

/** Shows the demo-data notice when /status says the data is the demo; nothing when it is absent or says no. */
async function showDemoNotice(): Promise<void> {
  const notice = document.getElementById('demo-notice');
  if (notice === null) return;
  try {
    const { status, body } = await getJson<Status>('/status');
    if (status !== 200 || body?.demo !== true) return;
    const date = body.data_as_of ? new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long' }).format(new Date(body.data_as_of)) : '?';
    notice.textContent = t('demo.notice', { region: body.region ?? '?', date });
    notice.hidden = false;
  } catch {
    // offline or no status endpoint: no notice
  }
}

function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    // an insecure origin or a browser setting: the site works without offline support
  });
}

/** Loads a stylesheet once (the map's and the human check's come only with them). */
export function loadCss(href: string): void {
  if (document.querySelector(`link[href="${CSS.escape(href)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.append(link);
}

/** Offers "Install as an app" where the browser allows it (it fires beforeinstallprompt). */
function offerInstall(): void {
  const button = document.getElementById('install') as HTMLButtonElement | null;
  if (button === null) return;
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    button.hidden = false;
    button.onclick = () => {
      button.hidden = true;
      void (event as Event & { prompt(): Promise<void> }).prompt();
    };
  });
}

const SIGNED_IN_KEY = 'signed-in';

/** Whether this browser signed in (a hint; the session cookie decides). */
export function signedIn(): boolean {
  return localStorage.getItem(SIGNED_IN_KEY) === '1';
}

export function rememberSignedIn(on: boolean): void {
  if (on) localStorage.setItem(SIGNED_IN_KEY, '1');
  else localStorage.removeItem(SIGNED_IN_KEY);
  showAccountLink();
}

/** Deletes what the service worker kept (its `clear` message): nothing of a signed-in visit stays offline. */
export async function clearOfflineCopies(): Promise<void> {
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  const worker = navigator.serviceWorker?.controller ?? registration?.active ?? null;
  worker?.postMessage({ type: 'clear' });
}

/** The header's account link: "Account" when signed in, else "Sign in" (as the server wrote it); signed in, the partner dashboard's link too. */
function showAccountLink(): void {
  const link = document.getElementById('account-link') as HTMLAnchorElement | null;
  if (link === null) return;
  link.dataset.signedOutHref ??= link.getAttribute('href') ?? '/signin';
  link.dataset.signedOutText ??= link.textContent ?? '';
  const on = signedIn();
  link.href = (on ? link.dataset.signedInHref : link.dataset.signedOutHref) ?? '/signin';
  link.textContent = (on ? link.dataset.signedInText : link.dataset.signedOutText) ?? '';
  const partner = document.getElementById('partner-link');
  if (partner !== null) partner.hidden = !on;
}

export function startPage(): void {
  registerServiceWorker();
  showAccountLink();
  offerInstall();
  void showDemoNotice();
}
