// The partner dashboard (/partner): the account's claims and their status, each listing's toilet, its plan
// and payment (partner-billing.ts), and, while a listing's plan runs, its label: the profile form (conditions, business hours checked by the
// server's own validation when the field is left, checkPartnerHours) with a preview in the words the public
// sees (src/web/text/partner.ts), the live switch as one big button, and the Plus tier's monthly figures
// (partner-figures.ts). Everything comes from
// listMyPartnerListings and goes through updatePartnerProfile and the billing operations: the page does
// nothing the API could not.
import { fieldText, lang, locale, localHref, rememberSignedIn, t } from './common.js';
import { call, failureText, isProblem, type Answer } from './account-api.js';
import { clearErrors, showFieldErrors, type Problem } from './contribute.js';
import { dateTime, el } from './dom.js';
import { billingPart, cameBackTo, type Plan } from './partner-billing.js';
import { figuresPart } from './partner-figures.js';
import { partnerLabelLines } from '../../src/web/text/partner.js';
import type { TextKey } from '../../src/web/text/catalogue.js';
import type { SchemaValue } from '../../src/schemas/answer-types.js';

/** The registry's answers (src/schemas/answer-types.ts): one listing of listMyPartnerListings, its profile, checkPartnerHours. */
type Listing = SchemaValue<'PartnerListingSummary'>;
type Profile = SchemaValue<'PartnerProfileAnswer'>;
type HoursCheck = SchemaValue<'PartnerHoursCheck'>;
type Conditions = Profile['conditions'];

const pageStatus = () => document.getElementById('partner-status')!;

const listings = () => call('GET', '/partner/listings');

export async function start(): Promise<void> {
  const answer = await listings();
  if (answer.status === 401) return toSignIn();
  if (answer.status !== 200) {
    pageStatus().textContent = failureText(answer);
    return;
  }
  rememberSignedIn(true);
  pageStatus().textContent = '';
  const mine = answer.body.listings;
  document.getElementById('no-listings')!.hidden = mine.length > 0;
  const sections = mine.map(renderListing);
  document.getElementById('listings')!.replaceChildren(...sections);
  // back from the payment provider's pages: that listing in view
  sections.find((_section, i) => cameBackTo(mine[i].id))?.scrollIntoView();
}

/** The billing part's look at one listing's plan (after a payment, until the provider's event arrived). */
async function planOf(listingId: string): Promise<Answer<Plan | null>> {
  const answer = await listings();
  return { status: answer.status, body: answer.status === 200 ? (answer.body.listings.find((l) => l.id === listingId)?.plan ?? null) : null };
}

function toSignIn(): void {
  rememberSignedIn(false);
  location.replace(localHref('/signin?next=/partner'));
}

function renderListing(listing: Listing): HTMLElement {
  const { claim, plan } = listing;
  const headingId = `h-${listing.id}`;
  const name = listing.toilet_name ?? t('item.unnamed');
  const heading = listing.toilet_state === 'present' ? el('a', { href: localHref(`/t/${encodeURIComponent(listing.toilet_id)}`) }, name) : `${name} (${listing.toilet_id})`;
  const section = el(
    'section',
    { class: 'panel listing', 'aria-labelledby': headingId },
    el('h2', { id: headingId }, heading),
    el('p', {}, t('dash.claim', { id: claim.id, name: claim.business_name, date: dateTime(claim.claimed_at) })),
    el('p', { class: `claim-state claim-${claim.status}` }, claimText(listing)),
    listing.toilet_state === 'present' ? null : el('p', { class: 'notice-inline' }, t(listing.toilet_state === 'gone' ? 'dash.gone' : 'dash.vanished')),
    claim.status === 'approved' ? billingPart(listing, { reload: start, signIn: toSignIn, plan: planOf }) : null,
    listing.showing ? el('p', { class: 'showing' }, t('dash.showing')) : null,
    claim.status === 'approved' ? figuresPart(listing) : null,
  );
  if (claim.status === 'approved' && plan.running) new LabelEditor(listing, section).render();
  return section;
}

function claimText({ claim }: Listing): string {
  const decided = claim.decided_at === null ? '' : dateTime(claim.decided_at);
  switch (claim.status) {
    case 'pending':
      return t('dash.pending');
    case 'approved':
      return t('dash.approved', { date: decided });
    case 'rejected':
      return t('dash.rejected', { date: decided, reason: claim.reason ?? '' });
    case 'withdrawn':
      return t('dash.withdrawn', { date: decided });
  }
}

