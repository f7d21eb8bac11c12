// The stand-in's objects and what may be done to them, with the rules of the real API that matter to this
// service: a checkout session is open until paid, expired by a call or by its expires_at, never both; a
// paid session makes a subscription whose metadata is the session's subscription_data.metadata; a
// canceled subscription stays canceled. Every change that Stripe announces by an event is announced here
// through `emit`, with the object as it is after the change. Objects are typed with the `stripe`
// package's own types, narrowed (Pick) to the fields modelled.
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

export type Customer = Pick<Stripe.Customer, 'id' | 'object' | 'created' | 'email' | 'name' | 'address' | 'metadata' | 'livemode'>;
export type Price = Pick<Stripe.Price, 'id' | 'object' | 'active' | 'currency' | 'unit_amount' | 'tax_behavior' | 'type' | 'product' | 'nickname' | 'livemode' | 'metadata'> & {
  recurring: Pick<Stripe.Price.Recurring, 'interval' | 'interval_count'>;
};
export type SubscriptionItem = Pick<Stripe.SubscriptionItem, 'id' | 'object' | 'quantity' | 'current_period_start' | 'current_period_end' | 'subscription' | 'metadata' | 'created'> & { price: Price };
export type Subscription = Pick<Stripe.Subscription, 'id' | 'object' | 'customer' | 'status' | 'metadata' | 'created' | 'start_date' | 'canceled_at' | 'ended_at' | 'cancel_at_period_end' | 'livemode' | 'latest_invoice'> & {
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; url: string };
};
export type CheckoutSession = Pick<
  Stripe.Checkout.Session,
  'id' | 'object' | 'mode' | 'status' | 'payment_status' | 'url' | 'customer' | 'client_reference_id' | 'metadata' | 'expires_at' | 'success_url' | 'cancel_url' | 'subscription' | 'created' | 'livemode' | 'billing_address_collection'
> & {
  automatic_tax: { enabled: boolean };
  /** Not on Stripe's object: what the stand-in needs to make the subscription and the address form. */
  stand_in: { price: string; subscription_metadata: Record<string, string>; collects_address: boolean };
};
export type PortalSession = Pick<Stripe.BillingPortal.Session, 'id' | 'object' | 'customer' | 'return_url' | 'url' | 'created' | 'livemode'> & { expires_at: number };
export type StandInEvent = Pick<Stripe.Event, 'id' | 'object' | 'api_version' | 'created' | 'livemode' | 'pending_webhooks' | 'request'> & {
  type: string;
  data: { object: unknown };
};

/** A refusal as the real API words it: HTTP status, error type and message, the parameter at fault. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = 'invalid_request_error',
    readonly param?: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface PriceSetting {
  id: string;
  nickname: string;
  /** Net, in cents. */
  unitAmount: number;
  currency: string;
}

export const SUBSCRIPTION_STATUSES: readonly Stripe.Subscription.Status[] = ['active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused'];

