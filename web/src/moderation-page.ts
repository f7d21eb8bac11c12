// The moderator queue: what `npm run moderate -- list` shows (submissions with the toilets listed nearby,
// reports with their toilet, toilets most voters call gone, the locks in force) and the latest actions,
// each item with the actions the command line has for it and a reason field. Every action is one call of
// the `moderate` operation (through the re-authentication dialog); the queue is read again after it.
// A new kind of item is one more entry of SECTIONS: business claims are one (with the field that corrects
// the business name on approval).
import type { TextKey } from '../../src/web/text/catalogue.js';
import { fieldText, localHref, rememberSignedIn, t } from './common.js';
import { call, failureText, isProblem, withReauthentication, type Answer } from './account-api.js';
import { dateTime, el } from './dom.js';
import type { SchemaValue } from '../../src/schemas/answer-types.js';

/** The queue as moderationQueue answers it (the registry's schema). */
type Queue = SchemaValue<'ModerationQueue'>;

/** An action button: what it sends besides the reason, and which of the item's fields it sends when changed. */
/** What an action sends besides its reason: moderateContent's body as the registry declares it. */
type ActionBody = Omit<SchemaValue<'ModerationActionRequest'>, 'reason'>;

interface Action {
  label: TextKey;
  body: ActionBody;
  fields?: readonly string[];
}

/** A text field of an item besides the reason (its value sent only when the moderator changed it). */
interface Field {
  name: string;
  label: TextKey;
  value: string;
  maxlength: number;
}

/** An item as the page shows it: its key (for its fields' ids), its description lines and its actions. */
interface Rendered {
  key: string;
  lines: (Node | string)[];
  fields?: Field[];
  actions: Action[];
}

interface Section<T> {
  heading: TextKey;
  items(queue: Queue): T[];
  render(item: T): Rendered;
}

/** A section of items of type T, listed with the others (render is a method: checked per section). */
const section = <T>(definition: Section<T>): Section<unknown> => definition as Section<unknown>;

const toiletLink = (id: string, name: string | null) => el('a', { href: localHref(`/t/${encodeURIComponent(id)}`) }, `${name ?? t('item.unnamed')} (${id})`);
const facts = (s: Queue['submissions'][number]) =>
  (['access', 'fee', 'opening_hours', 'wheelchair', 'changing_table'] as const)
    .filter((f) => s[f] !== null)
    .map((f) => `${t(`fact.${f}`)}: ${s[f]}`)
    .join(', ');

