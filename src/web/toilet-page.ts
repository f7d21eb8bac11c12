// The shareable, crawlable page of one toilet (/t/<id>): every fact of the API's item in plain words,
// where each comes from, directions, and the forms to improve it. It reads without JavaScript; the
// forms need the page script for the human check (toilet.js), and say so when it does not run. A business
// claims the toilet from here: the page shows the claim form in a signed-in browser and a link to sign in
// and come back otherwise (the HTML is the same for everyone; the script picks).
import { text, type Language, type TextKey } from './text/catalogue.js';
import type { SiteTitle } from '../rules/site-title.js';
import { displayName, feeAmount, type Attribution, type ToiletItem } from './text/item.js';
import { closingTime, decimal, longDate, monthYear, spanList, weekdayName } from './text/format.js';
import { escapeHtml } from './text/html.js';
import { weekTable } from './week-table.js';
import { partnerLabelLines } from './text/partner.js';
import { localPath, type PageContext } from './layout.js';
import { detailsHtml } from './toilet-details.js';
import type { ToiletDetails } from '../rules/details.js';

const FACTS = ['access', 'fee', 'fee_amount', 'wheelchair', 'changing_table', 'gender', 'opening_hours', 'name', 'operator', 'existence'] as const;
type Fact = (typeof FACTS)[number];
const REPORT_KINDS = ['gone', 'closed', 'wrong_place', 'wrong_hours'] as const;

/** `details` as getToilet answers them; `detailsPending`: the data predates details (the next import adds them). */
export function renderToiletMain(
  context: Pick<PageContext, 'lang' | 'explicitLang'>,
  toilet: ToiletItem,
  attribution: Attribution,
  details?: ToiletDetails,
  detailsPending = false,
  title: SiteTitle | null = null,
): string {
  const { lang } = context;
  const t = (key: TextKey, vars?: Record<string, string | number>) => escapeHtml(text(lang, key, vars));
  const date = (iso: string) => longDate(lang, iso);
  const month = (ym: string) => monthYear(lang, ym);

  const who = [accessSentence(lang, toilet), toilet.access_rule === 'key' ? text(lang, 'rule.key') : ''].filter(Boolean).map(escapeHtml).join(' ');
  const amount = feeAmount(lang, toilet.fee);
  const fee = toilet.fee.required === false ? t('fee.free') : toilet.fee.required === null ? t('fee.unknown') : amount ? t('fee.amount', { amount }) : t('fee.paid');

  const trust = [
    toilet.cleanliness ? t('clean.stars', { average: decimal(lang, toilet.cleanliness.average), count: toilet.cleanliness.count }) : t('clean.none'),
    toilet.confirmations > 0 && toilet.last_confirmed_at ? t('confirm.count', { count: toilet.confirmations, date: date(toilet.last_confirmed_at) }) : t('confirm.none'),
    t(`state.${toilet.verification_state}`),
    t(`confidence.${toilet.confidence}`),
  ];
  const stars = toilet.cleanliness ? `<span class="stars" aria-hidden="true">${'★'.repeat(Math.round(toilet.cleanliness.average))}${'☆'.repeat(5 - Math.round(toilet.cleanliness.average))}</span> ` : '';

  const sources = [
    toilet.provenance.source === 'openstreetmap'
      ? toilet.provenance.checked ? t('source.osm', { month: month(toilet.provenance.checked) }) : t('source.osmUnchecked')
      : toilet.provenance.source === 'community' ? t('source.community') : t('source.other', { source: toilet.provenance.source }),
    ...Object.entries(toilet.provenance.decided).map(([fact, d]) =>
      d!.by === 'votes'
        ? t('decided.votes', { fact: text(lang, `fact.${fact}` as TextKey), for: d!.votes_for ?? 0, total: d!.votes_total ?? 0, date: date(d!.as_of) })
        : t('decided.moderator', { fact: text(lang, `fact.${fact}` as TextKey), date: date(d!.as_of) }),
    ),
  ];

  const directions = Object.values(toilet.directions);
  return `<article class="toilet" data-toilet-id="${escapeHtml(toilet.id)}">
<h1${toilet.name === null ? '' : ' translate="no"'}>${escapeHtml(displayName(lang, toilet, title))}</h1>
${toilet.partner ? partnerHtml(lang, toilet.partner) : ''}
<section aria-labelledby="h-who"><h2 id="h-who">${t('toilet.who')}</h2><p>${who}</p>
<h3>${t('toilet.fee')}</h3><p>${fee}</p>${toilet.operator ? `<p>${t('toilet.operator', { operator: toilet.operator })}</p>` : ''}</section>
<section aria-labelledby="h-hours"><h2 id="h-hours">${t('toilet.hours')}</h2>${hoursHtml(lang, toilet)}</section>
<section aria-labelledby="h-features"><h2 id="h-features">${t('toilet.features')}</h2><ul>
<li>${t(`wheelchair.${toilet.wheelchair}`)}</li><li>${t(`changing.${toilet.changing_table}`)}</li>
<li>${toilet.gender.length ? t('gender.list', { list: toilet.gender.map((g) => text(lang, `gender.${g}`)).join(', ') }) : t('gender.none')}</li></ul></section>
${detailsHtml(context, details, detailsPending)}
<section aria-labelledby="h-trust"><h2 id="h-trust">${t('toilet.trust')}</h2><p>${stars}${trust[0]}</p><ul>${trust.slice(1).map((s) => `<li>${s}</li>`).join('')}</ul></section>
<section aria-labelledby="h-sources"><h2 id="h-sources">${t('toilet.sources')}</h2><ul>${sources.map((s) => `<li>${s}</li>`).join('')}</ul></section>
<section aria-labelledby="h-dir"><h2 id="h-dir">${t('toilet.directions')}</h2><ul class="links">
<li><a href="${escapeHtml(directions[0])}" rel="noopener">${t('toilet.directions1')}</a></li>
<li><a href="${escapeHtml(directions[1])}" rel="noopener">${t('toilet.directions2')}</a></li>
<li><a href="${escapeHtml(toilet.geo)}">${t('toilet.geo')}</a></li></ul></section>
${improveHtml(lang, toilet)}
${claimHtml(context, toilet.id)}
<p class="attribution"><small><a href="${escapeHtml(attribution.url)}" translate="no">${escapeHtml(attribution.text)}</a> · <a href="${escapeHtml(attribution.license_notice_url)}">${t('footer.sources')}</a></small></p>
</article>`;
}

