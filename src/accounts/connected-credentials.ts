// What else ends when an account's credentials end, besides its sessions: every part of the service that
// issues a credential derived from a signed-in session registers here when the server is assembled
// (app.ts). Today: the OAuth grants of connected apps (src/oauth), which would otherwise outlive "sign out
// everywhere" and an operator's recovery, so a stolen cookie turned into a grant would survive the clean-up.
// Deletion has its own hooks (deletion.ts): they also erase data, these only end credentials.

/** Why the account's credentials end. */
export type CredentialsEnd = 'signed out everywhere' | 'account recovered';

export interface ConnectedCredentials {
  /** What they are, for logs: "oauth grants". */
  readonly name: string;
  /** Ends every one of them the account holds; how many ended. Runs inside the caller's transaction. */
  endAll(accountId: string, why: CredentialsEnd): number;
}

export class ConnectedCredentialsRegistry {
  private readonly kinds: ConnectedCredentials[] = [];

  register(kind: ConnectedCredentials): void {
    if (this.kinds.some((other) => other.name === kind.name)) throw new Error(`connected credentials named ${kind.name} are registered already`);
    this.kinds.push(kind);
  }

  /** Ends every connected credential of the account; how many ended, of every kind together. */
  endAll(accountId: string, why: CredentialsEnd): number {
    let ended = 0;
    for (const kind of this.kinds) ended += kind.endAll(accountId, why);
    return ended;
  }
}
