// The site's server-rendered pages: the finder (`/`, which also answers a place search without
// JavaScript), the page of one toilet (`/t/<id>`, shareable and crawlable), the proposal form
// (`/propose`), the account pages (account-pages.ts), the licence page every attribution links to and the
// service worker's offline page (info-pages.ts), and the small configuration the front end reads
// (`/app-config.json`). Each page comes in the language page-language.ts chooses, under the strict CSP
// of csp.ts; the front end (web/, see assets.ts) enhances them.
import type { HttpServer, HttpRequestInfo } from '../http/server.js';
import type { HttpReply } from '../http/reply.js';
import type { Problems } from '../http/problem.js';
import type { ToiletCatalog } from '../toilets/catalog.js';
import type { Reads } from '../api/reads.js';
import type { Config } from '../config.js';
import { Assets } from './assets.js';
import { contentSecurityPolicy } from './csp.js';
import { escapeHtml, localPath, renderPage, type PageContent, type PageContext } from './layout.js';
import { text, type Language, type TextKey } from './text/catalogue.js';
import './text/catalogues.js';
import { pageLanguage } from './page-language.js';
import { licensesPage, offlinePage } from './info-pages.js';
import { resultItemHtml } from './text/html.js';
import { displayName, type Attribution, type FindResult, type ToiletItem } from './text/item.js';
import { renderToiletMain } from './toilet-page.js';
import { keyPage } from './key-pages.js';
import type { ToiletDetails } from '../rules/details.js';
import type { SiteTitle } from '../rules/site-title.js';
import { ACCOUNT_PAGES, accountPage, type PartnerPayments } from './account-pages.js';

export interface PageDeps {
  config: Config;
  catalog: ToiletCatalog;
  reads: Reads;
  problems: Problems;
  now: () => number;
  /** The built front end; default: dist/web. */
  assets?: Assets;
  /** The site's title of an unnamed toilet (src/overview), or null; default: none. */
  siteTitle?: (id: string) => SiteTitle | null;
}

export const FILTERS = ['open_now', 'wheelchair', 'changing_table', 'free', 'no_purchase_needed'] as const;
const PAGE_HEADERS = ['accept-language', 'cookie'];

export function registerPages(server: HttpServer, deps: PageDeps): void {
  const { config, catalog } = deps;
  const reading: PageReads = { ...deps, siteTitle: deps.siteTitle ?? (() => null) };
  const assets = deps.assets ?? new Assets();
  const csp = contentSecurityPolicy(config);
  assets.register(server, deps.problems, csp);
  const page = (pattern: string, build: (request: HttpRequestInfo, context: PageContext, query: URLSearchParams) => PageContent & { status?: number }) =>
    server.route({ method: 'GET', pattern, headers: PAGE_HEADERS, contentSecurityPolicy: csp, handler: (request) => pageAnswer(request, config, assets, (context, query) => build(request, context, query)) });

  page('/', (_request, context, query) => findPage(reading, context, query));
  page('/t/:id', (request, context) => toiletPage(reading, context, request.params.id));
  page('/keys/:system', (request, context) => keyPage(context, request.params.system));
  page('/propose', (_request, context, query) => proposePage(context.lang, query));
  page('/licenses', (_request, context) => licensesPage(context, catalog.snapshot.info, catalog.snapshot.table.count, config));
  page('/offline', (_request, context) => offlinePage(context));
  const payments: PartnerPayments = config.billing === null ? 'closed' : config.billing.automaticTax ? 'vat' : 'net';
  for (const [path, account] of Object.entries(ACCOUNT_PAGES)) page(path, (_request, context) => accountPage(context, account, payments));

  const appConfig = JSON.stringify({ tiles_url: '/tiles/tiles.json', map_style_url: config.mapStyleUrl, status_url: '/status' });
  server.route({
    method: 'GET',
    pattern: '/app-config.json',
    handler: () => ({ status: 200, headers: ['Content-Type', 'application/json', 'Cache-Control', 'no-cache'], body: appConfig }),
  });
}

/** What the finder and a toilet's page read: the answers, the data's coverage, the clock, the sites' titles. */
type PageReads = Pick<PageDeps, 'catalog' | 'reads' | 'now'> & { siteTitle: (id: string) => SiteTitle | null };

