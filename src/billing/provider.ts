// The one place that talks to Stripe: the `stripe` SDK made from the configuration (short timeout, no
// retries of its own: a webhook is resent by Stripe, a click by the person), and the two ways a call can
// fail told apart, because the spec answers them differently:
// - Stripe did not answer (no connection, timeout, its 5xx): ProviderUnreachable → 502; nothing recorded.
// - Stripe answered with a refusal (4xx: a bad key, an unknown price, Stripe Tax not set up):
//   ProviderRefused → 503 "partner payments not available"; its message goes to the log, never to the client.
import type Stripe from 'stripe';
import type { BillingConfig } from './config.js';
import { stripeSdk } from './stripe-sdk.js';

export class ProviderUnreachable extends Error {}

export class ProviderRefused extends Error {
  constructor(
    message: string,
    /** Stripe's error code, e.g. resource_missing. */
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export function stripeClient(config: BillingConfig): Stripe {
  const StripeClient = stripeSdk();
  return new StripeClient(config.secretKey, {
    timeout: config.timeoutMs,
    maxNetworkRetries: 0,
    telemetry: false,
    appInfo: { name: 'toilet-finder' },
    ...(config.apiBase ?? {}),
  });
}

/** Runs one Stripe call; its failure becomes ProviderUnreachable or ProviderRefused (what was asked is in the message). */
export async function askStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof stripeSdk().errors.StripeError)) throw error; // a fault of ours, not Stripe's
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) throw new ProviderRefused(`${what}: Stripe refused (${status} ${error.type}${error.code ? ` ${error.code}` : ''}): ${error.message}`, error.code);
    throw new ProviderUnreachable(`${what}: ${error.type}: ${error.message}`);
  }
}
