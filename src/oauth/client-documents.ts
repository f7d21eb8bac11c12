// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, which MCP 2026-07-28 prefers to
// registration): a client_id that is an https URL names the JSON document that describes the client. It is
// fetched here, through the one outbound module (https on 443, public addresses only, checked at resolution;
// no redirects followed; 5 KiB, 5 s), checked as a registration is (clients.ts), and kept as the client's row
// (id: the URL) with until when it is fresh: its Cache-Control max-age or Expires, at most 24 hours. A stale
// row is fetched again at the next authorization; the token and revocation endpoints use the stored copy.
//
// GET /oauth/authorize is open to anyone, so it must not make the server fetch at will: a URL that failed is
// not asked again for FAILURE_BACKOFF_MS (the failure is never taken for the document: a fixed document works
// after that), one host is fetched at most HOST_FETCHES times a HOST_WINDOW_MS, concurrent asks for one URL
// share one fetch, and what these memories hold is bounded in count. A failure stores nothing.
import type { OutboundHttp } from '../outbound/outbound-http.js';
import type { Logger } from '../log.js';
import { checkDocument, clientRow, MAX_URI_CHARS, type ClientMetadata } from './clients.js';
import { UNAUTHORIZED_CLIENT_MS } from './lifetimes.js';
import type { ClientRow, OAuthStore } from './store.js';

/** The draft's recommended maximum size of a document. */
export const DOCUMENT_MAX_BYTES = 5 * 1024;
/** Longest a copy is used without asking again, whatever its caching headers say. */
export const DOCUMENT_MAX_FRESH_MS = 24 * 3_600_000;
/** Freshness of a document whose answer has no caching headers. */
export const DOCUMENT_DEFAULT_FRESH_MS = 10 * 60_000;
export const FAILURE_BACKOFF_MS = 60_000;
export const HOST_FETCHES = 10;
export const HOST_WINDOW_MS = 60_000;
/** Most URLs whose failure, and most hosts whose fetches, are remembered; past it new ones wait. */
const TRACKED_MAX = 1000;

export interface DocumentRefusal {
  /** RFC 6749 / 7591 error code: the document cannot be had (invalid_client), or says what is not taken. */
  error: 'invalid_client' | 'invalid_client_metadata' | 'invalid_redirect_uri' | 'temporarily_unavailable';
  error_description: string;
}

export type Resolved = { client: ClientRow } | { refused: DocumentRefusal };

