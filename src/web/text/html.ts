// HTML escaping and the markup of one result in the list: shared by the server-rendered landing page
// (results of a place search without JavaScript) and the front end, so both lists look the same.
import { text, type Language } from './catalogue.js';
import type { SiteTitle } from '../../rules/site-title.js';
import { displayName, distanceLabel, feeLabel, openLabel, type NearestItem, type ToiletItem } from './item.js';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * One <li> of the result list; `href` is the toilet page's local link, `title` the site's title of an
 * unnamed toilet, `number` its marker's number on the map. Colour is never the only signal: each state is written out.
 */
export function resultItemHtml(lang: Language, item: ToiletItem | NearestItem, href: string, title: SiteTitle | null = null, number: number | null = null): string {
  const open = openLabel(lang, item);
  const facts = [
    `<span class="tag open-${open.state}">${escapeHtml(open.text)}</span>`,
    `<span class="tag">${escapeHtml(feeLabel(lang, item.fee))}</span>`,
    item.wheelchair === 'yes' ? `<span class="tag">♿ ${escapeHtml(text(lang, 'item.wheelchair'))}</span>` : '',
    item.wheelchair === 'limited' ? `<span class="tag">♿ ${escapeHtml(text(lang, 'item.wheelchairLimited'))}</span>` : '',
    item.changing_table === 'yes' ? `<span class="tag">${escapeHtml(text(lang, 'item.changingTable'))}</span>` : '',
    item.partner ? `<span class="tag partner">${escapeHtml(text(lang, 'item.partner', { name: item.partner.name }))}</span>` : '',
  ].filter(Boolean);
  const distance = 'distance_m' in item ? `<p class="dist">${escapeHtml(distanceLabel(lang, item))}</p>` : '';
  // the marker's number on the map, for the eye only: the row's own text says the rest
  const marker = number === null ? '' : `<span class="marker-number open-${open.state}" aria-hidden="true">${number}</span>`;
  return `<li class="result" data-id="${escapeHtml(item.id)}">${marker}<a href="${escapeHtml(href)}"${item.name === null ? '' : ' translate="no"'}>${escapeHtml(displayName(lang, item, title))}</a>${distance}<p class="tags">${facts.join(' ')}</p></li>`;
}
