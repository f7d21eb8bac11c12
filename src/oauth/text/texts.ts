// The /oauth pages in the visitor's language, chosen as the site's pages choose it (src/web/page-language.ts:
// ?lang=, the switch's cookie, Accept-Language, else English). Their texts are a catalogue of this folder's
// own, not the site's: the site's catalogues are what the front end downloads, and these pages are only
// rendered here. `say` gives plain text, `sayHtml` escapes the template and puts in markup made by the page.
import type { HttpRequestInfo } from '../../http/server.js';
import { LOCALES, type Language } from '../../web/text/catalogue.js';
import { pageLanguage, type PageLanguage } from '../../web/page-language.js';
import { en, type PageTexts } from './en.js';
import { de } from './de.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { es } from './es.js';
import { pt } from './pt.js';
import { nl } from './nl.js';

export type PageTextKey = keyof typeof en;
export type { PageTexts };
export const PAGE_TEXTS: Record<Language, PageTexts> = { en, de, fr, it, es, pt, nl };
/** The request headers a page reads to choose its language. */
export const LANGUAGE_HEADERS = ['accept-language', 'cookie'] as const;

export { LOCALES, type Language };

function fill(template: string, vars: Record<string, string | number>, lang: Language): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = vars[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? value.toLocaleString(LOCALES[lang]) : value;
  });
}

export function say(lang: Language, key: PageTextKey, vars: Record<string, string | number> = {}): string {
  return fill(PAGE_TEXTS[lang][key], vars, lang);
}

/** The text as HTML: the template escaped, `markup` values put in as they are (the page made and escaped them). */
export function sayHtml(lang: Language, key: PageTextKey, markup: Record<string, string | number> = {}): string {
  return fill(escapeHtml(PAGE_TEXTS[lang][key]), markup, lang);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page language of a request (the route lists LANGUAGE_HEADERS); Content-Language and Vary go with the page. */
export function requestLanguage(request: Pick<HttpRequestInfo, 'query' | 'headers'>, secure: boolean): PageLanguage {
  return pageLanguage(new URLSearchParams(request.query), request.headers, secure);
}

/** A day as HTML: the language's own short form (UTC), with its ISO date for machines. */
export function formatDay(lang: Language, ms: number): string {
  const day = new Date(ms).toISOString().slice(0, 10);
  return `<time datetime="${day}">${escapeHtml(new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium', timeZone: 'UTC' }).format(ms))}</time>`;
}