/** "03:14" at the toilet's local time. */
function localTime(epochMs: number, timeZone: string | null): string {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(timeZone ? { timeZone } : {}) }).format(new Date(epochMs));
}

/** What a refused profile change means, in words. */
function refusalText(answer: Answer): string {
  if (isProblem(answer, 'claim-not-approved')) return t('dash.notApproved');
  if (isProblem(answer, 'no-running-plan')) return t('dash.noPlan');
  if (answer.status === 404) return t('dash.notYours');
  return failureText(answer);
}

/** The label of one listing with a running plan: the live switch, the profile form and its preview. */
class LabelEditor {
  private profile: Profile;
  private hours: HoursCheck | null = null;
  private checkedValue: string | null = null;
  private readonly switchBox = el('div', { class: 'live-switch' });
  private readonly preview = el('div', { class: 'partner-label preview-lines' });
  private readonly form: HTMLFormElement;
  private readonly hoursInput: HTMLInputElement;
  private readonly hoursNote: HTMLElement;

  constructor(
    private readonly listing: Listing,
    private readonly section: HTMLElement,
  ) {
    this.profile = listing.profile;
    const id = listing.id;
    const radio = (value: string, label: TextKey) =>
      el('label', { class: 'check' }, el('input', { type: 'radio', name: 'conditions', value, ...(value === (this.profile.conditions ?? '') ? { checked: true } : {}) }), ` ${t(label)}`);
    this.hoursInput = el('input', { id: `hours-${id}`, name: 'opening_hours', maxlength: '200', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': `hours-help-${id} hours-note-${id}` }) as HTMLInputElement;
    this.hoursInput.value = this.profile.opening_hours ?? '';
    this.hoursNote = el('p', { id: `hours-note-${id}`, class: 'hours-note', 'aria-live': 'polite' });
    this.form = el(
      'form',
      { class: 'account-form profile', 'data-op': `profile-${id}`, novalidate: true },
      el('fieldset', {}, el('legend', {}, t('dash.conditions')), radio('', 'dash.conditions.none'), radio('everyone', 'dash.conditions.everyone'), radio('customers', 'dash.conditions.customers')),
      el('label', { for: `hours-${id}` }, t('dash.hours')),
      this.hoursInput,
      el('p', { id: `hours-help-${id}`, class: 'hint' }, t('dash.hoursHelp')),
      this.hoursNote,
      el('h4', { id: `preview-${id}` }, t('dash.preview')),
      el('div', { class: 'preview', role: 'group', 'aria-labelledby': `preview-${id}` }, this.preview),
      el('button', { type: 'submit', class: 'primary' }, t('dash.save')),
      el('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' }),
    ) as HTMLFormElement;
  }

  render(): void {
    const id = this.listing.id;
    this.section.append(
      el('h3', { id: `switch-${id}` }, t('dash.switch')),
      this.switchBox,
      el('h3', { id: `label-${id}` }, t('dash.profile')),
      this.form,
    );
    this.hoursInput.addEventListener('blur', () => void this.checkHours());
    this.form.addEventListener('change', (event) => {
      if ((event.target as HTMLInputElement).name === 'conditions') this.showPreview();
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.save();
    });
    this.showSwitch();
    void this.checkHours();
  }

  private conditions(): Conditions {
    const value = fieldText(new FormData(this.form), 'conditions');
    return value === 'everyone' || value === 'customers' ? value : null;
  }

  /** The hours field through checkPartnerHours (the validation updatePartnerProfile runs), once per value. */
  private async checkHours(): Promise<void> {
    const value = this.hoursInput.value.trim();
    if (value === this.checkedValue) return;
    this.checkedValue = value;
    this.hoursNote.textContent = t('dash.hoursChecking');
    const answer = await call('POST', `/partner/listings/${this.listing.id}/hours-check` as const, { opening_hours: value });
    if (value !== this.hoursInput.value.trim()) return; // typed on meanwhile: the next blur checks that
    if (answer.status === 200) {
      this.hours = answer.body;
      this.markHours(false);
    } else if (answer.status === 400) {
      this.markHours(true);
    } else {
      if (answer.status === 401) return toSignIn();
      this.checkedValue = null;
      this.hoursNote.textContent = failureText(answer);
    }
    this.showPreview();
  }

  /** The hours note: readable, or not (then the field is marked invalid). */
  private markHours(unreadable: boolean): void {
    if (!unreadable) {
      this.hoursInput.removeAttribute('aria-invalid');
      this.hoursInput.removeAttribute('aria-errormessage');
      this.hoursNote.className = 'hours-note ok';
      this.hoursNote.textContent = this.hoursInput.value.trim() === '' ? '' : t('dash.hoursOk');
      return;
    }
    this.hoursInput.setAttribute('aria-invalid', 'true');
    this.hoursInput.setAttribute('aria-errormessage', this.hoursNote.id);
    this.hoursNote.className = 'hours-note field-error';
    this.hoursNote.textContent = t('dash.hoursBad');
  }

  /** The label as the public will see it: the form's conditions, the checked hours, the live switch. */
  private showPreview(): void {
    const closed = !this.profile.open_now;
    const lines = partnerLabelLines(lang, {
      name: this.listing.name,
      tier: this.listing.plan.tier ?? 'basic',
      conditions: this.conditions(),
      opening_hours: this.hours?.opening_hours ?? null,
      open_now: closed ? false : this.hours?.open_now ?? 'unknown',
      closes_at: closed ? null : this.hours?.closes_at ?? null,
    });
    this.preview.replaceChildren(...lines.map((line) => el('p', {}, line)));
  }

  private showSwitch(): void {
    const closed = !this.profile.open_now;
    const state = el('p', { id: `switch-state-${this.listing.id}`, class: closed ? 'switch-state closed' : 'switch-state open' }, closed ? t('dash.switchClosed', { time: localTime(this.profile.closed_until, this.listing.time_zone) }) : t('dash.switchOpen'));
    const button = el('button', { type: 'button', class: closed ? 'big-switch reopen' : 'big-switch close', 'aria-describedby': state.id }, t(closed ? 'dash.reopen' : 'dash.close')) as HTMLButtonElement;
    const status = el('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
    button.addEventListener('click', () => void this.change({ open_now: closed }, status, button));
    this.switchBox.replaceChildren(state, button, status);
  }

  private async save(): Promise<void> {
    const status = this.form.querySelector('.form-status')!;
    clearErrors(this.form);
    const change = { conditions: this.conditions(), opening_hours: this.hoursInput.value.trim() };
    if (await this.change(change, status, this.form.querySelector('button[type=submit]')!)) {
      this.checkedValue = null;
      await this.checkHours();
    }
  }

  /** One updatePartnerProfile; the outcome in `status`; true when it was saved. */
  private async change(change: Partial<Profile>, status: Element, button: HTMLButtonElement): Promise<boolean> {
    // one outcome on the page at a time: the switch's and the form's lines speak of the same label
    for (const line of this.section.querySelectorAll('.form-status')) line.textContent = '';
    status.textContent = t('improve.sending');
    button.disabled = true;
    let answer: Answer<Profile & Problem>;
    try {
      answer = await call('PATCH', `/partner/listings/${this.listing.id}` as const, change);
    } catch (error) {
      status.textContent = failureText(error);
      return false;
    } finally {
      button.disabled = false;
    }
    if (answer.status === 401) {
      toSignIn();
      return false;
    }
    if (answer.status === 400) {
      const fault = answer.body.invalid_params?.find((p) => p.name === 'opening_hours');
      if (fault) this.markHours(true);
      const unmatched = showFieldErrors(this.form, { invalid_params: (answer.body.invalid_params ?? []).filter((p) => p.name !== 'opening_hours') });
      status.textContent = [t('claim.fix'), ...unmatched].join(' ');
      return false;
    }
    if (answer.status !== 200) {
      status.textContent = refusalText(answer);
      return false;
    }
    const before = this.profile;
    this.profile = answer.body;
    const changed = JSON.stringify(before) !== JSON.stringify(this.profile);
    this.showSwitch();
    this.showPreview();
    // the switch was redrawn: its own status line is new, so the outcome goes to the one still in the page
    const line = status.isConnected ? status : this.switchBox.querySelector('.form-status')!;
    line.textContent = t(changed ? 'dash.saved' : 'dash.unchanged');
    if ('open_now' in change) this.switchBox.querySelector('button')!.focus();
    return true;
  }
}
