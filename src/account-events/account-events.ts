// Assembles account events for app.ts: the subscriptions and outbox in the accounts database, the one
// outbound-HTTP module, the relay that polls the account event log, and the hook that sends a terminated
// envelope to every subscription of a grant that ends (revocation, reuse detection, account deletion).
import type { AccountEventLog } from '../accounts/event-log.js';
import type { SqliteAccountsStore } from '../accounts/sqlite-store.js';
import type { Logger } from '../log.js';
import type { Grants } from '../oauth/grants.js';
import { OutboundHttp, type Resolver } from '../outbound/outbound-http.js';
import { EventRelay } from './relay.js';
import { SqliteEventStore, type EventStore } from './store.js';
import { Subscriptions } from './subscriptions.js';

export interface AccountEventsDeps {
  /** The ACCOUNTS_DB file, where the subscriptions are kept beside the OAuth grants. */
  accounts: SqliteAccountsStore;
  log: AccountEventLog;
  grants: Grants;
  /** OUTBOUND_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Replaces DNS (tests). */
  resolver?: Resolver;
  logger: Logger;
  now: () => number;
}

export class AccountEvents {
  /** Its name and what it stands on, for the start and close order (src/feature.ts). */
  readonly name = 'account-events';
  readonly needs: readonly string[] = ['accounts', 'oauth'];
  readonly store: EventStore;
  readonly relay: EventRelay;
  readonly subscriptions: Subscriptions;

  constructor(deps: AccountEventsDeps) {
    const { now } = deps;
    this.store = new SqliteEventStore(deps.accounts.db);
    const outbound = new OutboundHttp({ allowPrivate: deps.allowPrivate, resolver: deps.resolver });
    this.relay = new EventRelay({ store: this.store, log: deps.log, outbound, logger: deps.logger, now });
    this.subscriptions = new Subscriptions(this.store, outbound, () => deps.log.lastSeq(), now);
    deps.grants.onGrantEnd((grantId, why) => void this.relay.terminate(grantId, why));
  }

  start(): void {
    this.relay.start();
  }

  close(): Promise<void> {
    return this.relay.close();
  }
}
