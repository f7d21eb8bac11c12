// Two pages of few facts: the licence page every attribution links to (sources, licences, the data's date
// and coverage, the dumps), and the offline page the service worker shows for a page it has not kept
// (web/src/sw.ts keeps one per language). Both in the page's language; names of sources and licences stay
// as they are (translate="no"), the links sit inside the catalogue's sentences.
import type { Config } from '../config.js';
import type { SourceInfo } from '../toilets/snapshot.js';
import { escapeHtml, localPath, type PageContent, type PageContext } from './layout.js';
import { text, type Language, type TextKey } from './text/catalogue.js';
import { decimal, longDate } from './text/format.js';

interface Link {
  href: string;
  label: string;
}

/** The text of `key` as HTML, with each `{name}` of `links` a link (its label escaped, proper names not translated). */
function withLinks(lang: Language, key: TextKey, links: Record<string, Link>, vars: Record<string, string | number> = {}): string {
  const marks = Object.fromEntries(Object.keys(links).map((name, i) => [name, `\u0001${i}\u0001`]));
  const html = escapeHtml(text(lang, key, { ...vars, ...marks }));
  return Object.values(links).reduce(
    (done, link, i) => done.replace(`\u0001${i}\u0001`, `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`),
    html,
  );
}

/** A date of the source info ("2026-11-30T21:00:00Z") in words, or the given text when there is none. */
function when(lang: Language, iso: string | null, none: TextKey): string {
  return iso !== null && !Number.isNaN(Date.parse(iso)) ? longDate(lang, iso) : text(lang, none);
}

export function licensesPage(context: PageContext, info: SourceInfo, toilets: number, config: Pick<Config, 'baseUrl' | 'mapStyleUrl'>): PageContent {
  const { lang } = context;
  const t = (key: TextKey, vars?: Record<string, string | number>) => escapeHtml(text(lang, key, vars));
  const coverage = info.coverage
    ? t('lic.coverage', { name: info.coverage.name, west: decimal(lang, info.coverage.bounds[0], 5), south: decimal(lang, info.coverage.bounds[1], 5), east: decimal(lang, info.coverage.bounds[2], 5), north: decimal(lang, info.coverage.bounds[3], 5) })
    : t('lic.noCoverage');
  const dumps = (file: string) => `${config.baseUrl}/dumps/${file}`;
  return {
    title: text(lang, 'lic.title'),
    main: `<h1>${t('lic.title')}</h1>
<h2 translate="no">OpenStreetMap</h2>
<p>${withLinks(lang, 'lic.osmText', {
      contributors: { href: 'https://www.openstreetmap.org/copyright', label: text(lang, 'lic.contributors') },
      license: { href: 'https://opendatacommons.org/licenses/odbl/1-0/', label: 'Open Database License (ODbL) 1.0' },
    })}</p>
<p>${t('lic.extract', { file: info.sourceFile ?? text(lang, 'lic.noExtract'), date: when(lang, info.dataAsOf, 'lic.unknown'), imported: when(lang, info.importedAt, 'lic.never') })}
${t('lic.count', { count: toilets })}</p>
<p>${coverage}${info.demo ? ` ${t('lic.demo')}` : ''}</p>
<h2 id="dumps">${t('lic.dumps')}</h2>
<p>${withLinks(lang, 'lic.dumpsText', {
      geojson: { href: dumps('toilets.geojson.gz'), label: 'GeoJSON' },
      csv: { href: dumps('toilets.csv.gz'), label: 'CSV' },
      notice: { href: dumps('NOTICE.txt'), label: text(lang, 'lic.notice') },
    })}</p>
<h2>${t('lic.basemap')}</h2>
<p>${t('lic.basemapText')}${config.mapStyleUrl ? ` ${t('lic.basemapExternal', { host: new URL(config.mapStyleUrl).host })}` : ''}</p>
<h2 translate="no">GeoNames</h2>
<p>${withLinks(lang, 'lic.geonamesText', {
      geonames: { href: 'https://www.geonames.org/', label: 'GeoNames' },
      license: { href: 'https://creativecommons.org/licenses/by/4.0/', label: 'CC BY 4.0' },
    })}</p>
<h2>${t('lic.borders')}</h2>
<p>${t('lic.bordersText')}</p>`,
  };
}

/** What the service worker shows offline for a page it has not kept: why, and what still works. */
export function offlinePage(context: PageContext): PageContent {
  const t = (key: TextKey) => escapeHtml(text(context.lang, key));
  return {
    title: `${text(context.lang, 'offline.heading')} – ${text(context.lang, 'site.name')}`,
    main: `<h1>${t('offline.heading')}</h1>
<p>${t('offline.text')}</p>
<p><a class="button primary" href="${escapeHtml(localPath(context, '/'))}">${t('offline.finder')}</a></p>
<p class="hint">${t('offline.retry')}</p>`,
  };
}
