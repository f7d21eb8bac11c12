// The `stripe` package, loaded when partner payments are configured rather than with every server: its
// modules cost about 0.08 s of CPU at each start, and most sites never configure billing. Loaded
// synchronously (its CommonJS build) because the webhook's signature check runs inside the guard chain.
// Every value use of the SDK goes through here, so its error classes are the ones its client throws.
import { createRequire } from 'node:module';
import type Stripe from 'stripe';

let sdk: typeof Stripe | undefined;

/** The SDK's constructor with its `errors` and `webhooks`, required once. */
export function stripeSdk(): typeof Stripe {
  sdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  return sdk;
}
