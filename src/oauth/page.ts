// The frame of the /oauth pages (authorization, consent, connections, errors): plain server-rendered
// HTML with one small stylesheet and, where a person must sign in, one small script, both served from
// /oauth/ (no inline code). Their Content-Security-Policy allows our own files only and forbids framing;
// it has no form-action, because Chromium applies form-action to the redirect that follows the consent
// form, and that redirect goes to the client's registered redirect URI. Each page is in the visitor's
// language (text/texts.ts), and says so (lang, Content-Language, Vary).
import type { Refusal } from '../api/guards.js';
import type { HeaderList, HttpReply } from '../http/reply.js';
import type { HttpServer } from '../http/server.js';
import { pageContentSecurityPolicy } from '../http/security-headers.js';
import type { HttpRequestInfo } from '../http/server.js';
import type { PageLanguage } from '../web/page-language.js';
import { NO_STORE, unavailableStorage } from './answers.js';
import type { Logger } from '../log.js';
import { STORAGE_RETRY_SECONDS } from '../api/server-hooks.js';
import { escapeHtml, LOCALES, requestLanguage, say, sayHtml, type Language } from './text/texts.js';

export { escapeHtml };

export const OAUTH_PAGE_CSP = pageContentSecurityPolicy([
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
]);

const STYLE_PATH = '/oauth/oauth.css';
const SCRIPT_PATH = '/oauth/sign-in.js';

export interface OAuthPage {
  /** The visitor's language and the headers that go with it (requestLanguage). */
  language: PageLanguage;
  title: string;
  /** The page's main content, already escaped. */
  main: string;
  status?: number;
  /** Loads the passkey sign-in script (a page that asks the person to sign in). */
  signIn?: boolean;
}

export function renderOAuthPage(page: OAuthPage): HttpReply {
  const { lang, headers } = page.language;
  const body = `<!doctype html>
<html lang="${LOCALES[lang]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · ${escapeHtml(say(lang, 'page.brand'))}</title>
<link rel="stylesheet" href="${STYLE_PATH}">
${page.signIn ? `<script type="module" src="${SCRIPT_PATH}"></script>` : ''}
</head>
<body>
<header><a class="brand" href="/">${escapeHtml(say(lang, 'page.brand'))}</a></header>
<main id="main">
<h1>${escapeHtml(page.title)}</h1>
${page.main}
</main>
</body>
</html>
`;
  return { status: page.status ?? 200, headers: ['Content-Type', 'text/html; charset=utf-8', ...NO_STORE, ...headers], body };
}

/**
 * A page of ours for a request that cannot go on (nor go back to the app): what happened in the visitor's
 * language; for the app's developer, the RFC 6749 error code and, where there is one, its English description.
 */
export function errorPage(language: PageLanguage, status: number, title: string, detail: string, developer?: { code: string; detail?: string }): HttpReply {
  const { lang } = language;
  const code = developer === undefined ? '' : `\n<p class="hint">${sayHtml(lang, 'error.code', { code: `<code>${escapeHtml(developer.code)}</code>` })}</p>`;
  const details = developer?.detail === undefined ? '' : `\n<p class="hint">${sayHtml(lang, 'error.details', { detail: escapeHtml(developer.detail) })}</p>`;
  return renderOAuthPage({ language, title, main: `<p>${escapeHtml(detail)}</p>${details}${code}`, status });
}

/** The page `answer` makes, or while the storage cannot take what it needs, the 503 page (unavailablePage). */
export async function orUnavailablePage(request: HttpRequestInfo, secure: boolean, log: Logger, answer: (language: PageLanguage) => Promise<HttpReply>): Promise<HttpReply> {
  const language = requestLanguage(request, secure);
  try {
    return await answer(language);
  } catch (error) {
    const trouble = unavailableStorage(error, log, request.path);
    if (trouble === null) throw error;
    return unavailablePage(language, trouble);
  }
}

/** The page while the storage cannot take what the page needs (503, Retry-After): the RFC's code, and what keeps it. */
export function unavailablePage(language: PageLanguage, trouble: string): HttpReply {
  const { lang } = language;
  const page = errorPage(language, 503, say(lang, 'error.unavailableTitle'), say(lang, 'error.unavailable', { seconds: STORAGE_RETRY_SECONDS }), { code: 'temporarily_unavailable', detail: trouble });
  return { ...page, headers: [...(page.headers ?? []), 'Retry-After', String(STORAGE_RETRY_SECONDS)] };
}

/**
 * How the pages answer a refusal of the guard chain (rate limit, other origin, body size): a page with the
 * chain's headers. `secure`: BASE_URL is https (the language cookie is then Secure).
 */
