// Assembles the authorization server for app.ts: its rows in the accounts database, the grant state
// machine, the client ID metadata documents (fetched through an outbound module of its own), the discovery documents, the client endpoints, the authorization and connections pages, the
// account deletion hook (every grant ends), the connected credentials sign-out everywhere and recovery end
// (every grant), and the hourly clean-up of what has ended.
import type { Accounts } from '../accounts/accounts.js';
import type { DeletionHook } from '../accounts/deletion.js';
import type { CredentialsEnd } from '../accounts/connected-credentials.js';
import type { AccountsTransaction } from '../accounts/store.js';
import type { Limits } from '../api/limits.js';
import type { Problems } from '../http/problem.js';
import type { HttpServer } from '../http/server.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { registerAuthorization } from './authorize.js';
import { registerConnections } from './connections.js';
import { registerDiscovery } from './discovery.js';
import { registerClientEndpoints } from './endpoints.js';
import { Grants } from './grants.js';
import { GRANT_ABSOLUTE_MS, REFRESH_IDLE_MS, UNAUTHORIZED_CLIENT_MS } from './lifetimes.js';
import { registerPageAssets } from './page.js';
import { SqliteOAuthStore } from './sqlite-store.js';
import { PostgresOAuthStore } from './postgres-store.js';
import type { OAuthStore } from './store.js';
import { ClientDocuments } from './client-documents.js';
import { OutboundHttp, type OutboundTestAllowance, type Resolver } from '../outbound/outbound-http.js';

/** What a test injects to fetch client documents from a stand-in on loopback: never a setting. */
export interface DocumentFetchForTests extends OutboundTestAllowance {
  resolver: Resolver;
  timeoutMs?: number;
}

const CLEAN_UP_EVERY_MS = 3_600_000;

export interface OAuthServeDeps {
  limits: Limits;
  problems: Problems;
}

export class OAuth {
  /** Its name and what it stands on, for the start and close order (src/feature.ts). */
  readonly name = 'oauth';
  readonly needs: readonly string[] = ['accounts'];
  /** A deleted account's grants are revoked, every token derived from them with them (src/feature.ts). */
  readonly accountDeletion: DeletionHook = { name: 'oauth grants', erase: async (accountId) => void (await this.grants.revokeAll(accountId, 'account deleted')) };
  /** The OAuth tables, where the accounts are: on the ACCOUNTS_DB file's connection, or in PostgreSQL's accounts schema. */
  readonly store: OAuthStore;
  readonly grants: Grants;
  readonly documents: ClientDocuments;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: Config,
    private readonly accounts: Accounts,
    private readonly log: Logger,
    private readonly now: () => number,
    fetchForTests?: DocumentFetchForTests,
  ) {
    const { engine } = accounts;
    this.store = engine.kind === 'sqlite' ? new SqliteOAuthStore(engine.file.db) : new PostgresOAuthStore(engine.db);
    this.grants = new Grants(this.store, log);
    const outbound = new OutboundHttp({ allowPrivate: config.outboundAllowPrivate, resolver: fetchForTests?.resolver, timeoutMs: fetchForTests?.timeoutMs, testAllowance: fetchForTests });
    this.documents = new ClientDocuments({ store: this.store, outbound, log, pendingClientsMax: config.oauthPendingClientsMax });
    // inside the accounts' own transaction (sign-out everywhere, a recovery): the file's connection or PostgreSQL's transaction
    const endAll = (accountId: string, why: CredentialsEnd, within: AccountsTransaction) =>
      this.grants.revokeAllIn(this.store.tablesIn(within), accountId, why === 'account recovered' ? 'account recovered' : 'revoked by the account');
    accounts.connected.register({ name: 'oauth grants', endAll });
  }

  serve(server: HttpServer, deps: OAuthServeDeps): void {
    const { config, store, grants, log, now } = this;
    const guards = { config, limits: deps.limits, problems: deps.problems, now, sessions: this.accounts.sessions };
    registerDiscovery(server, config.baseUrl);
    registerPageAssets(server);
    registerClientEndpoints(server, { guards, store, grants, log, pendingClientsMax: config.oauthPendingClientsMax });
    registerAuthorization(server, { guards, baseUrl: config.baseUrl, store, accounts: this.accounts.store, grants, documents: this.documents, log });
    registerConnections(server, { guards, store, grants, log, baseUrl: config.baseUrl });
  }

  start(): void {
    void this.cleanUp();
    this.timer = setInterval(() => void this.cleanUp(), CLEAN_UP_EVERY_MS).unref();
  }

  /** Deletes what has ended (hourly; tests call it on their clock). A refused write (full disk) is logged and tried again in an hour. */
  async cleanUp(): Promise<void> {
    try {
      const nowMs = this.now();
      await this.store.transaction((tables) => tables.purge(nowMs, { absoluteMs: GRANT_ABSOLUTE_MS, idleMs: REFRESH_IDLE_MS, unauthorizedClientMs: UNAUTHORIZED_CLIENT_MS }));
    } catch (error) {
      this.log.error('oauth clean-up failed; trying again in an hour', { error: String(error) });
    }
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
  }
}
