// Assembles accounts for the server (app.ts): the accounts database, sessions (which the session guard of
// every thread-main route reads), the WebAuthn ceremonies, the deletion hooks, the routes, and the hourly
// clean-up of ended sessions and expired challenges and recovery links.
import type { DatabaseKind } from '../storage/database.js';
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Limits } from '../api/limits.js';
import type { HumanCheckVerifier } from '../api/guards.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { AccountsStore } from './store.js';
import { Sessions } from './sessions.js';
import { PasskeyCeremonies } from './passkeys.js';
import { DeletionHooks } from './deletion.js';
import { ConnectedCredentialsRegistry } from './connected-credentials.js';
import { AccountEventLog } from './event-log.js';
import { registerAccountRoutes, type HumanCheckLedger } from './routes.js';

const CLEAN_UP_EVERY_MS = 3_600_000;

export interface AccountsServeDeps {
  limits: Limits;
  problems: Problems;
  /** The human check createAccount needs, and where its used tokens are kept (src/community). */
  humanCheck: HumanCheckVerifier;
  ledger: HumanCheckLedger;
}

export class Accounts {
  /** Its name and what it stands on, for the start and close order (src/feature.ts): its routes use the human check and the ledger of contributions. */
  readonly name = 'accounts';
  readonly needs: readonly string[] = ['community'];
  readonly store: AccountsStore;
  readonly sessions: Sessions;
  /** Later issues register what deleting an account must also end (deletion.ts). */
  readonly deletion = new DeletionHooks();
  /** What sign-out everywhere (with connections=all) and a recovery end besides sessions (connected-credentials.ts). */
  readonly connected = new ConnectedCredentialsRegistry();
  /** What happened to the account's claims and listings, for account-events delivery (event-log.ts). */
  readonly events: AccountEventLog;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly now: () => number,
    /** ACCOUNTS_DATABASE of src/databases.ts: the file with every feature's steps. */
    database: DatabaseKind,
  ) {
    this.store = new AccountsStore(config.accountsDb, database);
    this.sessions = new Sessions(this.store, config.sessions, config.baseUrl);
    this.events = new AccountEventLog(this.store.db, now);
  }

  serve(server: HttpServer, deps: AccountsServeDeps): void {
    const { config, store, sessions, deletion, connected, log, now } = this;
    const ceremonies = new PasskeyCeremonies(store, config.baseUrl, log);
    registerAccountRoutes(server, { config, ...deps, store, sessions, ceremonies, deletion, connected, log, now });
  }

  start(): void {
    this.cleanUp();
    this.timer = setInterval(() => this.cleanUp(), CLEAN_UP_EVERY_MS).unref();
  }

  /** Deletes what has ended: a refused write (full disk) is logged and tried again in an hour. */
  private cleanUp(): void {
    try {
      const nowMs = this.now();
      this.store.transaction(() => {
        this.sessions.purge(nowMs);
        this.store.purgeExpired(nowMs);
        this.events.purge(nowMs);
      });
    } catch (error) {
      this.log.error('accounts clean-up failed; trying again in an hour', { error: String(error) });
    }
  }

  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.store.close();
  }
}
