// What else ends when an account's credentials end, besides its sessions: every part of the service that
// issues a credential derived from a signed-in session registers here when the server is assembled
// (app.ts). Today: the OAuth grants of connected apps (src/oauth), which would otherwise outlive "sign out
// everywhere" and an operator's recovery, so a stolen cookie turned into a grant would survive the clean-up.
// They run inside the accounts' own transaction (store.ts, EndConnected), in the file or in PostgreSQL, so
// a credential ended by sign-out everywhere or a recovery ends with the sessions or not at all.
// Deletion has its own hooks (deletion.ts): they also erase data, these only end credentials.

import type { Step } from '../storage/steps.js';
import type { AccountsTransaction } from './store.js';

/** Why the account's credentials end. */
export type CredentialsEnd = 'signed out everywhere' | 'account recovered';

export interface ConnectedCredentials {
  /** What they are, for logs: "oauth grants". */
  readonly name: string;
  /** Ends every one of them the account holds, inside the accounts' transaction `within`: how many ended. */
  endAll(accountId: string, why: CredentialsEnd, within: AccountsTransaction): Step<number>;
}

export class ConnectedCredentialsRegistry {
  private readonly kinds: ConnectedCredentials[] = [];

  register(kind: ConnectedCredentials): void {
    if (this.kinds.some((other) => other.name === kind.name)) throw new Error(`connected credentials named ${kind.name} are registered already`);
    this.kinds.push(kind);
  }

  /** Ends every connected credential of the account inside `within`; how many ended, of every kind together. */
  *endAll(accountId: string, why: CredentialsEnd, within: AccountsTransaction): Step<number> {
    let ended = 0;
    for (const kind of this.kinds) ended += yield* kind.endAll(accountId, why, within);
    return ended;
  }
}
