// startCheckout, the return through the checkout's cancel URL, and openBillingPortal. The state of a
// listing's checkout (README.md, "Checkout"): a pending row is written before Stripe is asked, with a
// random attempt id that is part of the idempotency key (listing + tier + attempt), so a second click
// while the first is still with Stripe gets the same session back instead of a second one. Stripe is the
// truth about a session: an earlier session is read back before deciding, and expired first when the
// person asks for the other tier or comes back through the cancel URL. A failure while making the session
// deletes the pending row again: nothing half-recorded.
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { BillingConfig } from './config.js';
import type { Logger } from '../log.js';
import type { PartnerTier } from '../schemas/resources.js';
import { BillingError } from './errors.js';
import type { BillableListing, ListingPlans } from './listings.js';
import { askStripe, ProviderRefused } from './provider.js';
import { FINAL_STATUSES, type BillingStore, type CheckoutRow } from './store.js';
import { CHECKOUT_CANCELED_PATH } from './operations.js';
import type { Step } from '../storage/steps.js';

/**
 * Stripe refuses an `expires_at` less than 30 minutes after it receives the request: the time on the way
 * and a clock a little behind Stripe's must not make the shortest expiry fail, so the session lives this
 * much longer (and at most 24 hours less this much).
 */
export const EXPIRY_MARGIN_SECONDS = 60;
const LONGEST_EXPIRY_SECONDS = 86_400 - EXPIRY_MARGIN_SECONDS;

/** The partner dashboard (site page) the checkout and the portal come back to. */
export const DASHBOARD_PATH = '/partner';

export interface CheckoutDeps {
  config: BillingConfig;
  stripe: Stripe;
  store: BillingStore;
  listings: ListingPlans;
  baseUrl: string;
  log: Logger;
}

export class Checkouts {
  constructor(private readonly deps: CheckoutDeps) {}

  /** The hosted checkout page's URL for the listing and tier. */
  async start(accountId: string, listingId: string, tier: PartnerTier, nowMs: number): Promise<string> {
    const listing = await this.ownListing(accountId, listingId);
    this.refuseUnbillable(listing, 'buy a plan');
    let next = await this.claimCheckout(accountId, listingId, tier, nowMs, null);
    if (next.kind === 'earlier') {
      const pending = next.row;
      const session = await this.readSession(pending.session_id!);
      if (session.status === 'complete') {
        throw new BillingError('checkout-paid', `The checkout for listing ${listingId} is paid: the plan starts as soon as Stripe confirms the payment. Reload the dashboard in a moment.`);
      }
      if (session.status === 'open' && pending.tier === tier) {
        throw new BillingError('checkout-open', `A checkout for listing ${listingId} (${tier}) is open: finish it on the payment page, or cancel it there, then send the request again.`);
      }
      if (session.status === 'open') await this.expire(session.id);
      next = await this.claimCheckout(accountId, listingId, tier, nowMs, pending.attempt);
      if (next.kind === 'earlier') throw new BillingError('checkout-open', `A checkout for listing ${listingId} was started again at this moment: reload the dashboard, then send the request again.`);
    }
    return this.makeSession(next.row, listing, nowMs);
  }

  /**
   * What the listing's checkout row says to do, decided and written in one transaction, so two clicks at
   * once see each other's row: `make` a session for this row (a new one, or the first click's, still being
   * made, whose idempotency key gives the same session), or look at the `earlier` session first. `replacing`:
   * the attempt of that earlier session, now expired or gone, which the new row replaces (unless another
   * request replaced it first).
   */
  private claimCheckout(accountId: string, listingId: string, tier: PartnerTier, nowMs: number, replacing: string | null): Promise<{ kind: 'make' | 'earlier'; row: CheckoutRow }> {
    const timeoutMs = this.deps.config.timeoutMs;
    return this.deps.store.transaction(function* (tables): Step<{ kind: 'make' | 'earlier'; row: CheckoutRow }> {
      const current = yield* tables.currentOfListing(listingId);
      if (current !== null && !FINAL_STATUSES.includes(current.status)) {
        throw new BillingError('subscription-exists', `Listing ${listingId} has a subscription already (${current.running === 1 ? 'running' : 'not running now'}): change or cancel it in the billing portal (openBillingPortal).`);
      }
      let pending = yield* tables.checkout(listingId);
      if (pending !== null && pending.session_id === null && nowMs - pending.created_at > 2 * timeoutMs) {
        // its request ended without an answer (the server stopped): nobody has its page, start again
        yield* tables.deleteCheckout(listingId, pending.attempt);
        pending = null;
      }
      if (pending !== null && pending.session_id === null && pending.tier === tier) {
        // the first click's session is still being made: ask again with its key, Stripe answers with the same session
        return { kind: 'make', row: pending };
      }
      if (pending !== null && pending.session_id === null) {
        throw new BillingError('checkout-open', `A checkout for listing ${listingId} is being made at this moment: wait a few seconds, then send the request again.`);
      }
      if (pending !== null && pending.attempt !== replacing) return { kind: 'earlier', row: pending };
      if (pending !== null) yield* tables.deleteCheckout(listingId, pending.attempt);
      const row: CheckoutRow = { listing_id: listingId, account_id: accountId, tier, attempt: randomBytes(16).toString('hex'), session_id: null, created_at: nowMs };
      yield* tables.insertCheckout(row);
      return { kind: 'make', row };
    });
  }

