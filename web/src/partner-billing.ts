// The plan part of an approved listing on the partner dashboard (/partner): the plan as it stands (running
// tier; paid through the payment provider, or set by the operator, which has no billing buttons), the
// choice of Basic or Plus with what they differ in and the price terms (the amounts are the provider's:
// the server knows only its price ids, and the spec shows no amounts, so the provider's page shows them
// before anyone pays), startCheckout and then the provider's page, "Manage billing" (openBillingPortal), and
// the way back: `?listing=…&checkout=done` shows the payment as received and asks listMyPartnerListings
// again with growing pauses until the provider's event has made the plan run, `checkout=canceled` says
// nothing was charged. Whether the site takes payments at all is the page's `data-payments`
// (src/web/account-pages.ts). Every refusal is said in words, per problem type.
import { t } from './common.js';
import { call, failureText, isProblem, type Answer } from './account-api.js';
import { el } from './dom.js';
import type { TextKey } from '../../src/web/text/catalogue.js';

export type Tier = 'basic' | 'plus';

export interface Plan {
  tier: Tier | null;
  source: 'manual' | 'stripe' | null;
  running: boolean;
}

export interface BilledListing {
  id: string;
  plan: Plan;
}

export interface BillingActions {
  /** Reads the dashboard again (the plan runs now). */
  reload(): Promise<void>;
  /** The session ended: to the sign-in page, and back. */
  signIn(): void;
  /** listMyPartnerListings' answer for this listing now (null: not one of the account's any more). */
  plan(listingId: string): Promise<Answer<Plan | null>>;
}

const TIERS: readonly Tier[] = ['basic', 'plus'];
/** Pauses before each new look at the plan after a payment (about half a minute in all), then "reload later". */
const CONFIRMATION_PAUSES_MS = [1000, 2000, 4000, 8000, 16000];

type Payments = 'closed' | 'vat' | 'net';
const payments = (): Payments => {
  const value = document.body.dataset.payments;
  return value === 'vat' || value === 'net' ? value : 'closed';
};

export const tierName = (tier: Tier): string => t(`dash.tier.${tier}`);

/** How the browser came back from the payment provider for this listing (the success and cancel URLs). */
function returnOf(listingId: string): 'done' | 'canceled' | null {
  const query = new URLSearchParams(location.search);
  if (query.get('listing') !== listingId) return null;
  const checkout = query.get('checkout');
  return checkout === 'done' || checkout === 'canceled' ? checkout : null;
}

/** True when the browser came back to this listing from the provider's checkout or portal. */
export function cameBackTo(listingId: string): boolean {
  return new URLSearchParams(location.search).get('listing') === listingId;
}

export function planText({ plan }: BilledListing): string {
  if (!plan.running || plan.tier === null) return payments() === 'closed' && plan.source !== 'stripe' ? `${t('dash.planNone')} ${t('dash.planAsk')}` : t('dash.planNone');
  return t(plan.source === 'stripe' ? 'dash.plan.stripe' : 'dash.plan.manual', { tier: tierName(plan.tier) });
}

/** What a refused startCheckout or openBillingPortal means, in words. */
function refusalText(answer: Answer): string {
  const problems: [string, TextKey][] = [
    ['claim-not-approved', 'bill.err.notApproved'],
    ['manual-plan', 'bill.err.manual'],
    ['subscription-exists', 'bill.err.subscription'],
    ['no-subscription', 'bill.err.noSubscription'],
    ['checkout-open', 'bill.err.checkoutOpen'],
    ['checkout-paid', 'bill.pending'],
    ['provider-unreachable', 'bill.err.unreachable'],
    ['payments-not-open', 'bill.err.notOpen'],
    ['payments-unavailable', 'bill.err.unavailable'],
  ];
  const known = problems.find(([slug]) => isProblem(answer, slug));
  if (known) return t(known[1]);
  if (answer.status === 404) return t('dash.notYours');
  if (answer.status === 502) return t('bill.err.unreachable');
  return failureText(answer);
}

