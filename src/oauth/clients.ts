// The two ways an agent becomes a client: dynamic client registration (RFC 7591) and a client ID metadata
// document (its client_id an https URL; client-documents.ts fetches it). Both take public clients only (no
// secret: token endpoint authentication `none`, PKCE instead), redirect URIs that are https or http on a loopback address
// (RFC 8252), each matched exactly at authorization time, except that a loopback one matches any port
// (RFC 8252 section 7.3: a native app listens on a port the system gives it). What a client says about itself
// (its name, its home page) is shown on the consent page marked "not verified by us": nobody vouches for it.
// What one registration stores is bounded (issue 38): registration is open to anyone.
import { randomBytes } from 'node:crypto';
import { SCOPE } from './lifetimes.js';
import type { ClientRow } from './store.js';

/** At most this many redirect URIs per client, each (and client_uri) at most this long. */
export const MAX_REDIRECT_URIS = 5;
export const MAX_URI_CHARS = 512;
const MAX_NAME_CHARS = 100;
/** Loopback hosts a native client may listen on with plain http (RFC 8252 section 7.3; localhost as MCP allows). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export interface RegistrationError {
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  error_description: string;
}

/** The metadata a registration answers with, and the client keeps. */
export interface ClientMetadata {
  client_id: string;
  /** Registered clients only: a document's client is not issued by us. */
  client_id_issued_at?: number;
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: 'none';
  grant_types: string[];
  response_types: ['code'];
  scope: string;
  client_uri?: string;
  application_type?: 'native' | 'web';
  software_id?: string;
  software_version?: string;
}

const invalid = (error_description: string): RegistrationError => ({ error: 'invalid_client_metadata', error_description });