/** A page in the language the request chooses (`?lang=` taken off the page's own path), as HTML. */
function pageAnswer(request: HttpRequestInfo, config: Config, assets: Assets, build: (context: PageContext, query: URLSearchParams) => PageContent & { status?: number }): HttpReply {
  const query = new URLSearchParams(request.query);
  const language = pageLanguage(query, request.headers, config.baseUrl.startsWith('https:'));
  query.delete('lang');
  const rest = query.toString();
  const context: PageContext = { lang: language.lang, explicitLang: language.explicit, path: request.path + (rest ? `?${rest}` : ''), assets: assets.manifest };
  const content = build(context, query);
  return {
    status: content.status ?? 200,
    headers: [
      'Content-Type', 'text/html; charset=utf-8',
      // pages change with contributions and the data; revalidating is cheap (the assets are immutable)
      'Cache-Control', content.cacheControl ?? 'no-cache',
      ...language.headers,
    ],
    body: renderPage(context, content),
  };
}

/** The landing page; `?place=` (the no-JavaScript search form) renders the nearest toilets too. */
function findPage({ catalog, reads, now, siteTitle }: PageReads, context: PageContext, query: URLSearchParams): PageContent {
  const t = (key: TextKey, vars?: Record<string, string | number>) => escapeHtml(text(context.lang, key, vars));
  const place = query.get('place')?.trim() ?? '';
  const checked = new Set(FILTERS.filter((f) => query.get(f) === 'true'));
  let results = '';
  let message = '';
  if (place.length >= 2 && place.length <= 200) {
    const filters = { open_now: false, wheelchair: false, changing_table: false, free: false, no_purchase_needed: false };
    for (const filter of checked) filters[filter] = true;
    try {
      const answer = reads.findNear({ place, limit: 20, ...filters }, now());
      // a remote geocoder answers later; the page then leaves the search to the front end
      if (!(answer instanceof Promise)) {
        const found = JSON.parse(answer.toString('utf8')) as FindResult;
        if (found.status === 'place_not_found') message = t('find.placeNotFound', { place });
        else if (found.results.length === 0) message = t('find.none');
        else message = t('find.nearestTo', { label: found.origin?.label ?? place });
        results = found.results.map((item, i) => resultItemHtml(context.lang, item, localPath(context, `/t/${encodeURIComponent(item.id)}`), siteTitle(item.id), i + 1)).join('');
      }
    } catch {
      message = '';
    }
  }
  // the map's first view: the data's coverage (web/src/find.ts fits it into the map's box)
  const bounds = catalog.snapshot.info.coverage?.bounds;
  const coverage = bounds ? ` data-coverage="${bounds.join(',')}"` : '';
  return {
    title: text(context.lang, 'site.name'),
    description: text(context.lang, 'site.tagline'),
    script: 'find.js',
    skipTo: { href: '#results', label: text(context.lang, 'skip.results') },
    main: `<h1 class="visually-hidden">${t('find.heading')}</h1>
<form id="search" class="search" role="search" action="/" method="get">
${context.explicitLang ? `<input type="hidden" name="lang" value="${context.lang}">` : ''}
<div class="search-row">
<button type="button" id="near-me" class="primary" hidden>${t('find.nearMe')}</button>
<label for="place" class="visually-hidden">${t('find.place')}</label>
<input id="place" name="place" type="search" minlength="2" maxlength="200" autocomplete="off" placeholder="${t('find.placeHint')}" value="${escapeHtml(place)}">
<button type="submit">${t('find.search')}</button>
</div>
<fieldset class="filters"><legend>${t('find.filters')}</legend>
${FILTERS.map((f) => `<label><input type="checkbox" name="${f}" value="true"${checked.has(f) ? ' checked' : ''}> ${t(`filter.${f}`)}</label>`).join('\n')}
</fieldset>
</form>
<p id="find-message" class="message" role="status" aria-live="polite">${message || t('find.needsLocation')}</p>
<div class="finder">
<section id="results" class="results" aria-labelledby="results-heading" tabindex="-1">
<h2 id="results-heading" class="visually-hidden">${t('find.results')}</h2>
<ol id="result-list" class="result-list">${results}</ol>
</section>
<div id="map-wrap" class="map-wrap"${coverage}>
<div id="map" class="map" role="region" aria-label="${t('find.map')}"></div>
<button type="button" id="map-size" class="map-size" aria-pressed="false" hidden>${t('find.largerMap')}</button>
<p id="map-message" class="map-message" role="status" aria-live="polite"></p>
</div>
</div>
<div id="offline-tools" class="offline-tools" hidden>
<button type="button" id="save-area">${t('offline.save')}</button>
<span id="save-status" role="status" aria-live="polite"></span>
<a href="${escapeHtml(localPath(context, '/licenses'))}#dumps">${t('offline.dumps')}</a>
</div>`,
  };
}