/** A client_id of this kind: an https URL (a registered client's id starts with `oc_`). */
export function isDocumentClientId(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/** Why `clientId` cannot be a document's URL (the draft's section 3), or null. */
export function documentUrlFault(clientId: string): string | null {
  if (clientId.length > MAX_URI_CHARS) return `is longer than ${MAX_URI_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return 'is not an https URL';
  if (url.username !== '' || url.password !== '') return 'carries a user name or password';
  if (url.hash !== '' || clientId.includes('#')) return 'has a fragment';
  if (url.search !== '' || clientId.includes('?')) return 'has a query';
  if (url.pathname === '/') return 'has no path (the document lives at a path, e.g. https://app.example/oauth/client.json)';
  if (/(^|\/)\.\.?(\/|$)/.test(clientId.slice(url.origin.length).replace(/%2e/gi, '.'))) return 'has a . or .. path segment';
  if (url.href !== clientId) return `is not in its normal form (${url.href})`;
  return null;
}

/** How long an answer may be used, from its Cache-Control (max-age, no-store, no-cache) or Expires; bounded by 24 hours. */
export function freshnessMs(headers: Record<string, string | string[] | undefined>): number {
  const cacheControl = String(headers['cache-control'] ?? '').toLowerCase();
  const age = Number(headers.age ?? 0) * 1000 || 0;
  let fresh = DOCUMENT_DEFAULT_FRESH_MS;
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/.exec(cacheControl);
  if (/(?:^|,)\s*(no-store|no-cache)\b/.test(cacheControl)) fresh = 0;
  else if (maxAge) fresh = Number(maxAge[1]) * 1000 - age;
  else if (headers.expires !== undefined) {
    const expires = Date.parse(String(headers.expires));
    const date = Date.parse(String(headers.date ?? ''));
    fresh = Number.isNaN(expires) || Number.isNaN(date) ? 0 : expires - date - age;
  }
  return Math.max(0, Math.min(DOCUMENT_MAX_FRESH_MS, fresh));
}

export interface ClientDocumentsDeps {
  store: OAuthStore;
  outbound: OutboundHttp;
  log: Logger;
  /** OAUTH_PENDING_CLIENTS_MAX: a document's client counts as one nobody authorized until a person approves it. */
  pendingClientsMax: number;
}

export class ClientDocuments {
  private readonly failures = new Map<string, { until: number; refusal: DocumentRefusal }>();
  private readonly hosts = new Map<string, { since: number; fetches: number }>();
  private readonly fetching = new Map<string, Promise<Resolved>>();

  constructor(private readonly deps: ClientDocumentsDeps) {}

  /** The client `clientId` (a document URL) names: the stored copy while fresh, else fetched now; or why not. */
  async resolve(clientId: string, nowMs: number): Promise<Resolved> {
    const fault = documentUrlFault(clientId);
    if (fault !== null) return refused('invalid_client', `client_id ${fault}: a client ID metadata document's URL is https, with a path, without query, fragment or credentials.`);
    const stored = await this.deps.store.read((tables) => tables.client(clientId));
    if (stored !== null && stored.document_expires_at !== null && stored.document_expires_at > nowMs) return { client: stored };
    const failure = this.failures.get(clientId);
    if (failure !== undefined && failure.until > nowMs) return { refused: failure.refusal };
    // from here to the set, nothing awaits: one fetch per document however many ask at once
    const pending = this.fetching.get(clientId);
    if (pending !== undefined) return pending;
    const limited = this.countFetch(new URL(clientId).host, nowMs);
    if (limited !== null) return { refused: limited };
    const fetched = this.fetchDocument(clientId, nowMs).finally(() => this.fetching.delete(clientId));
    this.fetching.set(clientId, fetched);
    return fetched;
  }

  /** Counts a fetch from `host`, or says why it must wait (its budget, or too many hosts at once). */
  private countFetch(host: string, nowMs: number): DocumentRefusal | null {
    let window = this.hosts.get(host);
    if (window !== undefined && nowMs - window.since >= HOST_WINDOW_MS) window = undefined;
    if (window === undefined) {
      if (!forget(this.hosts, (w) => nowMs - w.since >= HOST_WINDOW_MS)) return busy(`too many client hosts are being fetched right now; try again in ${HOST_WINDOW_MS / 1000} s`);
      window = { since: nowMs, fetches: 0 };
      this.hosts.set(host, window);
    }
    if (window.fetches >= HOST_FETCHES) {
      return busy(`${host} was asked for ${HOST_FETCHES} client documents within ${HOST_WINDOW_MS / 1000} s, the most it is asked for; try again in ${Math.ceil((window.since + HOST_WINDOW_MS - nowMs) / 1000)} s`);
    }
    window.fetches++;
    return null;
  }

  private async fetchDocument(url: string, nowMs: number): Promise<Resolved> {
    const { outbound, log } = this.deps;
    const answer = await outbound.get(url, { Accept: 'application/json' }, DOCUMENT_MAX_BYTES);
    const outcome = this.checkAnswer(url, answer);
    if ('refusal' in outcome) {
      log.info('oauth client document refused', { client: url, error: outcome.refusal.error });
      if (!forget(this.failures, (f) => f.until <= nowMs)) this.failures.delete(this.failures.keys().next().value!);
      this.failures.set(url, { until: nowMs + FAILURE_BACKOFF_MS, refusal: outcome.refusal });
      return { refused: outcome.refusal };
    }
    this.failures.delete(url);
    log.info('oauth client document fetched', { client: url });
    return { client: await this.keep(outcome.metadata, nowMs + outcome.freshMs, nowMs) };
  }

  private checkAnswer(url: string, answer: Awaited<ReturnType<OutboundHttp['get']>>): { metadata: ClientMetadata; freshMs: number } | { refusal: DocumentRefusal } {
    const cannot = (why: string) => ({ refusal: { error: 'invalid_client' as const, error_description: `The client ID metadata document at ${url} cannot be used: ${why}.` } });
    if (!answer.ok) return cannot(answer.detail);
    if (answer.status >= 300 && answer.status < 400) return cannot(`it answered ${answer.status}, a redirect, which is not followed: serve the document at its client_id URL itself`);
    if (answer.status !== 200) return cannot(`it answered ${answer.status}, not 200`);
    if (!answer.complete) return cannot(`it is larger than ${DOCUMENT_MAX_BYTES} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return cannot('it is not valid JSON');
    }
    const checked = checkDocument(body, url);
    if ('error' in checked) return { refusal: { error: checked.error, error_description: `The client ID metadata document at ${url} is not taken: ${checked.error_description}.` } };
    return { metadata: checked, freshMs: freshnessMs(answer.headers) };
  }

  /** Stores the checked copy: a new client, bounded like a registration, or the fresh copy of a known one. */
  private keep(metadata: ClientMetadata, expiresAtMs: number, nowMs: number): Promise<ClientRow> {
    const { store, pendingClientsMax } = this.deps;
    const row = clientRow(metadata, nowMs, expiresAtMs);
    return store.transaction(function* (tables) {
      if ((yield* tables.client(row.id)) === null) {
        yield* tables.insertClient(row);
        yield* tables.boundUnauthorized(nowMs - UNAUTHORIZED_CLIENT_MS, pendingClientsMax);
      } else {
        yield* tables.refreshDocument(row);
      }
      return (yield* tables.client(row.id)) ?? row;
    });
  }
}

function refused(error: DocumentRefusal['error'], error_description: string): Resolved {
  return { refused: { error, error_description } };
}

function busy(why: string): DocumentRefusal {
  return { error: 'temporarily_unavailable', error_description: `The client ID metadata document is not fetched now: ${why}.` };
}

/** Makes room in a bounded memory: drops the entries `ended` says are over; false when it is still full. */
function forget<V>(memory: Map<string, V>, ended: (value: V) => boolean): boolean {
  if (memory.size < TRACKED_MAX) return true;
  for (const [key, value] of memory) if (ended(value)) memory.delete(key);
  return memory.size < TRACKED_MAX;
}