/** Why the redirect URI may not be registered, or null when it may. */
export function redirectUriFault(uri: unknown): string | null {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > MAX_URI_CHARS) return `each redirect URI is a string of 1 to ${MAX_URI_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${JSON.stringify(uri)} is not an absolute URL`;
  }
  if (url.hash !== '' || uri.includes('#')) return `${uri} has a fragment; a redirect URI may not (RFC 6749 section 3.1.2)`;
  if (url.username !== '' || url.password !== '') return `${uri} carries a user name or password; leave them out`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${uri} is neither https nor http on a loopback address (127.0.0.1, [::1], localhost): use https, or a loopback address for a native client`;
}

function optionalUrl(value: unknown, name: string): string | RegistrationError | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > MAX_URI_CHARS) return invalid(`${name} is a URL of at most ${MAX_URI_CHARS} characters`);
  try {
    if (new URL(value).protocol !== 'https:') return invalid(`${name} must be an https URL`);
  } catch {
    return invalid(`${name} is not an absolute URL`);
  }
  return value;
}

function optionalText(value: unknown, name: string, max: number): string | RegistrationError | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > max || /[\u0000-\u001f\u007f]/.test(value)) return invalid(`${name} is text of 1 to ${max} characters without control characters`);
  return value.trim();
}

/** What a client says about itself, checked, as both a registration and a client ID metadata document may say it. */
type CheckedMetadata = Omit<ClientMetadata, 'client_id' | 'client_id_issued_at' | 'client_name'> & { client_name?: string };

/**
 * The rules both ways of becoming a client share (RFC 7591 metadata): redirect URIs, public clients only,
 * the grant and response types this server has, the one scope; unknown fields are ignored.
 */
function checkMetadata(m: Record<string, unknown>): CheckedMetadata | RegistrationError {
  const uris = m.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    return { error: 'invalid_redirect_uri', error_description: `redirect_uris is required: an array of 1 to ${MAX_REDIRECT_URIS} URIs` };
  }
  for (const uri of uris) {
    const fault = redirectUriFault(uri);
    if (fault !== null) return { error: 'invalid_redirect_uri', error_description: fault };
  }
  if (m.token_endpoint_auth_method !== undefined && m.token_endpoint_auth_method !== 'none') {
    return invalid('token_endpoint_auth_method must be "none": this server takes public clients only, which prove themselves with PKCE (S256)');
  }
  for (const field of ['client_secret', 'client_secret_expires_at', 'jwks', 'jwks_uri', 'software_statement']) {
    if (m[field] !== undefined) return invalid(`${field} is not taken: this server takes public clients only; leave it out`);
  }
  const grantTypes = m.grant_types ?? ['authorization_code', 'refresh_token'];
  if (!Array.isArray(grantTypes) || !grantTypes.includes('authorization_code') || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    return invalid('grant_types may hold "authorization_code" (required) and "refresh_token" only');
  }
  const responseTypes = m.response_types ?? ['code'];
  if (!Array.isArray(responseTypes) || responseTypes.length !== 1 || responseTypes[0] !== 'code') return invalid('response_types must be ["code"]');
  if (m.scope !== undefined && (typeof m.scope !== 'string' || m.scope.split(' ').some((s) => s !== SCOPE))) return invalid(`scope may only be "${SCOPE}"`);
  if (m.application_type !== undefined && m.application_type !== 'native' && m.application_type !== 'web') return invalid('application_type is "native" or "web"');
  const name = optionalText(m.client_name, 'client_name', MAX_NAME_CHARS);
  const clientUri = optionalUrl(m.client_uri, 'client_uri');
  const softwareId = optionalText(m.software_id, 'software_id', 200);
  const softwareVersion = optionalText(m.software_version, 'software_version', 100);
  for (const checked of [name, clientUri, softwareId, softwareVersion]) if (typeof checked === 'object') return checked;
  return {
    ...(name === undefined ? {} : { client_name: name as string }),
    redirect_uris: uris as string[],
    token_endpoint_auth_method: 'none',
    grant_types: grantTypes as string[],
    response_types: ['code'],
    scope: SCOPE,
    ...(clientUri === undefined ? {} : { client_uri: clientUri as string }),
    ...(m.application_type === undefined ? {} : { application_type: m.application_type as 'native' | 'web' }),
    ...(softwareId === undefined ? {} : { software_id: softwareId as string }),
    ...(softwareVersion === undefined ? {} : { software_version: softwareVersion as string }),
  };
}

function asObject(body: unknown): Record<string, unknown> | null {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

/** Checks a registration request's body; the metadata of the new client, or the RFC 7591 error. */
export function checkRegistration(body: unknown, nowMs: number): ClientMetadata | RegistrationError {
  const m = asObject(body);
  if (m === null) return invalid('send the client metadata as a JSON object (RFC 7591)');
  const checked = checkMetadata(m);
  if ('error' in checked) return checked;
  const { client_name, ...rest } = checked;
  return { client_id: `oc_${randomBytes(16).toString('hex')}`, client_id_issued_at: Math.floor(nowMs / 1000), client_name: client_name ?? new URL(rest.redirect_uris[0]).host, ...rest };
}

/**
 * Checks a client ID metadata document fetched from `url` (draft-ietf-oauth-client-id-metadata-document):
 * its `client_id` is `url`, the same text; `client_name` and `redirect_uris` are present (MCP); the rest as
 * for a registration. The metadata the client keeps, or the RFC 7591 error.
 */
export function checkDocument(body: unknown, url: string): ClientMetadata | RegistrationError {
  const m = asObject(body);
  if (m === null) return invalid('the client ID metadata document is not a JSON object');
  if (m.client_id !== url) return invalid(`the document's client_id must be its own URL, ${url}, exactly; it says ${JSON.stringify(m.client_id)?.slice(0, 200) ?? 'nothing'}`);
  if (m.client_name === undefined) return invalid('the document has no client_name: an app that identifies itself by a document names itself there');
  const checked = checkMetadata(m);
  if ('error' in checked) return checked;
  return { ...checked, client_id: url, client_name: checked.client_name! };
}

/** A new client's row; `documentExpiresAtMs` for a client ID metadata document (until when the stored copy is fresh). */
export function clientRow(metadata: ClientMetadata, nowMs: number, documentExpiresAtMs: number | null = null): ClientRow {
  return { id: metadata.client_id, name: metadata.client_name, redirect_uris: JSON.stringify(metadata.redirect_uris), metadata: JSON.stringify(metadata), created_at: nowMs, authorized_at: null, document_expires_at: documentExpiresAtMs };
}

/**
 * Whether `requested` is one of the client's registered redirect URIs: the same text, or, for a registered
 * http loopback URI, the same URI on another port (RFC 8252 section 7.3), written in its canonical form
 * so that what the client is sent back to is exactly what it asked for.
 */
export function redirectUriRegistered(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.href !== requested) return false;
  url.port = '';
  return registered.some((uri) => {
    const candidate = new URL(uri);
    if (candidate.protocol !== 'http:' || !LOOPBACK_HOSTS.has(candidate.hostname)) return false;
    candidate.port = '';
    return candidate.href === url.href;
  });
}
