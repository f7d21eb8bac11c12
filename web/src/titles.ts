// The site's titles of unnamed toilets ("Public toilet in Parc Princesse Antoinette"), asked from the
// overview (/overview/titles.json) for the rows shown and kept for the page's life: the API's `name`
// stays null, so the list asks once per toilet, after its rows are drawn.
import type { SiteTitle } from '../../src/rules/site-title.js';
import type { ToiletItem } from '../../src/web/text/item.js';
import { getJson } from './common.js';

/** The overview's limit per request. */
const MAX_IDS = 200;
const known = new Map<string, SiteTitle | null>();

export function titleOf(id: string): SiteTitle | null {
  return known.get(id) ?? null;
}

/** Asks for the titles of the unnamed toilets among `items` not asked before; true when any arrived. */
export async function learnTitles(items: readonly ToiletItem[]): Promise<boolean> {
  const missing = items.filter((item) => item.name === null && !known.has(item.id)).map((item) => item.id).slice(0, MAX_IDS);
  if (missing.length === 0) return false;
  const answer = await getJson<{ titles: Record<string, SiteTitle> }>(`/overview/titles.json?ids=${missing.map(encodeURIComponent).join(',')}`).catch(() => null);
  if (answer?.status !== 200) return false;
  for (const id of missing) known.set(id, answer.body.titles[id] ?? null);
  return missing.some((id) => known.get(id) !== null);
}
