// The answers of /oauth/* in their RFCs' formats, not problem+json (which stays /api/v1's): JSON errors
// with `error` and `error_description` (RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 7009), every
// answer with Cache-Control: no-store (tokens, registrations and pages about one person are never cached).
import type { Refusal } from '../api/guards.js';
import { STORAGE_RETRY_SECONDS } from '../api/server-hooks.js';
import type { HttpReply, HeaderList } from '../http/reply.js';
import type { Logger } from '../log.js';
import { storageTrouble } from '../storage/errors.js';

export const NO_STORE: HeaderList = ['Cache-Control', 'no-store', 'Pragma', 'no-cache'];

export function jsonAnswer(status: number, body: unknown, headers: HeaderList = []): HttpReply {
  return { status, headers: ['Content-Type', 'application/json', ...NO_STORE, ...headers], body: JSON.stringify(body) };
}

export function oauthError(status: number, error: string, description: string, headers: HeaderList = []): HttpReply {
  return jsonAnswer(status, { error, error_description: description }, headers);
}

/**
 * A refusal of the guard chain (rate limit, body size) in the RFC format: `error` names the kind
 * (`rate_limited` with Retry-After, `invalid_request` otherwise), `error_description` what to do.
 */
export function refusalAsOAuthError(refusal: Refusal, status: number, headers: HeaderList): HttpReply {
  const seconds = refusal.retryAfterSeconds;
  const retry = seconds === undefined ? [] : ['Retry-After', String(seconds)];
  return oauthError(status, status === 429 ? 'rate_limited' : status >= 500 ? 'temporarily_unavailable' : 'invalid_request', refusal.detail, [...headers, ...retry]);
}

/**
 * What keeps the storage from the write a request needed (logged once here), or null for any other error,
 * which the caller rethrows: the server's hook answers those 500.
 */
export function unavailableStorage(error: unknown, log: Logger, path: string): string | null {
  const trouble = storageTrouble(error);
  if (trouble !== null) log.error(`storage unavailable: ${trouble}`, { path, error: String(error) });
  return trouble;
}

/** The endpoints' answer while the storage cannot take the request: RFC 6749's temporarily_unavailable, 503 with Retry-After. */
export function temporarilyUnavailable(trouble: string, headers: HeaderList): HttpReply {
  const description = `The service cannot store anything right now: ${trouble}. Send the request again in ${STORAGE_RETRY_SECONDS} seconds.`;
  return oauthError(503, 'temporarily_unavailable', description, [...headers, 'Retry-After', String(STORAGE_RETRY_SECONDS)]);
}
