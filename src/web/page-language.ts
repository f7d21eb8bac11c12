// Which language a page is served in, and the cookie that keeps a choice: `?lang=` (the language switch's
// links, which also set the cookie), else the `lang` cookie, else the browser's Accept-Language, else
// English. The answer then varies by Accept-Language and Cookie, says its language in Content-Language
// (the service worker files its offline copy under it), and only the switch sets a cookie.
import { chooseLanguage, LOCALES, type Language } from './text/catalogue.js';

export const LANGUAGE_COOKIE = 'lang';
const YEAR_SECONDS = 365 * 24 * 3600;

export interface PageLanguage {
  lang: Language;
  /** The language was asked for in the URL (then the page's links keep it for cookie-less clients). */
  explicit: boolean;
  /** Headers of the answer: Content-Language, Vary, and Set-Cookie when the switch chose a language. */
  headers: string[];
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

export function pageLanguage(query: URLSearchParams, headers: { 'accept-language'?: string; cookie?: string }, secure: boolean): PageLanguage {
  const asked = query.get('lang');
  const lang = chooseLanguage(asked, headers['accept-language'] ?? '', cookieValue(headers.cookie ?? '', LANGUAGE_COOKIE));
  const explicit = asked === lang;
  const answer = ['Content-Language', LOCALES[lang], 'Vary', 'Accept-Language, Cookie'];
  if (explicit) answer.push('Set-Cookie', `${LANGUAGE_COOKIE}=${lang}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`);
  return { lang, explicit, headers: answer };
}