export function pageRefusal(secure: boolean) {
  return (refusal: Refusal, context: { headers: HeaderList }, request: HttpRequestInfo, status: number): HttpReply => refusalPage(refusal, context, requestLanguage(request, secure), status);
}

function refusalPage(refusal: Refusal, context: { headers: HeaderList }, language: PageLanguage, status: number): HttpReply {
  // the guard's own wording speaks of contributions; here the form is an approval or a revocation; other details stay the guard's (English)
  const detail = refusal.slug === 'other-origin' ? say(language.lang, 'error.otherOrigin') : refusal.detail;
  const page = renderOAuthPage({ language, title: say(language.lang, 'error.refusedTitle'), main: `<p>${escapeHtml(detail)}</p>`, status });
  const retry = refusal.retryAfterSeconds === undefined ? [] : ['Retry-After', String(refusal.retryAfterSeconds)];
  return { ...page, headers: [...(page.headers ?? []), ...context.headers, ...retry] };
}

/**
 * The sign-in block of a page whose person is not signed in: passkey sign-in here (then the page reloads), or
 * the site's sign-up page, which comes back to `returnPath` (its `?next=`).
 */
export function signInBlock(lang: Language, what: string, returnPath: string): string {
  const next = encodeURIComponent(returnPath);
  const link = `<a href="/signup?next=${next}">${escapeHtml(say(lang, 'signIn.create'))}</a>`;
  return `<p>${escapeHtml(what)}</p>
<p>${passkeyButton(lang, 'signIn.button')}</p>
<p id="sign-in-status" role="status" aria-live="polite"></p>
<p class="hint">${sayHtml(lang, 'signIn.noAccount', { link })}</p>`;
}

/** The passkey button; the script's messages ride on it in the page's language. */
function passkeyButton(lang: Language, label: 'signIn.button' | 'confirm.button'): string {
  const data = (['waiting', 'done', 'unsupported', 'failed'] as const).map((name) => ` data-${name}="${escapeHtml(say(lang, `signIn.${name}`))}"`).join('');
  return `<button type="button" id="sign-in" class="primary"${data}>${escapeHtml(say(lang, label))}</button>`;
}

/** The block of a page whose person is signed in, but not with a passkey recently enough: the passkey again, then the page reloads. */
export function confirmBlock(lang: Language, what: string): string {
  return `<p>${escapeHtml(what)}</p>
<p>${passkeyButton(lang, 'confirm.button')}</p>
<p id="sign-in-status" role="status" aria-live="polite"></p>`;
}

const STYLE = `:root{color-scheme:light dark;--accent:#0b5cad;--line:#8884}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif}
header{padding:.75rem 1rem;border-bottom:1px solid var(--line)}
.brand{font-weight:600;text-decoration:none;color:inherit}
main{max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;line-height:1.25}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
@media (max-width:30rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.75rem}}
ul.grants{padding-left:1.25rem}
.warning{border-left:4px solid #c60;padding:.25rem .75rem}
.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}
button{font:inherit;min-height:44px;padding:.5rem 1.25rem;border-radius:.5rem;border:1px solid var(--line);background:transparent;color:inherit;cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.5rem .25rem;border-bottom:1px solid var(--line);vertical-align:top}
.hint{color:#666}
@media (prefers-color-scheme:dark){.hint{color:#aaa}}
`;

// Chromium, Firefox and Safari parse and serialise WebAuthn JSON themselves (parseRequestOptionsFromJSON,
// toJSON), so this needs no library.
const SCRIPT = `const button = document.getElementById('sign-in');
const status = document.getElementById('sign-in-status');
const post = async (path, body) => {
  const response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.detail || button.dataset.failed);
  return answer;
};
button?.addEventListener('click', async () => {
  button.disabled = true;
  status.textContent = button.dataset.waiting;
  try {
    if (!window.PublicKeyCredential?.parseRequestOptionsFromJSON) throw new Error(button.dataset.unsupported);
    const options = await post('/api/v1/session/options');
    const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    await post('/api/v1/session', { credential: credential.toJSON() });
    status.textContent = button.dataset.done;
    location.reload();
  } catch (error) {
    status.textContent = error instanceof Error ? error.message : String(error);
    button.disabled = false;
  }
});
`;

export function registerPageAssets(server: HttpServer): void {
  for (const [pattern, type, body] of [[STYLE_PATH, 'text/css; charset=utf-8', STYLE], [SCRIPT_PATH, 'text/javascript; charset=utf-8', SCRIPT]]) {
    const reply: HttpReply = { status: 200, headers: ['Content-Type', type, 'Cache-Control', 'no-cache'], body };
    server.route({ method: 'GET', pattern, handler: () => reply });
  }
}
