// A page per central key system (/keys/radar, /keys/eurokey): what the key is, who may have one and where
// to get it, linked from the details of every toilet that opens with it (toilet-details.ts).
import { NAMED_KEY_SYSTEMS } from '../rules/details.js';
import { text, type TextKey } from './text/catalogue.js';
import { escapeHtml } from './text/html.js';
import { localPath, type PageContent, type PageContext } from './layout.js';

type NamedKeySystem = (typeof NAMED_KEY_SYSTEMS)[number];

/** The organisation that runs each system, where its keys are ordered. */
const OFFICIAL_SITES: Record<NamedKeySystem, string> = {
  radar: 'https://www.disabilityrightsuk.org/',
  eurokey: 'https://www.cbf-da.de/',
};

/** Names the texts keep in their own language in every catalogue, marked so that no translator changes them. */
const PROPER_NAMES = ['Royal Association for Disability and Rehabilitation', 'National Key Scheme', 'Disability Rights UK', 'CBF Darmstadt', 'Der Locus', 'Pro Infirmis'];
const PROPER_NAME = new RegExp(PROPER_NAMES.join('|'), 'g');

/** Escaped text with its proper names marked translate="no". */
function withNames(escaped: string): string {
  return escaped.replace(PROPER_NAME, (name) => `<span translate="no">${name}</span>`);
}

function isNamedKeySystem(value: string): value is NamedKeySystem {
  return (NAMED_KEY_SYSTEMS as readonly string[]).includes(value);
}

/** The page of key system `system`, or a 404 page listing the systems there are pages for. */
export function keyPage(context: PageContext, system: string): PageContent & { status?: number } {
  const t = (key: TextKey, vars?: Record<string, string | number>) => withNames(escapeHtml(text(context.lang, key, vars)));
  const link = (s: NamedKeySystem) => `<li><a href="${escapeHtml(localPath(context, `/keys/${s}`))}">${t(`keys.${s}.name`)}</a></li>`;
  if (!isNamedKeySystem(system)) {
    return {
      status: 404,
      title: text(context.lang, 'keys.notFound'),
      main: `<h1>${t('keys.notFound')}</h1><p>${t('keys.notFoundText')}</p><ul>${NAMED_KEY_SYSTEMS.map(link).join('')}</ul>`,
    };
  }
  const site = OFFICIAL_SITES[system];
  const others = NAMED_KEY_SYSTEMS.filter((s) => s !== system);
  return {
    title: `${text(context.lang, `keys.${system}.name`)} – ${text(context.lang, 'site.name')}`,
    description: text(context.lang, `keys.${system}.what`),
    cacheControl: 'public, max-age=3600',
    main: `<article class="key-system">
<p class="hint">${t('keys.heading')}</p>
<h1>${t(`keys.${system}.name`)}</h1>
<section aria-labelledby="h-what"><h2 id="h-what">${t('keys.whatHeading')}</h2><p>${t(`keys.${system}.what`)}</p></section>
<section aria-labelledby="h-who"><h2 id="h-who">${t('keys.whoHeading')}</h2><p>${t(`keys.${system}.who`)}</p></section>
<section aria-labelledby="h-where"><h2 id="h-where">${t('keys.whereHeading')}</h2><p>${t(`keys.${system}.where`)}</p>
<p>${t('keys.official')} <a href="${escapeHtml(site)}" rel="noopener">${escapeHtml(new URL(site).hostname)}</a></p></section>
<ul class="links"><li><a href="${escapeHtml(localPath(context, '/'))}">${t('keys.find')}</a></li></ul>
<section aria-labelledby="h-others"><h2 id="h-others">${t('keys.others')}</h2><ul>${others.map(link).join('')}</ul></section>
</article>`,
  };
}
