// Assembles accounts for the server (app.ts): the accounts' store (the ACCOUNTS_DB file, or PostgreSQL's
// accounts schema when the app is given it: src/stores.ts), sessions (which the session guard of every
// thread-main route reads), the WebAuthn ceremonies, the deletion hooks, the routes, and the hourly
// clean-up of ended sessions and expired challenges and recovery links. `engine` says where the accounts
// side is kept, so the partners', OAuth's and billing's stores and the event log go where the accounts are
// (they share its transactions). The ACCOUNTS_DB file is opened either way: the account events'
// subscriptions are in it until their store moves.
import type { DatabaseKind } from '../storage/database.js';
import type { HttpServer } from '../http/server.js';
import type { Problems } from '../http/problem.js';
import type { Limits } from '../api/limits.js';
import type { HumanCheckVerifier } from '../api/guards.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { AccountsStore } from './store.js';
import { SqliteAccountsStore } from './sqlite-store.js';
import { PostgresAccountsStore } from './postgres-store.js';
import type { AccountsTables } from './postgres-tables.js';
import type { PostgresDatabase } from '../storage/postgres.js';
import { Sessions } from './sessions.js';
import { PasskeyCeremonies } from './passkeys.js';
import { DeletionHooks } from './deletion.js';
import { ConnectedCredentialsRegistry } from './connected-credentials.js';
import { SqliteAccountEventLog, type AccountEventLog } from './event-log.js';
import { PostgresAccountEventLog } from './event-log-postgres.js';
import type { EventLogTables } from './postgres-tables.js';
import type { Kysely } from 'kysely';
import { registerAccountRoutes, type HumanCheckLedger } from './routes.js';

const CLEAN_UP_EVERY_MS = 3_600_000;

export interface AccountsServeDeps {
  limits: Limits;
  problems: Problems;
  /** The human check createAccount needs, and where its used tokens are kept (src/community). */
  humanCheck: HumanCheckVerifier;
  ledger: HumanCheckLedger;
}

/**
 * Where the accounts side is kept, for the features whose tables reference the accounts: the file (its
 * connection, its event log) or PostgreSQL's accounts schema (its event log appended in their transactions).
 */
export type AccountsEngine =
  | { readonly kind: 'sqlite'; readonly file: SqliteAccountsStore; readonly events: SqliteAccountEventLog }
  | { readonly kind: 'postgres'; readonly db: Kysely<unknown>; readonly events: PostgresAccountEventLog };

export class Accounts {
  /** Its name and what it stands on, for the start and close order (src/feature.ts): its routes use the human check and the ledger of contributions. */
  readonly name = 'accounts';
  readonly needs: readonly string[] = ['community'];
  /** Accounts, passkeys, sessions, challenges and recovery links. */
  readonly store: AccountsStore;
  /** ACCOUNTS_DB: the file the other features' tables are in (they share its transactions). */
  readonly file: SqliteAccountsStore;
  readonly sessions: Sessions;
  /** Later issues register what deleting an account must also end (deletion.ts). */
  readonly deletion = new DeletionHooks();
  /** What sign-out everywhere (with connections=all) and a recovery end besides sessions (connected-credentials.ts). */
  readonly connected = new ConnectedCredentialsRegistry();
  /** Where the accounts side is kept: the other features' stores follow it. */
  readonly engine: AccountsEngine;
  /** What happened to the account's claims and listings, for account-events delivery (event-log.ts). */
  readonly events: AccountEventLog;
  private timer: NodeJS.Timeout | null = null;
  /** The clean-up under way, which close() waits for. */
  private cleaning: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
    private readonly now: () => number,
    /** ACCOUNTS_DATABASE of src/databases.ts: the file with every feature's steps. */
    database: DatabaseKind,
    /** Where the accounts are kept when not in the file (src/stores.ts decides). */
    postgres: PostgresDatabase | null = null,
  ) {
    this.file = new SqliteAccountsStore(config.accountsDb, database);
    this.store = postgres === null ? this.file : new PostgresAccountsStore(postgres.schema<AccountsTables>('accounts'));
    this.engine =
      postgres === null
        ? { kind: 'sqlite', file: this.file, events: new SqliteAccountEventLog(this.file.db, now) }
        : { kind: 'postgres', db: postgres.schema('accounts'), events: new PostgresAccountEventLog(postgres.schema<EventLogTables>('accounts'), now) };
    this.events = this.engine.events;
    this.sessions = new Sessions(this.store, config.sessions, config.baseUrl);
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

  /** Deletes what has ended: a refused write (full disk, database away) is logged and tried again in an hour. */
  private cleanUp(): void {
    const nowMs = this.now();
    this.cleaning = Promise.all([this.store.purge(this.sessions.endsAt(nowMs), nowMs), this.events.purge(nowMs)])
      .then(() => undefined, (error: unknown) => this.log.error('accounts clean-up failed; trying again in an hour', { error: String(error) }));
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    await this.cleaning;
    await this.store.close();
    if (this.file !== this.store) await this.file.close();
  }
}