/** The partner label: the business's own statements, said as such, and that it is a paid listing. */
function partnerHtml(lang: Language, partner: NonNullable<ToiletItem['partner']>): string {
  const lines = partnerLabelLines(lang, partner).map((line) => `<p>${escapeHtml(line)}</p>`);
  return `<div class="partner-label">${lines.join('')}<p class="hint">${escapeHtml(text(lang, 'partner.paid'))}</p></div>`;
}

/** "Claim this toilet": the form for a signed-in browser, the way to sign in and come back for others. */
function claimHtml(context: Pick<PageContext, 'lang' | 'explicitLang'>, id: string): string {
  const t = (key: TextKey) => escapeHtml(text(context.lang, key));
  const signIn = localPath(context, `/signin?next=${encodeURIComponent(`/t/${id}`)}`);
  const field = (name: string, label: TextKey, attributes: string) =>
    `<label for="claim-${name}">${t(label)}</label><input id="claim-${name}" name="${name}" ${attributes}>`;
  return `<section aria-labelledby="h-claim" class="claim"><h2 id="h-claim">${t('claim.heading')}</h2>
<p>${t('claim.intro')}</p>
<p class="claim-sign-in"><a href="${escapeHtml(signIn)}">${t('claim.signIn')}</a></p>
<details class="claim-form" hidden><summary>${t('claim.open')}</summary>
<form data-op="claim" novalidate>
${field('business_name', 'claim.name', 'required minlength="2" maxlength="80" autocomplete="organization"')}
${field('contact_email', 'claim.email', 'type="email" required maxlength="200" autocomplete="email"')}
${field('contact_phone', 'claim.phone', 'type="tel" maxlength="40" autocomplete="tel"')}
${field('website', 'claim.website', 'type="url" maxlength="200" autocomplete="url" placeholder="https://"')}
<label for="claim-note">${t('claim.note')}</label><textarea id="claim-note" name="note" maxlength="500" rows="3"></textarea>
<button type="submit" class="primary">${t('claim.submit')}</button>
<p class="form-status" role="status" aria-live="polite"></p>
</form></details></section>`;
}

function accessSentence(lang: Language, toilet: ToiletItem): string {
  if (toilet.access === 'scheme') return toilet.scheme_name ? text(lang, 'access.scheme', { scheme: toilet.scheme_name }) : text(lang, 'access.schemeUnnamed');
  return text(lang, `access.${toilet.access}`);
}

