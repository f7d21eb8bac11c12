// What a partner label says, in sentences: shared by the toilet page (server-rendered) and the partner
// dashboard's preview (web/src/partner-page.ts), so the business sees exactly the words the public will.
// The label is the business's own statement; the page says so ("The business says: …").
import { text, type Language } from './catalogue.js';
import type { ToiletItem } from './item.js';
import { closingTime } from './format.js';

export type PartnerLabel = NonNullable<ToiletItem['partner']>;

/** The label's lines, first the name and tier, then conditions, the state now, and the hours. */
export function partnerLabelLines(lang: Language, partner: PartnerLabel): string[] {
  const tier = text(lang, partner.tier === 'plus' ? 'dash.tier.plus' : 'dash.tier.basic');
  const lines = [text(lang, 'partner.label', { name: partner.name, tier })];
  if (partner.conditions !== null) lines.push(text(lang, partner.conditions === 'everyone' ? 'partner.everyone' : 'partner.customers'));
  if (partner.open_now === false) lines.push(text(lang, 'partner.closedNow'));
  else if (partner.open_now === true) lines.push(partner.closes_at ? text(lang, 'partner.openUntil', { time: closingTime(lang, partner.closes_at) }) : text(lang, 'partner.openNow'));
  if (partner.opening_hours !== null) lines.push(text(lang, 'partner.hours', { hours: partner.opening_hours }));
  return lines;
}
