// The Plus tier's monthly figures on the partner dashboard (/partner): for a listing with a running Plus
// plan, a table of how often its toilet was shown in answers and opened, the current month and the 12
// before it, newest first (listMyPartnerListings' `figures`); for a running Basic plan, one line saying
// that Plus shows these. Months are UTC, named in the page's language.
import { locale, t } from './common.js';
import { el } from './dom.js';
import type { Plan } from './partner-billing.js';

export interface FigureMonth {
  /** 'YYYY-MM', UTC. */
  month: string;
  shown: number;
  opened: number;
}

export function figuresPart(listing: { id: string; plan: Plan; figures: FigureMonth[] | null }): HTMLElement | null {
  if (!listing.plan.running) return null;
  if (listing.figures === null) return listing.plan.tier === 'basic' ? el('p', { class: 'hint' }, t('fig.basic')) : null;
  const headingId = `figures-${listing.id}`;
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const number = new Intl.NumberFormat(locale);
  const rows = listing.figures.map((f) =>
    el('tr', {}, el('th', { scope: 'row' }, monthName.format(new Date(`${f.month}-01T00:00:00Z`))), el('td', {}, number.format(f.shown)), el('td', {}, number.format(f.opened))),
  );
  return el(
    'div',
    { class: 'figures' },
    el('h3', { id: headingId }, t('fig.heading')),
    el(
      'table',
      { 'aria-labelledby': headingId },
      el('caption', {}, t('fig.caption')),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('fig.month')), el('th', { scope: 'col' }, t('fig.shown')), el('th', { scope: 'col' }, t('fig.opened')))),
      el('tbody', {}, ...rows),
    ),
  );
}