const SECTIONS: Section<unknown>[] = [
  section({
    heading: 'mod.submissions',
    items: (q) => q.submissions,
    render: (s: Queue['submissions'][number]): Rendered => ({
      key: s.id,
      lines: [
        el('strong', {}, `${s.id} · ${s.name ?? t('item.unnamed')}`),
        t('mod.submitted', { date: dateTime(s.submitted_at), lat: s.lat, lon: s.lon }),
        facts(s),
        s.note ? t('mod.note', { note: s.note }) : '',
        s.nearby.length === 0 ? t('mod.nothingNearby') : el('span', {}, t('mod.nearby', { list: '' }), ...s.nearby.flatMap((n, i) => [i > 0 ? '; ' : '', toiletLink(n.id, n.name), ` ${n.distance_m} m`])),
      ],
      actions: [
        { label: 'mod.approve', body: { action: 'approve', target: s.id } },
        { label: 'mod.reject', body: { action: 'reject', target: s.id } },
      ],
    }),
  }),
  section({
    heading: 'mod.reports',
    items: (q) => q.reports,
    render: (r: Queue['reports'][number]): Rendered => ({
      key: r.id,
      lines: [
        el('strong', {}, `${r.id} · ${t(`report.${r.kind}` as TextKey)}`),
        el('span', {}, t('mod.reported', { kind: r.kind, date: dateTime(r.reported_at), toilet: '' }), r.toilet ? toiletLink(r.toilet_id, r.toilet.name) : `${r.toilet_id}, ${t('mod.notInData')}`),
        t('mod.openReports', { count: r.open_reports }),
        r.note ? t('mod.note', { note: r.note }) : '',
      ],
      actions: [
        { label: 'mod.approve', body: { action: 'approve', target: r.id } },
        { label: 'mod.reject', body: { action: 'reject', target: r.id } },
      ],
    }),
  }),
  section({
    heading: 'mod.goneVotes',
    items: (q) => q.gone_votes,
    render: (g: Queue['gone_votes'][number]): Rendered => ({
      key: g.toilet_id,
      lines: [toiletLink(g.toilet_id, g.name), t('mod.votes', { gone: g.gone_votes, exists: g.exists_votes })],
      actions: [
        { label: 'mod.markGone', body: { action: 'gone', toilet_id: g.toilet_id } },
        { label: 'mod.keep', body: { action: 'lock', toilet_id: g.toilet_id, fact: 'existence', value: 'yes' } },
      ],
    }),
  }),
  section({
    heading: 'mod.claims',
    items: (q) => q.claims,
    render: (c: Queue['claims'][number]): Rendered => ({
      key: c.id,
      lines: [
        el('strong', {}, `${c.id} · “${c.business_name}”`),
        el('span', {}, t('mod.claimOn', { date: dateTime(c.claimed_at) }), c.toilet ? toiletLink(c.toilet_id, c.toilet.name) : `${c.toilet_id}, ${t('mod.notInData')}`, c.toilet?.gone ? ` ${t('mod.markedGone')}` : ''),
        c.contact_email === null ? t('mod.erased') : t('mod.contact', { email: c.contact_email }),
        c.contact_phone ? t('mod.phone', { phone: c.contact_phone }) : '',
        c.website ? t('mod.website', { website: c.website }) : '',
        c.note ? t('mod.note', { note: c.note }) : '',
        c.other_claims.length === 0 ? t('mod.noOtherClaims') : t('mod.otherClaims', { list: c.other_claims.map((o) => `${o.id} ${o.status} “${o.business_name}”`).join('; ') }),
        t('mod.claimListing', { listing: c.listing_id, account: c.account_id ?? '–' }),
      ],
      fields: [{ name: 'name', label: 'mod.claimName', value: c.business_name, maxlength: 80 }],
      actions: [
        { label: 'mod.approve', body: { action: 'approve', target: c.id }, fields: ['name'] },
        { label: 'mod.reject', body: { action: 'reject', target: c.id } },
      ],
    }),
  }),
  section({
    heading: 'mod.locks',
    items: (q) => q.locks,
    render: (l: Queue['locks'][number]): Rendered => ({
      key: `${l.toilet_id}-${l.fact}`,
      lines: [toiletLink(l.toilet_id, l.name), t('mod.locked', { fact: t(`fact.${l.fact}` as TextKey), value: l.value, date: dateTime(l.locked_at) })],
      actions: [{ label: 'mod.unlock', body: { action: 'unlock', toilet_id: l.toilet_id, fact: l.fact } }],
    }),
  }),
];

const pageStatus = () => document.getElementById('mod-status')!;

export async function start(): Promise<void> {
  const lockForm = document.getElementById('lock-fact') as HTMLFormElement;
  lockForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(lockForm);
    void act(lockForm, { action: 'lock', toilet_id: fieldText(data, 'toilet_id').trim(), fact: fieldText(data, 'fact') as ActionBody['fact'], value: fieldText(data, 'value').trim() });
  });
  await load();
}

