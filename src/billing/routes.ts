// REST routes of partner billing: startCheckout and openBillingPortal (the site's page: signed in, same
// origin) and receiveStripeEvent (Stripe only: no rate limit, no origin, no session), behind the guard
// chain in the order the registry declares (503 billing off → 413 → 400 signature for the webhook); plus
// the checkout's cancel URL, a GET the browser comes back through from the payment page, which expires
// that checkout and shows the dashboard. Stripe's failures answer 502 (no answer) or 503 (refused, its
// message logged, never shown).
import type { HttpServer, RouteResult } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Config } from '../config.js';
import type { Limits } from '../api/limits.js';
import type { Logger } from '../log.js';
import { GuardChain, invalidBody, type GuardContext, type Refusal, type SessionReader, type SignatureVerifier } from '../api/guards.js';
import { operationIn, type RegistryEntry } from '../schemas/operations.js';
import type { InputOf } from '../schemas/answer-types.js';
import { BILLING_OPERATIONS, BILLING_ROUTES } from './operations.js';
import type { BillingParts } from './parts.js';
import { DASHBOARD_PATH } from './checkout.js';
import { BillingError } from './errors.js';
import type { SignedEvent } from './events.js';
import { ProviderRefused, ProviderUnreachable } from './provider.js';

export interface BillingRouteDeps {
  config: Config;
  limits: Limits;
  problems: Problems;
  sessions: SessionReader;
  signatures: SignatureVerifier;
  /** null while partner payments are off: the feature switch answers 503 before any handler. */
  parts: BillingParts | null;
  log: Logger;
  now: () => number;
}

const JSON_TYPE = ['Content-Type', 'application/json'];
/** Retry-After of "partner payments not available": the operator has to change a setting. */
const REFUSED_RETRY_SECONDS = 300;

export function registerBillingRoutes(server: HttpServer, deps: BillingRouteDeps): void {
  const guards = new GuardChain(deps);
  registerPageOperation<'startCheckout'>(server, guards, deps, 'startCheckout', (body, accountId, context) => partsOf(deps).checkouts.start(accountId, body.listing, body.tier, context.nowMs));
  registerPageOperation<'openBillingPortal'>(server, guards, deps, 'openBillingPortal', (body, accountId) => partsOf(deps).checkouts.portal(accountId, body.listing));
  registerWebhook(server, guards, deps);
  registerCheckoutCanceled(server, guards, deps);
}

function answer(context: GuardContext<unknown>, body: unknown): RouteResult {
  return { status: 200, headers: [...JSON_TYPE, ...context.headers], body: JSON.stringify(body) };
}

function partsOf(deps: BillingRouteDeps): BillingParts {
  if (deps.parts === null) throw new Error('a billing handler ran while billing is off: the feature switch must refuse first');
  return deps.parts;
}

/** Stripe's and the listing's refusals as problems; anything else is a fault (500). */
function refusalOf(error: unknown, operation: string, log: Logger): Refusal {
  if (error instanceof BillingError) return { slug: error.kind, detail: error.message };
  if (error instanceof ProviderUnreachable) {
    log.error(`${operation}: Stripe did not answer`, { error: error.message });
    return { slug: 'provider-unreachable', detail: 'The payment provider did not answer in time; nothing was charged or recorded. Send the request again in a moment.' };
  }
  if (error instanceof ProviderRefused) {
    log.error(`${operation}: Stripe refused; check the STRIPE_* settings and the Stripe account`, { error: error.message });
    return { slug: 'payments-unavailable', detail: 'Partner payments are not available right now; nothing was charged or recorded. The operator has been told; try again later.', retryAfterSeconds: REFUSED_RETRY_SECONDS };
  }
  throw error;
}

type BillingOperation<Id extends string> = Extract<(typeof BILLING_OPERATIONS)[number], { readonly operationId: Id }>;

/** An operation of the site's partner page: its body checked by the chain, then the URL of the Stripe page it opens. */
function registerPageOperation<const Id extends 'startCheckout' | 'openBillingPortal'>(server: HttpServer, guards: GuardChain, deps: BillingRouteDeps, operationId: Id, handle: (body: InputOf<BillingOperation<Id>>, accountId: string, context: GuardContext<unknown>) => Promise<string>): void {
  const spec: RegistryEntry = operationIn(BILLING_OPERATIONS, operationId);
  guards.operation(server, spec, {
    handle: async (_request, context) => {
      try {
        return answer(context, { url: await handle(context.input as InputOf<BillingOperation<Id>>, context.session!.account, context) });
      } catch (error) {
        return guards.refuse(refusalOf(error, operationId, deps.log), context);
      }
    },
  });
}

/** The payment provider's webhook: the signature step has put the verified event in context.body. */
function registerWebhook(server: HttpServer, guards: GuardChain, deps: BillingRouteDeps): void {
  guards.refinedOperation<RegistryEntry, SignedEvent>(server, operationIn(BILLING_OPERATIONS, 'receiveStripeEvent'), {
    validate: (_request, context) => {
      const event = context.body as Partial<SignedEvent> | null;
      const faults = [
        ...(typeof event?.id === 'string' && event.id.startsWith('evt_') ? [] : [{ name: 'id', reason: 'must be a Stripe event id (evt_…)' }]),
        ...(typeof event?.type === 'string' && event.type !== '' ? [] : [{ name: 'type', reason: 'must be the event type' }]),
        ...(typeof event?.data?.object === 'object' && event.data.object !== null ? [] : [{ name: 'data.object', reason: 'must be the object the event is about' }]),
      ];
      return faults.length > 0 ? invalidBody(faults) : { input: event as SignedEvent };
    },
    handle: async (_request, context) => {
      try {
        const { duplicate } = await partsOf(deps).events.receive(context.input);
        return answer(context, duplicate ? { received: true, duplicate: true } : { received: true });
      } catch (error) {
        return guards.refuse(refusalOf(error, 'receiveStripeEvent', deps.log), context);
      }
    },
  });
}

/**
 * The checkout page's cancel link: GET from a top-level navigation (the SameSite=Lax cookie comes along,
 * but the random attempt id in the link is what names the checkout), then the dashboard.
 */
function registerCheckoutCanceled(server: HttpServer, guards: GuardChain, deps: BillingRouteDeps): void {
  guards.operation(server, operationIn(BILLING_ROUTES, 'checkoutCanceled'), {
    handle: async (_request, context) => {
      const { listing, attempt } = context.input;
      const back = `${DASHBOARD_PATH}?listing=${listing}&checkout=canceled`;
      try {
        await partsOf(deps).checkouts.canceled(listing, attempt);
      } catch (error) {
        // the dashboard still shows; the open checkout expires by itself, or is ended by the next startCheckout
        const refusal = refusalOf(error, 'checkoutCanceled', deps.log);
        deps.log.info('checkout not expired on return through its cancel link', { listing, reason: refusal.slug });
      }
      return { status: 303, headers: ['Location', `${deps.config.baseUrl}${back}`, ...context.headers] };
    },
  });
}
