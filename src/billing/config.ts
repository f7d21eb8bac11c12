// The settings of partner payments (README.md, "Partner payments"): the Stripe keys and prices, and the
// billing rules. Read from the environment and checked here, at the start; off while STRIPE_SECRET_KEY is unset.
import { boolean, ConfigError, httpUrl, integer } from '../config-values.js';

/** STRIPE_* and the billing rules (README.md, "Partner payments"). Secrets: never logged, never answered. */
export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  /** Stripe price id per partner tier: net monthly prices (tax_behavior exclusive). */
  prices: { basic: string; plus: string };
  /** Stripe Tax adds VAT from the customer's address (STRIPE_AUTOMATIC_TAX, default on). */
  automaticTax: boolean;
  /** STRIPE_API_BASE: another API server (the stand-in, dev/stripe-stand-in) with a test key on loopback only. */
  apiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
  /** How long a call to Stripe may take before it counts as not answering (502). */
  timeoutMs: number;
  /** A checkout session expires this long after it is made (Stripe allows 30 minutes to 24 hours). */
  checkoutExpiryMinutes: number;
  /** A past-due subscription keeps its plan running this many days from the start of the unpaid period. */
  pastDueGraceDays: number;
}

export interface BillingSettings {
  /** Partner payments through Stripe; null while STRIPE_SECRET_KEY is unset: the billing operations answer 503. */
  billing: BillingConfig | null;
}

export function readBillingSettings(env: NodeJS.ProcessEnv): BillingSettings {
  return { billing: readBillingConfig(env) };
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/** STRIPE_*: null while STRIPE_SECRET_KEY is unset (partner payments off); a stray STRIPE_* then is a mistake. */
function readBillingConfig(env: NodeJS.ProcessEnv): BillingConfig | null {
  const secretKey = env.STRIPE_SECRET_KEY || null;
  if (secretKey === null) {
    const stray = ['STRIPE_WEBHOOK_SECRET', 'STRIPE_PRICE_BASIC', 'STRIPE_PRICE_PLUS', 'STRIPE_API_BASE'].filter((name) => env[name]);
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set without STRIPE_SECRET_KEY: set the secret key too (partner payments stay off without it), or unset them`);
    return null;
  }
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(secretKey)) throw new ConfigError('STRIPE_SECRET_KEY is not a Stripe secret key: use the sk_live_… or sk_test_… key (or a restricted rk_… key) from the Stripe dashboard, API keys');
  const required = (name: string, pattern: RegExp, what: string) => {
    const value = env[name];
    if (!value) throw new ConfigError(`${name} is not set: partner payments (STRIPE_SECRET_KEY is set) need it; ${what}`);
    if (!pattern.test(value)) throw new ConfigError(`${name} is not valid: ${what}`);
    return value;
  };
  const webhookSecret = required('STRIPE_WEBHOOK_SECRET', /^whsec_[A-Za-z0-9_]+$/, "use the endpoint's signing secret (whsec_…) from the Stripe dashboard, Webhooks");
  const basic = required('STRIPE_PRICE_BASIC', /^price_[A-Za-z0-9_]+$/, 'use the id (price_…) of the monthly net price of the basic tier');
  const plus = required('STRIPE_PRICE_PLUS', /^price_[A-Za-z0-9_]+$/, 'use the id (price_…) of the monthly net price of the plus tier');
  if (basic === plus) throw new ConfigError('STRIPE_PRICE_BASIC and STRIPE_PRICE_PLUS are the same price: each tier needs its own, or a subscription could not tell its tier');
  return {
    secretKey,
    webhookSecret,
    prices: { basic, plus },
    automaticTax: boolean(env, 'STRIPE_AUTOMATIC_TAX', true),
    apiBase: stripeApiBase(env.STRIPE_API_BASE, secretKey),
    timeoutMs: integer(env, 'STRIPE_TIMEOUT_MS', 10_000, 500, 60_000),
    checkoutExpiryMinutes: integer(env, 'CHECKOUT_EXPIRY_MINUTES', 30, 30, 1440),
    pastDueGraceDays: integer(env, 'PAST_DUE_GRACE_DAYS', 7, 0, 60),
  };
}

/** STRIPE_API_BASE: for the stand-in only, so a live key can never be sent elsewhere than to Stripe. */
function stripeApiBase(raw: string | undefined, secretKey: string): BillingConfig['apiBase'] {
  if (!raw) return null;
  const url = httpUrl(raw);
  if (url === null || (url.pathname !== '/' && url.pathname !== '')) {
    throw new ConfigError(`STRIPE_API_BASE=${raw} is not valid: use the origin of a Stripe stand-in such as http://127.0.0.1:12111 (npm run stripe-stand-in)`);
  }
  if (!secretKey.startsWith('sk_test_')) throw new ConfigError('STRIPE_API_BASE is set with a key that is not a test key (sk_test_…): another API server is for trials with test keys only; unset STRIPE_API_BASE to use Stripe');
  if (!LOOPBACK_HOSTS.includes(url.hostname)) throw new ConfigError(`STRIPE_API_BASE=${raw} is not on this machine: the stand-in must listen on loopback (127.0.0.1, ::1 or localhost)`);
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return { protocol, host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port === '' ? (protocol === 'https' ? 443 : 80) : Number(url.port) };
}
