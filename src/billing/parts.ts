// What billing is made of while it is configured (billing.ts makes it; the routes use it).
import type Stripe from 'stripe';
import type { BillingConfig } from './config.js';
import type { Checkouts } from './checkout.js';
import type { StripeEvents } from './events.js';

export interface BillingParts {
  config: BillingConfig;
  stripe: Stripe;
  checkouts: Checkouts;
  events: StripeEvents;
}
