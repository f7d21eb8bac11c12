// Shared by the account tests: the real service (test/community/support.ts) and a browser-like client that
// keeps the session cookie, sends the site's Origin, and answers WebAuthn options with a software
// authenticator (test/support/authenticator.ts) whose passkeys the real @simplewebauthn/server verifies.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { SoftwareAuthenticator } from '../support/authenticator.js';
import { assertValid, importedData, serviceClient, SITE_ORIGIN, TEST_ENV, type Clock, type Data, type Service } from '../community/support.js';
import { serve, SILENT, type ServeOptions } from '../support/server.js';
import type { SchemaName } from '../../src/schemas/resources.js';
import type { Logger } from '../../src/log.js';

/** The service of the community tests, with a logger of the test's own (and what else `serve` takes). */
export async function startAccountsService(data: Data, clock: Clock, env: Record<string, string> = {}, log: Logger = SILENT, more: Pick<ServeOptions, 'clientDocumentFetchForTests' | 'reach' | 'accountsInPostgres'> = {}): Promise<Service> {
  const { app, origin, close } = await serve({ db: data.toiletsDb, overlayDb: data.overlayDb, env: { ...TEST_ENV, ...env }, now: clock.now, log, ...more });
  return { app, url: origin, clock, ...serviceClient(origin), close };
}

/**
 * The service of a suite's tests over a fresh copy of Monaco, with the sign-in budget lifted (the tests sign
 * in far more often than a person): started before the suite's first test, closed and removed after its last.
 */
export function accountsSuite(clock: Clock): { readonly data: Data; readonly service: Service } {
  const started: { data?: Data; service?: Service } = {};
  before(async () => {
    started.data = await importedData();
    started.service = await startAccountsService(started.data, clock, { ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
  });
  after(async () => {
    await started.service?.close();
    started.data?.remove();
  });
  return {
    get data() {
      return started.data ?? assert.fail('the suite has not started');
    },
    get service() {
      return started.service ?? assert.fail('the suite has not started');
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  json: any;
}

export interface RequestOptions {
  body?: unknown;
  /** Origin header; null sends none. Default: the site's. */
  origin?: string | null;
  ip?: string;
  /** More request headers (User-Agent, …). */
  headers?: Record<string, string>;
}

/** One browser: its cookie jar (the session cookie) and its authenticator. */
export class Browser {
  cookie: string | null = null;
  /** The last Set-Cookie the browser was sent. */
  setCookie: string | null = null;
  readonly authenticator = new SoftwareAuthenticator(SITE_ORIGIN);

  constructor(
    /** The site it talks to: a test service, or any server at `url` whose challenges `token` solves. */
    readonly service: Pick<Service, 'url' | 'token'>,
    readonly ip = '198.51.100.7',
  ) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const origin = options.origin === undefined ? SITE_ORIGIN : options.origin;
    const headers: Record<string, string> = { 'X-Forwarded-For': options.ip ?? this.ip, ...options.headers };
    if (origin !== null) headers.Origin = origin;
    if (this.cookie !== null) headers.Cookie = this.cookie;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.service.url}/api/v1${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    const json = text === '' ? undefined : JSON.parse(text);
    if ((response.headers.get('content-type') ?? '').startsWith('application/problem+json')) {
      assertValid('Problem', json);
      assert.equal(json.status, response.status);
    }
    const set = response.headers.get('set-cookie');
    if (set !== null) {
      this.setCookie = set;
      const [pair] = set.split(';');
      this.cookie = pair.endsWith('=') ? null : pair;
    }
    return { status: response.status, headers: response.headers, json };
  }

  /** Creates an account with a new passkey; asserts 201. */
  async signUp(displayName = 'Ada', email?: string): Promise<any> {
    const options = await this.request('POST', '/account/passkey-options', { body: { display_name: displayName } });
    assert.equal(options.status, 200, JSON.stringify(options.json));
    const credential = this.authenticator.register(options.json);
    const created = await this.request('POST', '/account', {
      body: { display_name: displayName, ...(email ? { email } : {}), challenge_token: await this.service.token(this.ip), credential },
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    valid('Account', created.json);
    return created.json;
  }

  /** Signs in with passkey `id` (default: the newest); returns the answer. */
  async signIn(id?: string, answer?: Parameters<SoftwareAuthenticator['assert']>[2]): Promise<Reply> {
    const options = await this.request('POST', '/session/options');
    assert.equal(options.status, 200, JSON.stringify(options.json));
    valid('PasskeyRequestOptions', options.json);
    return this.request('POST', '/session', { body: { credential: this.authenticator.assert(options.json, id, answer) } });
  }
}

export function valid(schema: SchemaName, body: unknown): void {
  assertValid(schema, body);
}
