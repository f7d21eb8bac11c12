// Assembles partner billing for the server (app.ts): the Stripe client (none while STRIPE_SECRET_KEY is
// unset: the operations answer 503), checkouts and the portal (checkout.ts), the webhook's events
// (events.ts), the routes, the account deletion hook (a subscription that can still charge blocks the
// deletion unless the person confirms its cancellation; then it is canceled at Stripe), and an hourly
// sweep, a background job (src/cluster/worker.ts; with the tables in PostgreSQL on the cluster's worker only): past-due plans whose grace ended stop without waiting for an event, and handled event ids older
// than Stripe's resending (three days) are forgotten after 30 days.
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Limits } from '../api/limits.js';
import type { SessionReader } from '../api/guards.js';
import { DeletionPostponed, type DeletionHook } from '../accounts/deletion.js';
import type { Config } from '../config.js';
import type { BillingParts } from './parts.js';
import type { Logger } from '../log.js';
import { Checkouts } from './checkout.js';
import { StripeEvents } from './events.js';
import type { ListingPlans } from './listings.js';
import { statusRuns } from './plan.js';
import { askStripe, ProviderRefused, ProviderUnreachable, stripeClient } from './provider.js';
import { registerBillingRoutes } from './routes.js';
import type { BillingStore } from './store.js';
import { webhookVerifier } from './signature.js';
import type { BackgroundJob } from '../feature.js';

const SWEEP_EVERY_MS = 3_600_000;
/** Handled event ids are kept this long: far beyond Stripe's three days of resending. */
export const EVENT_IDS_KEPT_MS = 30 * 86_400_000;

export interface BillingServeDeps {
  limits: Limits;
  problems: Problems;
  sessions: SessionReader;
}

export class Billing {
  /** Its name and what it stands on, for the start and close order (src/feature.ts). */
  readonly name = 'billing';
  readonly needs: readonly string[] = ['accounts', 'partners'];
  /** null while partner payments are not configured. */
  readonly parts: BillingParts | null;
  /** The hourly sweep. */
  readonly jobs: readonly BackgroundJob[];

  constructor(
    private readonly config: Config,
    /** The billing tables, with the partner listings' of the same database (store-choice.ts). */
    readonly store: BillingStore,
    private readonly listings: ListingPlans,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {
    this.jobs = [this.sweepJob()];
    const billing = config.billing;
    if (billing === null) {
      this.parts = null;
      return;
    }
    const stripe = stripeClient(billing);
    this.parts = {
      config: billing,
      stripe,
      checkouts: new Checkouts({ config: billing, stripe, store, listings, baseUrl: config.baseUrl, log }),
      events: new StripeEvents({ config: billing, stripe, store, listings, log, now }),
    };
  }

  serve(server: HttpServer, deps: BillingServeDeps): void {
    registerBillingRoutes(server, { ...deps, config: this.config, parts: this.parts, signatures: webhookVerifier(this.config.billing), log: this.log, now: this.now });
  }

  /** The account deletion hook (src/accounts/deletion.ts): a running subscription blocks, or is canceled. */
  readonly accountDeletion: DeletionHook = {
    name: 'billing',
    blocker: async (accountId, confirmed) => {
      if (confirmed.cancellation) return null;
      const open = await this.store.read((tables) => tables.openSubscriptionsOf(accountId));
      if (open.length === 0) return null;
      const named: string[] = [];
      for (const row of open) named.push(`${(await this.listings.listing(row.listing_id))?.name ?? 'a listing'} (${row.listing_id})`);
      return `The partner listing${open.length === 1 ? '' : 's'} ${named.join(', ')} ${open.length === 1 ? 'has a subscription' : 'have subscriptions'} that can still charge; deleting the account cancels ${open.length === 1 ? 'it' : 'them'} at once, without refund of the current month.`;
    },
    erase: (accountId) => this.cancelAll(accountId),
    remote: true,
  };

  /** Its work is the sweep job's (the worker starts it). */
  start(): void {}

  close(): void {}

  /** The sweep at once and then hourly: on the cluster's worker when the tables are shared, else on every replica (its own file). */
  private sweepJob(): BackgroundJob {
    let timer: NodeJS.Timeout | null = null;
    let sweeping: Promise<void> = Promise.resolve();
    return {
      name: 'billing-sweep',
      runsOn: this.store.shared ? 'cluster-worker' : 'every-replica',
      start: () => {
        if (timer !== null) return;
        sweeping = this.sweep();
        timer = setInterval(() => void (sweeping = this.sweep()), SWEEP_EVERY_MS).unref();
      },
      stop: async () => {
        if (timer !== null) clearInterval(timer);
        timer = null;
        await sweeping;
      },
    };
  }

  /** Cancels the account's subscriptions and expires its open checkouts at Stripe (idempotent). */
  private async cancelAll(accountId: string): Promise<void> {
    const open = await this.store.read((tables) => tables.openSubscriptionsOf(accountId));
    if (open.length === 0) return;
    const parts = this.parts;
    if (parts === null) throw new DeletionPostponed('The account has a partner subscription, and partner payments are switched off on this server, so it cannot be canceled now: ask the operator, or try again later.');
    try {
      for (const row of open) {
        const canceled = await askStripe('cancel a subscription', () => parts.stripe.subscriptions.cancel(row.subscription_id)).catch(async (error: unknown) => {
          // canceled meanwhile (in the portal): read what it is
          if (error instanceof ProviderRefused) return askStripe('read a subscription', () => parts.stripe.subscriptions.retrieve(row.subscription_id));
          throw error;
        });
        this.listings.planShown(await this.store.transaction((tables) => parts.events.apply(tables, canceled)));
        this.log.info('subscription canceled with its account', { subscription: row.subscription_id, listing: row.listing_id });
      }
    } catch (error) {
      if (error instanceof ProviderUnreachable || error instanceof ProviderRefused) {
        this.log.error('account deletion postponed: a subscription could not be canceled at Stripe', { account: accountId, error: error.message });
        throw new DeletionPostponed('Stripe did not answer, so the subscription could not be canceled and nothing was deleted: try again in a minute.');
      }
      throw error;
    }
  }

  /** Ends the past-due graces that are over and forgets old event ids; hourly (tests call it after moving the clock). */
  async sweep(): Promise<void> {
    const { config: { billing }, parts, log } = this;
    try {
      const nowMs = this.now();
      const toilets = await this.store.transaction(function* (tables) {
        yield* tables.purgeEvents(nowMs - EVENT_IDS_KEPT_MS);
        const changed: string[] = [];
        if (billing === null || parts === null) return changed;
        for (const row of yield* tables.pastDueRunning()) {
          if (statusRuns(billing, row.status, row.period_start, nowMs)) continue;
          yield* tables.setRunning(row.subscription_id, false, nowMs);
          changed.push(...(yield* parts.events.applyCurrent(tables, row.listing_id)));
          log.info('past-due grace ended: the plan stops', { subscription: row.subscription_id, listing: row.listing_id });
        }
        return changed;
      });
      this.listings.planShown(toilets);
    } catch (error) {
      this.log.error('billing sweep failed; trying again in an hour', { error: String(error) });
    }
  }
}
