// The frame of every server-rendered page: head (our one stylesheet, the app manifest, the page's module
// script, never inline code), header with navigation (its account link says "Sign in"; the page script
// turns it into "Account" in a signed-in browser, so the HTML stays the same for everyone and cacheable)
// and the language switch (each language named in itself; a signed-in browser also gets the partner dashboard's link), the demo-data notice slot, and the footer with the OpenStreetMap attribution.
// Pages pass their main content as HTML.
import { LANGUAGE_NAMES, LANGUAGES, LOCALES, text, type Language, type TextKey } from './text/catalogue.js';
import type { AssetManifest } from './assets.js';
import { escapeHtml } from './text/html.js';

export { escapeHtml };

export interface PageContext {
  lang: Language;
  /** true when the language came from ?lang= (then links keep it). */
  explicitLang: boolean;
  /** The page's path and query without lang, for the language switch. */
  path: string;
  assets: AssetManifest;
}

export interface PageContent {
  title: string;
  main: string;
  /** Logical name of the page's module script, if any. */
  script?: 'find.js' | 'toilet.js' | 'propose.js' | 'account.js';
  /** Extra attributes on <body> (data-* for the page script), already escaped. */
  bodyData?: Record<string, string>;
  /** A second skip link after "Skip to content" (the finder's list, past the search form and filters). */
  skipTo?: { href: string; label: string };
  /** A description for search engines and link previews. */
  description?: string;
  /** Cache-Control of the page (default no-cache); the account pages are no-store. */
  cacheControl?: string;
}

/** A path on this site, carrying the language when the person chose one. */
export function localPath(context: Pick<PageContext, 'lang' | 'explicitLang'>, path: string): string {
  if (!context.explicitLang) return path;
  return `${path}${path.includes('?') ? '&' : '?'}lang=${context.lang}`;
}

export function renderPage(context: PageContext, content: PageContent): string {
  const t = (key: TextKey, vars?: Record<string, string | number>) => escapeHtml(text(context.lang, key, vars));
  const { assets } = context;
  const data = {
    'data-map-css': assets['maplibre.css'],
    'data-map-worker': assets['maplibre-worker.js'],
    'data-altcha-css': assets['altcha.css'],
    'data-altcha-sha': assets['altcha-sha.js'],
    'data-altcha-pbkdf2': assets['altcha-pbkdf2.js'],
    ...content.bodyData,
  };
  const inLanguage = (lang: Language) => `${context.path}${context.path.includes('?') ? '&' : '?'}lang=${lang}`;
  // each language's name in itself; choosing one sets the cookie that keeps it (pages.ts)
  const switcher = LANGUAGES.map((lang) => {
    const current = lang === context.lang ? ' aria-current="true"' : ` hreflang="${LOCALES[lang]}"`;
    return `<li><a href="${escapeHtml(inLanguage(lang))}" lang="${LOCALES[lang]}"${current}>${LANGUAGE_NAMES[lang]}</a></li>`;
  }).join('');
  const alternates = LANGUAGES.map((lang) => `<link rel="alternate" hreflang="${LOCALES[lang]}" href="${escapeHtml(inLanguage(lang))}">`).join('\n');
  return `<!doctype html>
<html lang="${LOCALES[context.lang]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.title)}</title>
${content.description ? `<meta name="description" content="${escapeHtml(content.description)}">` : ''}
<meta name="theme-color" content="#0b5cad">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/icon-192.png">
<link rel="stylesheet" href="${assets['site.css']}">
${alternates}
${content.script ? `<link rel="modulepreload" href="${assets.languages[context.lang]}">\n<script type="module" src="${assets[content.script]}"></script>` : ''}
</head>
<body ${Object.entries(data).map(([k, v]) => `${k}="${escapeHtml(v)}"`).join(' ')}>
<a class="skip" href="#main">${t('skip.main')}</a>
${content.skipTo ? `<a class="skip" href="${escapeHtml(content.skipTo.href)}">${escapeHtml(content.skipTo.label)}</a>\n` : ''}<header class="top">
<a class="brand" href="${escapeHtml(localPath(context, '/'))}">${t('site.name')}</a>
<nav aria-label="${t('site.name')}">
<a href="${escapeHtml(localPath(context, '/'))}">${t('nav.find')}</a>
<a href="${escapeHtml(localPath(context, '/propose'))}">${t('nav.propose')}</a>
<a href="${escapeHtml(localPath(context, '/licenses'))}">${t('nav.licenses')}</a>
<a id="account-link" href="${escapeHtml(localPath(context, '/signin'))}" data-signed-in-href="${escapeHtml(localPath(context, '/account'))}" data-signed-in-text="${t('nav.account')}">${t('nav.signIn')}</a>
<a id="partner-link" href="${escapeHtml(localPath(context, '/partner'))}" hidden>${t('nav.partner')}</a>
</nav>
<nav class="lang" aria-label="${t('nav.language')}"><details><summary><span class="visually-hidden">${t('nav.language')}: </span>${LANGUAGE_NAMES[context.lang]}</summary><ul>${switcher}</ul></details></nav>
</header>
<p id="demo-notice" class="notice" hidden></p>
<main id="main">
${content.main}
</main>
<footer class="foot"><button type="button" id="install" hidden>${t('offline.install')}</button> <a href="https://www.openstreetmap.org/copyright" translate="no">${t('footer.attribution')}</a> · <a href="${escapeHtml(localPath(context, '/licenses'))}">${t('footer.sources')}</a></footer>
</body>
</html>
`;
}
