// The "More details" section of a toilet's page: the getToilet answer's `details` (src/rules/details.ts)
// in plain words, a line each, with a link to the page of each named key system (key-pages.ts). While the
// data comes from a release before details, the section says they arrive with the next import.
import type { ToiletDetails } from '../rules/details.js';
import { NAMED_KEY_SYSTEMS } from '../rules/details.js';
import { text, type Language, type TextKey } from './text/catalogue.js';
import { escapeHtml } from './text/html.js';
import { localPath, type PageContext } from './layout.js';

/** The section, or '' when there is nothing to say (the data has details, this toilet none). */
export function detailsHtml(context: Pick<PageContext, 'lang' | 'explicitLang'>, details: ToiletDetails | undefined, pending: boolean): string {
  const { lang } = context;
  const t = say(lang);
  const heading = `<section aria-labelledby="h-details" class="details"><h2 id="h-details">${t('toilet.details')}</h2>`;
  if (details === undefined) return pending ? `${heading}<p>${t('details.pending')}</p></section>` : '';
  const groups: [TextKey, Lines][] = [
    ['details.group.key', keyLines(context, details)],
    ['details.group.changing', changingLines(lang, details)],
    ['details.group.wheelchair', wheelchairLines(lang, details)],
    ['details.group.washroom', washroomLines(lang, details)],
    ['details.group.where', whereLines(lang, details)],
  ];
  const lists = groups.filter(([, lines]) => lines.length > 0).map(([title, lines]) => `<h3>${t(title)}</h3><ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul>`);
  return `${heading}${lists.join('\n')}<p class="hint">${t('details.from')}</p></section>`;
}

type Lines = string[];

/** The catalogue's text, as HTML. */
function say(lang: Language): (key: TextKey, vars?: Record<string, string | number>) => string {
  return (key, vars) => escapeHtml(text(lang, key, vars));
}

function keyLines(context: Pick<PageContext, 'lang' | 'explicitLang'>, d: ToiletDetails): Lines {
  const { lang } = context;
  return (d.key_systems ?? []).map((system) => {
    const sentence = escapeHtml(text(lang, `details.key.${system}`));
    if (!(NAMED_KEY_SYSTEMS as readonly string[]).includes(system)) return sentence;
    const name = text(lang, `keys.${system as (typeof NAMED_KEY_SYSTEMS)[number]}.name`);
    return `${sentence} <a href="${escapeHtml(localPath(context, `/keys/${system}`))}">${escapeHtml(text(lang, 'details.keyLink', { system: name }))}</a>`;
  });
}

function changingLines(lang: Language, d: ToiletDetails): Lines {
  const t = say(lang);
  const lines: Lines = [];
  if (d.changing_places !== undefined) lines.push(t(`details.changingPlaces.${d.changing_places}`));
  const table = d.changing_table;
  if (table?.locations) lines.push(t('details.table.locations', { list: listOf(lang, table.locations.map((l) => text(lang, `loc.${l}`))) }));
  if (table?.count !== undefined) lines.push(t('details.table.count', { count: table.count }));
  if (table?.fee !== undefined) lines.push(t(`details.table.fee.${table.fee}`));
  if (table?.adult !== undefined) lines.push(t(`details.table.adult.${table.adult}`));
  return lines;
}

function wheelchairLines(lang: Language, d: ToiletDetails): Lines {
  const t = say(lang);
  const w = d.wheelchair;
  if (w === undefined) return [];
  const lines: Lines = [];
  if (w.door_width_cm !== undefined) lines.push(t('details.door', { width: w.door_width_cm }));
  if (w.step_free !== undefined) lines.push(t(`details.stepFree.${w.step_free}`));
  if (w.grab_rails !== undefined) lines.push(t(`details.grabRails.${w.grab_rails}`));
  if (w.description !== undefined) lines.push(quoting(lang, 'details.wheelchairText', w.description));
  return lines;
}

function washroomLines(lang: Language, d: ToiletDetails): Lines {
  const t = say(lang);
  const lines: Lines = [];
  if (d.positions) lines.push(t('details.positions', { list: listOf(lang, d.positions.map((p) => text(lang, `pos.${p}`))) }));
  if (d.disposal) lines.push(t('details.disposal', { list: listOf(lang, d.disposal.map((p) => text(lang, `disposal.${p}`))) }));
  const flags = [['handwashing', 'details.handwashing'], ['soap', 'details.soap'], ['paper', 'details.paper']] as const;
  for (const [name, key] of flags) if (d[name] !== undefined) lines.push(t(`${key}.${d[name]}`));
  if (d.hand_drying) lines.push(t('details.handDrying', { list: listOf(lang, d.hand_drying.map((h) => text(lang, `dry.${h}`))) }));
  if (d.drinking_water !== undefined) lines.push(t(`details.drinkingWater.${d.drinking_water}`));
  if (d.shower !== undefined) lines.push(t(`details.shower.${d.shower}`));
  return lines;
}

function whereLines(lang: Language, d: ToiletDetails): Lines {
  const t = say(lang);
  const lines: Lines = [];
  if (d.level !== undefined) lines.push(d.level === '0' ? t('details.level.ground') : t('details.level', { level: d.level }));
  if (d.indoor !== undefined) lines.push(t(`details.indoor.${d.indoor}`));
  if (d.description !== undefined) lines.push(quoting(lang, 'details.description', d.description));
  return lines;
}

/** The sentence of `key` around a mapper's own words, which keep their language: marked as theirs, not the page's. */
function quoting(lang: Language, key: 'details.wheelchairText' | 'details.description', words: string): string {
  const [before, after] = text(lang, key).split('{text}');
  return `${escapeHtml(before)}<span class="mapper-words">${escapeHtml(words)}</span>${escapeHtml(after ?? '')}`;
}

/** "a, b and c" in the page's language. */
function listOf(lang: Language, items: string[]): string {
  return new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(items);
}