/** One toilet's page, or the 404 page when no toilet has the id (or a moderator marked it gone). */
function toiletPage({ catalog, reads, now, siteTitle }: PageReads, context: PageContext, id: string): PageContent & { status?: number } {
  const json = reads.toilet(id, now());
  if (json === null) {
    return { status: 404, title: text(context.lang, 'toilet.notFound'), main: `<h1>${escapeHtml(text(context.lang, 'toilet.notFound'))}</h1><p>${escapeHtml(text(context.lang, 'toilet.notFoundText'))}</p>` };
  }
  const { toilet, details, attribution } = JSON.parse(json.toString('utf8')) as { toilet: ToiletItem; details?: ToiletDetails; attribution: Attribution };
  const detailsPending = catalog.snapshot.info.missing.includes('details');
  const title = siteTitle(toilet.id);
  return {
    title: `${displayName(context.lang, toilet, title)} – ${text(context.lang, 'site.name')}`,
    description: [text(context.lang, `access.${toilet.access === 'scheme' ? 'schemeUnnamed' : toilet.access}`), text(context.lang, `wheelchair.${toilet.wheelchair}`)].join(' '),
    script: 'toilet.js',
    main: renderToiletMain(context, toilet, attribution, details, detailsPending, title),
  };
}

function proposePage(lang: Language, query: URLSearchParams): PageContent {
  const t = (key: TextKey, vars?: Record<string, string | number>) => escapeHtml(text(lang, key, vars));
  const coordinate = (name: string) => {
    const value = Number(query.get(name));
    return query.get(name) !== null && Number.isFinite(value) ? value.toFixed(6) : '';
  };
  const select = (name: string, label: TextKey, options: string[]) =>
    `<label for="p-${name}">${t(label)}</label><select id="p-${name}" name="${name}">${options.map((o) => `<option value="${o}">${t(`opt.${o}` as TextKey)}</option>`).join('')}</select>`;
  return {
    title: `${text(lang, 'propose.heading')} – ${text(lang, 'site.name')}`,
    script: 'propose.js',
    main: `<h1>${t('propose.heading')}</h1>
<p>${t('propose.intro')}</p>
<div id="map-wrap" class="map-wrap propose-map" hidden><div id="map" class="map" role="region" aria-label="${t('find.map')}"></div><p class="hint">${t('propose.mapHint')}</p></div>
<form id="propose" class="propose" data-op="propose" novalidate>
<button type="button" id="p-here" hidden>${t('propose.here')}</button>
<div class="pair"><div><label for="p-lat">${t('propose.lat')}</label><input id="p-lat" name="lat" inputmode="decimal" required value="${coordinate('lat')}"></div>
<div><label for="p-lon">${t('propose.lon')}</label><input id="p-lon" name="lon" inputmode="decimal" required value="${coordinate('lon')}"></div></div>
<label for="p-name">${t('propose.name')}</label><input id="p-name" name="name" maxlength="120">
${select('access', 'propose.access', ['unknown', 'public', 'permissive', 'customers'])}
${select('fee', 'propose.fee', ['unknown', 'free', 'fee'])}
<label for="p-opening_hours">${t('propose.hours')}</label><input id="p-opening_hours" name="opening_hours" maxlength="200">
${select('wheelchair', 'propose.wheelchair', ['unknown', 'yes', 'limited', 'no'])}
${select('changing_table', 'propose.changing', ['unknown', 'yes', 'no'])}
<label for="p-note">${t('propose.note')}</label><textarea id="p-note" name="note" maxlength="500" rows="3"></textarea>
<div class="human"></div>
<button type="submit" class="primary" disabled>${t('improve.send')}</button>
<p class="form-status" role="status" aria-live="polite"></p>
<noscript><p>${t('improve.needsJs')}</p></noscript>
</form>`,
  };
}
