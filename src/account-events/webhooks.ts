// What one webhook POST to a subscriber carries: the Standard Webhooks headers (webhook-id,
// webhook-timestamp, webhook-signature: HMAC-SHA256 with the client's whsec_ secret, made by the
// `standardwebhooks` package) and the subscription's id; re-signed with a fresh timestamp on every attempt.
// Also how a failed attempt is reported to the client (deliveryStatus.lastError): a category, never what
// the endpoint answered.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { OutboundResult } from '../outbound/outbound-http.js';

/** The secret's form (events extension): whsec_ and the base64 of 24 to 64 random bytes, chosen by the client. */
export function secretFault(secret: unknown): string | null {
  if (typeof secret !== 'string' || !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) return 'delivery.secret must be whsec_ followed by base64';
  const bytes = Buffer.from(secret.slice(6), 'base64').length;
  return bytes >= 24 && bytes <= 64 ? null : 'delivery.secret must encode 24 to 64 random bytes';
}

/** A control envelope's webhook-id: msg_<type>_<random>. */
export function controlId(type: 'verification' | 'terminated'): string {
  return `msg_${type}_${randomBytes(12).toString('hex')}`;
}

export function signedHeaders(secret: string, webhookId: string, subscriptionId: string, body: string, nowMs: number): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'toilet-finder-account-events',
    'webhook-id': webhookId,
    'webhook-timestamp': String(Math.floor(nowMs / 1000)),
    'webhook-signature': new Webhook(secret).sign(webhookId, new Date(nowMs), body),
    'X-MCP-Subscription-Id': subscriptionId,
  };
}

export type DeliveryError = 'connection_refused' | 'timeout' | 'tls_error' | 'http_4xx' | 'http_5xx' | 'challenge_failed';

/** null for an accepted delivery (2xx), else its category. */
export function deliveryError(result: OutboundResult): DeliveryError | null {
  if (!result.ok) return result.failure === 'refused_address' ? 'connection_refused' : result.failure;
  if (result.status >= 200 && result.status < 300) return null;
  return result.status >= 500 ? 'http_5xx' : 'http_4xx';
}