const PORTAL_SESSION_SECONDS = 300;
const MONTH_SECONDS = 30 * 86_400;

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export class StandInState {
  readonly customers = new Map<string, Customer>();
  readonly prices = new Map<string, Price>();
  readonly sessions = new Map<string, CheckoutSession>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly portals = new Map<string, PortalSession>();

  constructor(
    prices: readonly PriceSetting[],
    private readonly publicUrl: () => string,
    private readonly now: () => number,
    private readonly emit: (type: string, object: unknown) => void,
  ) {
    for (const p of prices) {
      this.prices.set(p.id, {
        id: p.id,
        object: 'price',
        active: true,
        currency: p.currency,
        unit_amount: p.unitAmount,
        tax_behavior: 'exclusive',
        type: 'recurring',
        recurring: { interval: 'month', interval_count: 1 },
        product: `prod_${p.nickname}`,
        nickname: p.nickname,
        livemode: false,
        metadata: {},
      });
    }
  }

  seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  createCustomer(params: { email?: string; name?: string; metadata?: Record<string, string> }): Customer {
    const customer: Customer = { id: newId('cus'), object: 'customer', created: this.seconds(), email: params.email ?? null, name: params.name ?? null, address: null, metadata: params.metadata ?? {}, livemode: false };
    this.customers.set(customer.id, customer);
    return customer;
  }

  customer(id: string): Customer {
    const found = this.customers.get(id);
    if (!found) throw new ApiRefusal(404, `No such customer: '${id}'`, 'invalid_request_error', 'id', 'resource_missing');
    return found;
  }

  price(id: string, param: string): Price {
    const found = this.prices.get(id);
    if (!found) throw new ApiRefusal(400, `No such price: '${id}'`, 'invalid_request_error', param, 'resource_missing');
    return found;
  }

  createSession(params: {
    mode?: string;
    priceId?: string;
    quantity?: number;
    customer?: string;
    customerUpdateAddress?: string;
    automaticTax: boolean;
    billingAddressCollection?: string;
    successUrl?: string;
    cancelUrl?: string;
    clientReferenceId?: string;
    metadata: Record<string, string>;
    subscriptionMetadata: Record<string, string>;
    expiresAt?: number;
  }): CheckoutSession {
    if (params.mode !== 'subscription') throw new ApiRefusal(400, 'The stand-in models mode=subscription only.', 'invalid_request_error', 'mode');
    if (params.priceId === undefined) throw new ApiRefusal(400, 'line_items[0][price] is required.', 'invalid_request_error', 'line_items[0][price]');
    this.price(params.priceId, 'line_items[0][price]');
    if (params.successUrl === undefined) throw new ApiRefusal(400, 'Missing required param: success_url.', 'invalid_request_error', 'success_url', 'parameter_missing');
    const customer = params.customer === undefined ? null : this.customer(params.customer);
    if (params.automaticTax && customer !== null && customer.address === null && params.customerUpdateAddress !== 'auto') {
      throw new ApiRefusal(
        400,
        "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` to 'auto' or `customer_update[shipping]` to 'auto' to save the address entered in Checkout to the Customer.",
        'invalid_request_error',
        'automatic_tax[enabled]',
      );
    }
    const now = this.seconds();
    const expiresAt = params.expiresAt ?? now + 86_400;
    if (expiresAt < now + 1800 || expiresAt > now + 86_400) {
      throw new ApiRefusal(400, 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.', 'invalid_request_error', 'expires_at');
    }
    const id = newId('cs_test');
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.publicUrl()}/checkout/${id}`,
      customer: customer?.id ?? null,
      client_reference_id: params.clientReferenceId ?? null,
      metadata: params.metadata,
      expires_at: expiresAt,
      success_url: params.successUrl,
      cancel_url: params.cancelUrl ?? null,
      subscription: null,
      created: now,
      livemode: false,
      billing_address_collection: params.billingAddressCollection === 'required' ? 'required' : 'auto',
      automatic_tax: { enabled: params.automaticTax },
      stand_in: { price: params.priceId, subscription_metadata: params.subscriptionMetadata, collects_address: params.billingAddressCollection === 'required' || params.automaticTax },
    };
    this.sessions.set(id, session);
    return session;
  }

  /** The session as it is now: one past its expires_at has expired (and said so). */
  session(id: string): CheckoutSession {
    const found = this.sessions.get(id);
    if (!found) throw new ApiRefusal(404, `No such checkout.session: '${id}'`, 'invalid_request_error', 'session', 'resource_missing');
    if (found.status === 'open' && found.expires_at <= this.seconds()) this.endSession(found);
    return found;
  }

  expireSession(id: string): CheckoutSession {
    const session = this.session(id);
    if (session.status !== 'open') throw new ApiRefusal(400, `Only Checkout Sessions with a status of \`open\` can be expired. This session has a status of \`${session.status}\`.`);
    this.endSession(session);
    return session;
  }

  private endSession(session: CheckoutSession): void {
    session.status = 'expired';
    session.url = null;
    this.emit('checkout.session.expired', session);
  }

  /** The hosted page's "pay": a subscription in `status` for the session's price, the address kept on the customer. */
  pay(id: string, address: Stripe.Address | null, status: Stripe.Subscription.Status = 'active'): CheckoutSession {
    const session = this.session(id);
    if (session.status !== 'open') throw new ApiRefusal(400, `This Checkout Session is ${session.status}; it can no longer be paid.`);
    if (session.stand_in.collects_address && (address === null || !address.line1 || !address.country)) throw new ApiRefusal(400, 'A billing address (street and country) is required.');
    const customer = session.customer === null ? this.createCustomer({}) : this.customer(session.customer as string);
    if (address !== null) customer.address = address;
    const subscription = this.createSubscription(customer.id, session.stand_in.price, session.stand_in.subscription_metadata, status);
    session.status = 'complete';
    session.payment_status = status === 'active' || status === 'trialing' ? 'paid' : 'unpaid';
    session.customer = customer.id;
    session.subscription = subscription.id;
    session.url = null;
    this.emit('customer.subscription.created', subscription);
    this.emit('checkout.session.completed', session);
    return session;
  }

  private createSubscription(customer: string, priceId: string, metadata: Record<string, string>, status: Stripe.Subscription.Status): Subscription {
    const now = this.seconds();
    const id = newId('sub');
    const subscription: Subscription = {
      id,
      object: 'subscription',
      customer,
      status,
      metadata,
      created: now,
      start_date: now,
      canceled_at: null,
      ended_at: null,
      cancel_at_period_end: false,
      livemode: false,
      latest_invoice: null,
      items: { object: 'list', data: [this.item(id, priceId, now)], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
    };
    this.subscriptions.set(id, subscription);
    return subscription;
  }

  private item(subscription: string, priceId: string, start: number): SubscriptionItem {
    return { id: newId('si'), object: 'subscription_item', quantity: 1, current_period_start: start, current_period_end: start + MONTH_SECONDS, subscription, metadata: {}, created: start, price: this.price(priceId, 'price') };
  }

  subscription(id: string): Subscription {
    const found = this.subscriptions.get(id);
    if (!found) throw new ApiRefusal(404, `No such subscription: '${id}'`, 'invalid_request_error', 'id', 'resource_missing');
    return found;
  }

  /** Ends the subscription at once (the API's cancel, the portal's "cancel"). */
  cancel(id: string): Subscription {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      throw new ApiRefusal(400, 'A canceled subscription can only update its cancellation_details and metadata.');
    }
    const now = this.seconds();
    subscription.status = 'canceled';
    subscription.canceled_at = now;
    subscription.ended_at = now;
    this.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /** The portal's plan switch: the item's price changes, the status stays. */
  switchPrice(id: string, priceId: string): Subscription {
    const subscription = this.subscription(id);
    if (subscription.status === 'canceled') throw new ApiRefusal(400, 'A canceled subscription cannot change its plan.');
    subscription.items.data = [this.item(id, priceId, subscription.items.data[0].current_period_start)];
    this.emit('customer.subscription.updated', subscription);
    return subscription;
  }

  /** What happens to payments over time (renewal failed, dunning ended, paused): for tests and the control page. */
  setStatus(id: string, status: Stripe.Subscription.Status, periodStart?: number): Subscription {
    const subscription = this.subscription(id);
    subscription.status = status;
    if (periodStart !== undefined) subscription.items.data[0].current_period_start = periodStart;
    if (status === 'canceled') {
      subscription.canceled_at = this.seconds();
      subscription.ended_at = this.seconds();
    }
    this.emit(status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated', subscription);
    return subscription;
  }

  createPortal(customerId: string, returnUrl: string | undefined): PortalSession {
    this.customer(customerId);
    const id = newId('bps');
    const created = this.seconds();
    const portal: PortalSession = { id, object: 'billing_portal.session', customer: customerId, return_url: returnUrl ?? null, url: `${this.publicUrl()}/portal/${id}`, created, livemode: false, expires_at: created + PORTAL_SESSION_SECONDS };
    this.portals.set(id, portal);
    return portal;
  }

  subscriptionsOf(customerId: string): Subscription[] {
    return [...this.subscriptions.values()].filter((s) => s.customer === customerId);
  }
}