/** The plan part of one approved listing. */
export function billingPart(listing: BilledListing, actions: BillingActions): HTMLElement {
  const { plan } = listing;
  const headingId = `bill-${listing.id}`;
  const status = el('p', { class: 'form-status', role: 'status', 'aria-live': 'polite' });
  const part = el('div', { class: 'billing', role: 'group', 'aria-labelledby': headingId }, el('h3', { id: headingId }, t('bill.heading')), el('p', { class: 'plan' }, planText(listing)));
  const came = returnOf(listing.id);
  const manage = manageButton(listing, actions, status);

  if (plan.running && plan.source === 'manual') {
    part.append(el('p', { class: 'hint' }, t('bill.manual')), status);
    return part;
  }
  if (plan.running) {
    if (came === 'done' && plan.tier !== null) status.textContent = t('bill.confirmed', { tier: tierName(plan.tier) });
    part.append(status, manage.box);
    manage.box.hidden = false;
    return part;
  }
  if (came === 'canceled') status.textContent = t('bill.canceled');
  if (payments() === 'closed') {
    part.append(el('p', { class: 'notice-inline' }, t('bill.closed')), status);
    return part;
  }
  const buttons: HTMLButtonElement[] = [];
  const offer = el('div', { class: 'offer-tiers' });
  // paid: no second purchase offered while the provider's confirmation is awaited
  const waiting = () => {
    offer.hidden = true;
    void waitForPlan(listing.id, status, actions);
  };
  const choose = async (tier: Tier) => {
    for (const button of buttons) button.disabled = true;
    status.textContent = t('bill.opening');
    let answer: Answer<{ url: string }>;
    try {
      answer = await call('POST', '/billing/checkout', { listing: listing.id, tier });
    } catch (error) {
      answer = { status: 0, body: { url: '' } };
      status.textContent = failureText(error);
    }
    if (answer.status === 200) return location.assign(answer.body.url); // the buttons stay off while the page goes
    for (const button of buttons) button.disabled = false;
    if (answer.status === 401) return actions.signIn();
    if (answer.status === 0) return;
    status.textContent = refusalText(answer);
    if (isProblem(answer, 'subscription-exists')) manage.box.hidden = false;
    if (isProblem(answer, 'checkout-paid')) waiting();
  };
  const tiers = el(
    'div',
    { class: 'tiers' },
    ...TIERS.map((tier) => {
      const button = el('button', { type: 'button', class: 'primary' }, t('bill.pay', { tier: tierName(tier) })) as HTMLButtonElement;
      button.addEventListener('click', () => void choose(tier));
      buttons.push(button);
      return el('div', { class: 'tier' }, el('h4', {}, tierName(tier)), el('p', {}, t(`bill.${tier}.what`)), button);
    }),
  );
  offer.append(el('p', {}, t('bill.choose')), tiers, el('p', { class: 'hint' }, t(payments() === 'vat' ? 'bill.price.vat' : 'bill.price.net')));
  part.append(status, offer, manage.box);
  if (came === 'done') waiting();
  return part;
}

/** "Manage billing": openBillingPortal, then the provider's portal (hidden until the listing has a subscription). */
function manageButton(listing: BilledListing, actions: BillingActions, status: HTMLElement): { box: HTMLElement } {
  const helpId = `manage-help-${listing.id}`;
  const button = el('button', { type: 'button', 'aria-describedby': helpId }, t('bill.manage')) as HTMLButtonElement;
  button.addEventListener('click', () => {
    void (async () => {
      button.disabled = true;
      status.textContent = t('bill.opening');
      try {
        const answer = await call('POST', '/billing/portal', { listing: listing.id });
        if (answer.status === 200) return location.assign(answer.body.url);
        if (answer.status === 401) return actions.signIn();
        status.textContent = refusalText(answer);
      } catch (error) {
        status.textContent = failureText(error);
      }
      button.disabled = false;
    })();
  });
  return { box: el('div', { class: 'manage', hidden: true }, button, el('p', { id: helpId, class: 'hint' }, t('bill.manageHelp'))) };
}

/** Paid, not running yet: looks again with growing pauses until the provider's event made the plan run. */
async function waitForPlan(listingId: string, status: HTMLElement, actions: BillingActions): Promise<void> {
  status.textContent = t('bill.pending');
  for (const pause of CONFIRMATION_PAUSES_MS) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    if (!status.isConnected) return; // the dashboard was drawn again meanwhile
    const answer = await actions.plan(listingId).catch(() => null);
    if (answer?.status === 401) return actions.signIn();
    if (answer?.status === 200 && answer.body?.running) return actions.reload();
  }
  if (status.isConnected) status.textContent = t('bill.pendingLong');
}