  /** The person came back through the cancel URL: the session of that attempt is expired, so nothing blocks a new one. */
  async canceled(listingId: string, attempt: string): Promise<void> {
    const { store } = this.deps;
    const pending = await store.read((tables) => tables.checkout(listingId));
    if (pending === null || pending.attempt !== attempt || pending.session_id === null) return;
    const session = await this.readSession(pending.session_id);
    if (session.status === 'open') await this.expire(session.id);
    if (session.status !== 'complete') await store.transaction((tables) => tables.deleteCheckout(listingId, attempt));
  }

  /** A fresh portal session's URL for the customer of the listing's subscription. */
  async portal(accountId: string, listingId: string): Promise<string> {
    const { stripe, store, baseUrl } = this.deps;
    const listing = await this.ownListing(accountId, listingId);
    this.refuseUnbillable(listing, 'manage billing');
    const current = await store.read((tables) => tables.currentOfListing(listingId));
    if (current === null || FINAL_STATUSES.includes(current.status)) {
      throw new BillingError('no-subscription', `Listing ${listingId} has no subscription${current === null ? '' : ' any more (it was canceled)'}: buy a plan first (startCheckout).`);
    }
    const portal = await askStripe('create a billing portal session', () =>
      stripe.billingPortal.sessions.create({ customer: current.customer_id, return_url: `${baseUrl}${DASHBOARD_PATH}?listing=${listingId}` }),
    );
    return portal.url;
  }

  private async ownListing(accountId: string, listingId: string): Promise<BillableListing> {
    const listing = await this.deps.listings.listing(listingId);
    if (listing === null || listing.account_id !== accountId) throw new BillingError('not-found', `This account has no partner listing ${listingId}: use an id from listMyPartnerListings.`);
    return listing;
  }

  private refuseUnbillable(listing: BillableListing, what: string): void {
    if (listing.claim_status !== 'approved') throw new BillingError('claim-not-approved', `The claim of listing ${listing.id} is ${listing.claim_status}, not approved: a moderator must approve it before you can ${what}.`);
    if (listing.manual_plan) throw new BillingError('manual-plan', `Listing ${listing.id} has a plan the operator set by hand: it is not billed through Stripe; ask the operator to end it first.`);
  }

  private async makeSession(pending: CheckoutRow, listing: BillableListing, nowMs: number): Promise<string> {
    const { config, stripe, store, baseUrl } = this.deps;
    try {
      const customer = await this.customer(pending.account_id, nowMs);
      const metadata = { listing: listing.id };
      const back = `${baseUrl}${DASHBOARD_PATH}?listing=${listing.id}`;
      const session = await askStripe('create a checkout session', () =>
        stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            customer,
            // automatic tax needs the address of a reused customer: taken from the page, kept on the customer
            customer_update: { address: 'auto', name: 'auto' },
            billing_address_collection: 'required',
            line_items: [{ price: config.prices[pending.tier], quantity: 1 }],
            automatic_tax: { enabled: config.automaticTax },
            client_reference_id: listing.id,
            metadata,
            subscription_data: { metadata },
            success_url: `${back}&checkout=done`,
            cancel_url: `${baseUrl}${CHECKOUT_CANCELED_PATH}?listing=${listing.id}&attempt=${pending.attempt}`,
            // from the pending row's time, so a second click sends the same parameters with the same key
            expires_at: Math.floor(pending.created_at / 1000) + Math.min(config.checkoutExpiryMinutes * 60 + EXPIRY_MARGIN_SECONDS, LONGEST_EXPIRY_SECONDS),
          },
          { idempotencyKey: `checkout:${listing.id}:${pending.tier}:${pending.attempt}` },
        ),
      );
      await store.transaction((tables) => tables.setCheckoutSession(listing.id, pending.attempt, session.id));
      if (session.url === null) throw new ProviderRefused('create a checkout session: Stripe answered a session without a URL', undefined);
      return session.url;
    } catch (error) {
      await store.transaction(function* (tables) {
        const row = yield* tables.checkout(listing.id);
        if (row?.attempt === pending.attempt && row.session_id === null) yield* tables.deleteCheckout(listing.id, pending.attempt);
      });
      throw error;
    }
  }

  /** The account's Stripe customer, made on its first checkout (one per account: the key is the account's). */
  private async customer(accountId: string, nowMs: number): Promise<string> {
    const { stripe, store } = this.deps;
    const known = await store.read((tables) => tables.customerOf(accountId));
    if (known !== null) return known;
    const made = await askStripe('create a customer', () => stripe.customers.create({ metadata: { account: accountId } }, { idempotencyKey: `customer:${accountId}` }));
    return store.transaction(function* (tables) {
      yield* tables.insertCustomer(accountId, made.id, nowMs);
      return (yield* tables.customerOf(accountId))!;
    });
  }

  private readSession(id: string): Promise<Stripe.Checkout.Session> {
    return askStripe('read a checkout session', () => this.deps.stripe.checkout.sessions.retrieve(id));
  }

  private async expire(sessionId: string): Promise<void> {
    try {
      await askStripe('expire a checkout session', () => this.deps.stripe.checkout.sessions.expire(sessionId));
    } catch (error) {
      // paid or expired meanwhile: read it back and decide on what it is now
      if (!(error instanceof ProviderRefused)) throw error;
      const now = await this.readSession(sessionId);
      if (now.status === 'complete') throw new BillingError('checkout-paid', 'The checkout was paid meanwhile: the plan starts as soon as Stripe confirms the payment.');
    }
  }
}
