// The webhook's signature check, for the guard chain's `signature` step (src/api/guards.ts): Stripe's
// `Stripe-Signature` (t=<unix seconds>,v1=<HMAC-SHA256 of "t.body">) verified by the `stripe` SDK over the
// raw bytes as received, never re-serialised JSON, with a tolerance of 5 minutes measured on the injected
// clock. The answer says which of the three went wrong, never the expected signature.
import type { SignatureVerifier } from '../api/guards.js';
import type { BillingConfig } from './config.js';
import { stripeSdk } from './stripe-sdk.js';

/** Stripe's default: an event signed longer ago than this is refused (a replayed capture). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function webhookVerifier(config: BillingConfig | null): SignatureVerifier {
  if (config === null) {
    // unreachable while the feature switch refuses first (503); refuses rather than passes if it ever is not
    return { verify: () => ({ ok: false, reason: 'Partner payments are not configured on this server, so no signature can be checked.' }) };
  }
  const { webhookSecret } = config;
  const Stripe = stripeSdk();
  return {
    verify(rawBody, header, nowMs) {
      if (header === '') return { ok: false, reason: 'The Stripe-Signature header is missing: only Stripe sends events here.' };
      try {
        return { ok: true, event: Stripe.webhooks.constructEvent(rawBody, header, webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, nowMs) };
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) {
          return { ok: false, reason: 'The body is signed but is not a JSON event.' };
        }
        if (error.message.startsWith('Timestamp outside the tolerance zone')) {
          return { ok: false, reason: `The signature is older than ${SIGNATURE_TOLERANCE_SECONDS / 60} minutes: Stripe sends the event again with a new one.` };
        }
        return { ok: false, reason: "The Stripe-Signature does not match the body: it must be the exact bytes Stripe signed, with this endpoint's signing secret (STRIPE_WEBHOOK_SECRET)." };
      }
    },
  };
}