function hoursHtml(lang: Language, toilet: ToiletItem): string {
  const t = (key: TextKey, vars?: Record<string, string | number>) => escapeHtml(text(lang, key, vars));
  if (toilet.opening_hours === null) return `<p>${t('hours.unknown')}</p>`;
  const now =
    toilet.open_now === 'unknown' ? '' : toilet.open_now ? (toilet.closes_at ? t('hours.openUntil', { time: closingTime(lang, toilet.closes_at) }) : t('hours.openAlways')) : t('hours.closed');
  const week = weekTable(toilet.opening_hours);
  const table = week
    ? `<table class="week"><caption class="visually-hidden">${t('toilet.hours')}</caption><tbody>${week
        .map((spans, day) => `<tr><th scope="row">${escapeHtml(weekdayName(lang, day))}</th><td>${spans === 'closed' ? t('hours.closedDay') : escapeHtml(spanList(lang, spans))}</td></tr>`)
        .join('')}</tbody></table>`
    : '';
  return `${now ? `<p class="now now-${toilet.open_now ? 'open' : 'closed'}"><strong>${now}</strong></p>` : ''}${table}<p class="raw">${t('hours.raw', { hours: toilet.opening_hours })}</p>`;
}

/** The value of a fact as correctToilet takes it, as shown now. */
function currentValue(toilet: ToiletItem, fact: Fact): string {
  switch (fact) {
    case 'access': return toilet.access;
    case 'fee': return toilet.fee.required === null ? 'unknown' : toilet.fee.required ? 'paid' : 'free';
    case 'fee_amount': return toilet.fee.amount === null ? '' : `${toilet.fee.amount} ${toilet.fee.currency ?? ''}`.trim();
    case 'wheelchair': return toilet.wheelchair;
    case 'changing_table': return toilet.changing_table;
    case 'gender': return toilet.gender.join(',');
    case 'opening_hours': return toilet.opening_hours ?? '';
    case 'name': return toilet.name ?? '';
    case 'operator': return toilet.operator ?? '';
    case 'existence': return 'yes';
  }
}

function improveHtml(lang: Language, toilet: ToiletItem): string {
  const t = (key: TextKey, vars?: Record<string, string | number>) => escapeHtml(text(lang, key, vars));
  const form = (op: string, summary: TextKey, fields: string) => `<details class="improve"><summary>${t(summary)}</summary>
<form data-op="${op}" novalidate>${fields}
<div class="human"></div>
<button type="submit" disabled>${t('improve.send')}</button>
<p class="form-status" role="status" aria-live="polite"></p>
<noscript><p>${t('improve.needsJs')}</p></noscript>
</form></details>`;
  const voteRows = FACTS.map((fact) => {
    const decided = toilet.provenance.decided[fact];
    const counts = decided?.by === 'votes' ? ` (${t('improve.counts', { for: decided.votes_for ?? 0, total: decided.votes_total ?? 0 })})` : '';
    const value = currentValue(toilet, fact);
    return `<option value="${fact}" data-current="${escapeHtml(value)}" data-counts="${escapeHtml(counts)}">${t(`fact.${fact}` as TextKey)}</option>`;
  }).join('');
  const first = currentValue(toilet, 'access');
  return `<section aria-labelledby="h-improve" class="improve-all"><h2 id="h-improve">${t('improve.heading')}</h2>
${form('confirm', 'improve.confirm', `<p>${t('improve.confirmText')}</p>`)}
${form('rate', 'improve.rate', `<fieldset class="rating"><legend>${t('improve.rating')}</legend>${[1, 2, 3, 4, 5]
    .map((n) => `<label><input type="radio" name="rating" value="${n}"> <span aria-hidden="true">${'★'.repeat(n)}</span> ${t('improve.star', { n })}</label>`)
    .join('')}</fieldset>`)}
${form('report', 'improve.report', `<label for="report-kind">${t('improve.kind')}</label><select id="report-kind" name="kind">${REPORT_KINDS.map((k) => `<option value="${k}">${t(`report.${k}`)}</option>`).join('')}</select>
<label for="report-note">${t('improve.note')}</label><textarea id="report-note" name="note" maxlength="500" rows="3"></textarea>`)}
${form('vote', 'improve.vote', `<label for="vote-attribute">${t('improve.fact')}</label><select id="vote-attribute" name="attribute">${voteRows}</select>
<p class="vote-current" id="vote-current">${t('improve.current', { value: first || '–' })}</p>
<label for="vote-value">${t('improve.value')}</label><input id="vote-value" name="value" maxlength="200" aria-describedby="vote-current">`)}
</section>`;
}
