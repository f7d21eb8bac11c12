// Assembles account events for app.ts: the subscriptions and outbox (the store given, PostgreSQL's with
// DATABASE_URL, else the accounts database file's), the one outbound-HTTP module, the relay that polls the
// account event log (a background job of the cluster's worker: with DATABASE_URL only the lease holder
// relays), and the hook that sends a terminated envelope to every subscription of a grant that ends
// (revocation, reuse detection, account deletion).
import type { AccountEventLog } from '../accounts/event-log.js';
import type { SqliteAccountsStore } from '../accounts/sqlite-store.js';
import type { BackgroundJob } from '../feature.js';
import type { Logger } from '../log.js';
import type { Grants } from '../oauth/grants.js';
import { OutboundHttp, type Resolver } from '../outbound/outbound-http.js';
import { EventRelay } from './relay.js';
import { SqliteEventStore, type EventStore } from './store.js';
import { Subscriptions } from './subscriptions.js';

/** Where the subscriptions are kept: the store given (PostgresEventStore), or the ACCOUNTS_DB file beside the OAuth grants. */
export type EventStoreChoice = { store: EventStore } | { accounts: SqliteAccountsStore };

export type AccountEventsDeps = EventStoreChoice & {
  log: AccountEventLog;
  grants: Grants;
  /** OUTBOUND_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Replaces DNS (tests). */
  resolver?: Resolver;
  logger: Logger;
  now: () => number;
};

export class AccountEvents {
  /** Its name and what it stands on, for the start and close order (src/feature.ts). */
  readonly name = 'account-events';
  readonly needs: readonly string[] = ['accounts', 'oauth'];
  readonly store: EventStore;
  readonly relay: EventRelay;
  readonly subscriptions: Subscriptions;

  constructor(deps: AccountEventsDeps) {
    const { now } = deps;
    this.store = 'store' in deps ? deps.store : new SqliteEventStore(deps.accounts.db);
    const outbound = new OutboundHttp({ allowPrivate: deps.allowPrivate, resolver: deps.resolver });
    this.relay = new EventRelay({ store: this.store, log: deps.log, outbound, logger: deps.logger, now, shared: 'store' in deps });
    this.subscriptions = new Subscriptions(this.store, outbound, () => deps.log.lastSeq(), now);
    deps.grants.onGrantEnd((grantId, why) => void this.relay.terminate(grantId, why));
  }

  /** The relay runs as the worker's job (src/cluster/worker.ts); nothing else starts. */
  start(): void {}

  get jobs(): readonly BackgroundJob[] {
    return [this.relay];
  }

  close(): Promise<void> {
    return this.relay.close();
  }
}
