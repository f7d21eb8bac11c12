// What deleting an account runs besides deleting its own rows: every part of the service that keeps
// something for an account registers a hook here when the server is assembled (app.ts). Today: the
// contributions (ratings and votes kept under a pseudonym linked to nothing, src/community). The partner,
// billing and OAuth issues add theirs (reject pending claims and erase their contact details, stop listings
// and emit their events; cancel a running subscription; revoke every grant). The rule that a subscription
// not in a final state answers 409 unless the request confirms its cancellation is the billing hook's
// `blocker`, added with billing: nothing here stands in for it.

/** What the person confirmed in the deletion request. */
export interface DeletionConfirmations {
  /** End a running subscription with the account, rather than be refused (409). */
  readonly cancellation: boolean;
}

export interface DeletionHook {
  /** What the hook takes care of, for logs and errors: "contributions", "partner claims". */
  readonly name: string;
  /**
   * What keeps the account from being deleted now, said for the person (naming the listings, say), or
   * null. Every hook's blocker runs before anything is deleted.
   */
  blocker?(accountId: string, confirmed: DeletionConfirmations): string | null | Promise<string | null>;
  /** Erases or ends what the hook keeps for the account. Idempotent: a deletion that failed midway is sent again. */
  erase(accountId: string): void | Promise<void>;
  /**
   * The erase asks another service (a payment provider), which may not answer: such hooks run before the
   * others, so one that fails (DeletionPostponed) leaves nothing of the account erased.
   */
  readonly remote?: true;
}

/**
 * Thrown by a hook's erase that cannot end what it keeps now (a payment provider did not answer): the
 * deletion stops with nothing deleted, and the person is asked to send it again (503). The message says so.
 */
export class DeletionPostponed extends Error {}

export class DeletionHooks {
  private readonly hooks: DeletionHook[] = [];

  register(hook: DeletionHook): void {
    if (this.hooks.some((other) => other.name === hook.name)) throw new Error(`a deletion hook named ${hook.name} is registered already`);
    this.hooks.push(hook);
  }

  /** What keeps the account from being deleted, one sentence per hook that says so. */
  async blockers(accountId: string, confirmed: DeletionConfirmations): Promise<string[]> {
    const found: string[] = [];
    for (const hook of this.hooks) {
      const blocker = (await hook.blocker?.(accountId, confirmed)) ?? null;
      if (blocker !== null) found.push(blocker);
    }
    return found;
  }

  /** Runs every hook's erase, the remote ones first, else in the order registered; the first failure stops the deletion (the account stays). */
  async erase(accountId: string): Promise<void> {
    const ordered = [...this.hooks.filter((hook) => hook.remote), ...this.hooks.filter((hook) => !hook.remote)];
    for (const hook of ordered) await hook.erase(accountId);
  }
}