async function load(): Promise<void> {
  const answer = await call('GET', '/moderation/queue');
  if (answer.status === 401) {
    rememberSignedIn(false);
    location.replace(localHref('/signin?next=/moderation'));
    return;
  }
  if (answer.status !== 200) {
    pageStatus().textContent = isProblem(answer, 'moderator-required') ? t('mod.notModerator') : failureText(answer);
    return;
  }
  if (pageStatus().textContent === t('account.loading')) pageStatus().textContent = '';
  document.getElementById('lock-section')!.hidden = false;
  const queue = answer.body;
  document.getElementById('queue')!.replaceChildren(...SECTIONS.map((section) => renderSection(section, queue)), renderLog(queue.log));
}

function renderSection<T>(section: Section<T>, queue: Queue): HTMLElement {
  const items = section.items(queue);
  const headingId = `h-${section.heading.replace('.', '-')}`;
  return el(
    'section',
    { class: 'panel', 'aria-labelledby': headingId },
    el('h2', { id: headingId }, t(section.heading, { count: items.length })),
    items.length === 0 ? el('p', { class: 'hint' }, t('mod.empty')) : el('ul', { class: 'item-list queue' }, ...items.map((item) => renderItem(section.render(item)))),
  );
}

function renderItem({ key, lines, fields = [], actions }: Rendered): HTMLElement {
  const reasonId = `reason-${key}`;
  const form = el('form', { class: 'mod-action', novalidate: true }) as HTMLFormElement;
  const buttons = actions.map((action) => {
    const button = el('button', { type: 'button' }, t(action.label));
    button.addEventListener('click', () => void act(form, { ...action.body, ...changedFields(form, action.fields ?? []) }));
    return button;
  });
  const extra = fields.flatMap((field) => {
    const id = `${field.name}-${key}`;
    return [el('label', { for: id }, t(field.label)), el('input', { id, name: field.name, value: field.value, maxlength: String(field.maxlength), autocomplete: 'off' })];
  });
  form.append(...extra, el('label', { for: reasonId }, t('mod.reason')), el('input', { id: reasonId, name: 'reason', required: true, maxlength: '500', autocomplete: 'off' }), el('div', { class: 'actions' }, ...buttons), el('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' }));
  form.addEventListener('submit', (event) => event.preventDefault());
  return el('li', { class: 'item queue-item' }, el('div', { class: 'lines' }, ...lines.filter((line) => line !== '').map((line) => el('p', {}, line))), form);
}

/** The named fields whose value the moderator changed (trimmed), to send with an action. */
function changedFields(form: HTMLFormElement, names: readonly string[]): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const name of names) {
    const input = form.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
    const value = input.value.trim();
    if (value !== input.defaultValue) changed[name] = value;
  }
  return changed;
}

function renderLog(log: Queue['log']): HTMLElement {
  return el(
    'section',
    { class: 'panel', 'aria-labelledby': 'h-mod-log' },
    el('h2', { id: 'h-mod-log' }, t('mod.log')),
    log.length === 0 ? el('p', { class: 'hint' }, t('mod.empty')) : el('ul', { class: 'log' }, ...log.map((e) => el('li', {}, `${dateTime(e.at)} · ${e.action} ${e.target} · “${e.reason}”`))),
  );
}

/** One action with the form's reason; the outcome in the page's status line, then the queue read again. */
async function act(form: HTMLFormElement, body: ActionBody): Promise<void> {
  const reason = fieldText(new FormData(form), 'reason').trim();
  const status = form.querySelector('.form-status')!;
  if (reason === '') {
    status.textContent = t('mod.needsReason');
    form.querySelector<HTMLInputElement>('input[name=reason]')!.focus();
    return;
  }
  status.textContent = t('improve.sending');
  let answer: Answer<{ done?: string }>;
  try {
    answer = await withReauthentication(() => call('POST', '/moderation/actions', { ...body, reason }));
  } catch (error) {
    status.textContent = failureText(error);
    return;
  }
  if (answer.status !== 200) {
    status.textContent = failureText(answer);
    return;
  }
  pageStatus().textContent = t('mod.done', { done: answer.body.done ?? '' });
  if (form.id === 'lock-fact') form.reset();
  status.textContent = '';
  await load();
}
